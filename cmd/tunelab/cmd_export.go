package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/tunelab/tunelab/lab/ct"
	"github.com/tunelab/tunelab/reports"
	"github.com/tunelab/tunelab/reports/export"
)

// defaultGoTable is where --format go writes unless -o says otherwise.
const defaultGoTable = "kernels/dispatch/ztable.go"

func init() {
	register(&command{
		name:    "export",
		summary: "export the per-CPU-model dispatch table as JSON or Go (kernels/dispatch/ztable.go)",
		run:     runExport,
	})
}

// exportFlags are the flags of `tunelab export` beyond the analysis
// options.
type exportFlags struct {
	format, out, base, fleet string
	assume                   []assumption
	byOperation              []string
}

// An assumption is one --assume-features value: the features to record
// for the base table's legacy entries of one CPU model.
type assumption struct {
	key      string
	features []string
}

func runExport(e *env, args []string) error {
	fs := newFlags(e, "export", "export [FILE...] [--base TABLE [--assume-features KEY=FEATURES]...] --format json|go [-o OUT] | export --fleet DIR --format go -o OUT")
	var f exportFlags
	fs.StringVar(&f.fleet, "fleet", "", "export the fleet in `DIR` (results/fleet): its result files (*.txt, *.txt.gz) and, for the CPUs they do not measure, the entries of its legacy base ("+legacyBaseFile+"); sources are named by their paths from the module root (go generate ./kernels/dispatch)")
	fs.StringVar(&f.format, "format", "json", "output format: json or go")
	fs.StringVar(&f.out, "o", "", "output `file` (json: stdout if empty; go: "+defaultGoTable+")")
	fs.StringVar(&f.base, "base", "", "merge the results into this earlier `table`: a ztable.go, or JSON as --format json writes it")
	fs.Func("by-operation", "let whole-operation kernel `OP` (e.g. mlkem768.keygen) decide the entries of the kernels its composition knobs set (ways: shake128.many, shake256.many); repeatable",
		func(s string) error { f.byOperation = append(f.byOperation, s); return nil })
	fs.Func("assume-features", "record `KEY=f1,f2,...` (e.g. GenuineIntel/0x06/0xcf=sse3,avx2) as the features of the base table's legacy entries of that model; repeatable",
		func(s string) error { return f.addAssumption(s) })
	opt := addDecisionFlags(fs)
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if f.fleet != "" {
		if files, err = f.fleetFiles(files); err != nil {
			return err
		}
	}
	if err := f.check(files); err != nil {
		return err
	}
	table, err := exportTable(e, files, *opt, f)
	if err != nil {
		return err
	}
	if err := admitConstantTime(table); err != nil {
		return err
	}
	return writeTable(e, table, f)
}

// admitConstantTime refuses a table that names a variant with a
// constant-time finding (or generated code the check has not seen): no
// such variant may ship.
func admitConstantTime(t *export.Table) error {
	seen := map[string]bool{}
	var errs []string
	admit := func(kernel string, cs []export.Choice) {
		for _, c := range cs {
			if key := kernel + " " + c.Variant; !seen[key] {
				seen[key] = true
				if err := ct.Admit(kernel, c.Variant); err != nil {
					errs = append(errs, err.Error())
				}
			}
		}
	}
	for _, e := range t.Entries {
		admit(e.Kernel, e.Choices)
	}
	for _, d := range t.Defaults {
		admit(d.Kernel, d.Choices)
	}
	if len(errs) > 0 {
		return fmt.Errorf("export: refusing to put variants that fail the constant-time check into a table (measure without them: sweep --variant):\n\t%s", strings.Join(errs, "\n\t"))
	}
	return nil
}

func (f *exportFlags) addAssumption(s string) error {
	key, list, ok := strings.Cut(s, "=")
	if !ok || key == "" || list == "" {
		return fmt.Errorf("want KEY=f1,f2,..., got %q", s)
	}
	f.assume = append(f.assume, assumption{key, strings.Split(list, ",")})
	return nil
}

// check rejects flag combinations that make no table.
func (f *exportFlags) check(files []string) error {
	switch {
	case len(files) == 0 && f.base == "":
		return usagef("export: no result files or --base table given")
	case len(f.assume) > 0 && f.base == "":
		return usagef("export: --assume-features applies to a --base table; none given")
	case f.format != "json" && f.format != "go":
		return usagef("export: --format must be json or go, not %q", f.format)
	}
	return nil
}

// exportTable exports the result files (one entry per model, kernel and
// feature set) and merges in the base table, if any.
func exportTable(e *env, files []string, opt reports.Options, f exportFlags) (*export.Table, error) {
	table := export.EmptyTable()
	var rep *reports.Report
	if len(files) > 0 {
		var err error
		if rep, err = analyzeFiles(e, files, opt); err != nil {
			return nil, err
		}
		if table, err = export.ExportAnalyzed(rep); err != nil {
			return nil, &exitError{code: 2, err: err}
		}
		for _, w := range table.Warnings() {
			fmt.Fprintln(e.stderr, "warning:", w)
		}
	}
	for _, n := range table.Notes {
		if !strings.HasPrefix(n, "warning: ") {
			n = "note: " + n
		}
		fmt.Fprintln(e.stderr, n)
	}
	if err := decideByOperations(e, table, rep, f.byOperation); err != nil {
		return nil, err
	}
	if f.fleet != "" {
		return table, addFleetSources(e, table, f.fleet)
	}
	if f.base == "" {
		return table, nil
	}
	base, err := export.ReadTable(f.base)
	if err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	for _, a := range f.assume {
		if err := base.AssumeFeatures(a.key, a.features); err != nil {
			return nil, fmt.Errorf("export: %w", err)
		}
	}
	for _, n := range table.Merge(base) {
		fmt.Fprintln(e.stderr, "warning:", n)
	}
	return table, nil
}

// decideByOperations applies --by-operation: each named whole operation
// decides the entries of the kernels its knobs set, from the report the
// table was exported from (the files are read once).
func decideByOperations(e *env, table *export.Table, rep *reports.Report, ops []string) error {
	if len(ops) == 0 {
		return nil
	}
	if rep == nil {
		return usagef("export: --by-operation needs result files")
	}
	for _, op := range ops {
		notes, err := export.DecideByOperation(table, rep, op)
		if err != nil {
			return &exitError{code: 2, err: err}
		}
		for _, n := range notes {
			fmt.Fprintln(e.stderr, "note:", n)
		}
	}
	return nil
}

// writeTable encodes the table and writes it to -o, stdout (JSON) or
// defaultGoTable (Go).
func writeTable(e *env, t *export.Table, f exportFlags) error {
	data, err := encodeTable(t, f.format)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if f.out == "" && f.format == "go" {
		f.out = defaultGoTable
	}
	if f.out == "" {
		_, err := e.stdout.Write(data)
		return err
	}
	reportChanges(e, t, f)
	return export.WriteFileAtomic(f.out, data)
}

// reportChanges prints, to stderr, what the table changes against the
// one at -o that it replaces (entries and defaults added, replaced and
// dropped, per kernel).
func reportChanges(e *env, t *export.Table, f exportFlags) {
	old, err := export.ReadTable(f.out)
	if err != nil {
		if _, serr := os.Stat(f.out); serr == nil {
			fmt.Fprintf(e.stderr, "export: %s is replaced; it could not be read to compare (%v)\n", f.out, err)
		}
		return
	}
	lines := t.Diff(old)
	fmt.Fprintf(e.stderr, "export: changes to %s: %s\n", f.out, lines[len(lines)-1])
	for _, l := range lines[:len(lines)-1] {
		fmt.Fprintln(e.stderr, "  "+l)
	}
}

func encodeTable(t *export.Table, format string) ([]byte, error) {
	if format == "go" {
		return t.GoSource()
	}
	return t.JSON()
}
