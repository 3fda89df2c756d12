package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"

	"github.com/tunelab/tunelab/lab/mca"
	"github.com/tunelab/tunelab/reports"
	"github.com/tunelab/tunelab/reports/export"
	"github.com/tunelab/tunelab/reports/render"
)

func init() {
	register(&command{
		name:    "report",
		summary: "summarize result files: winners per CPU model, size classes, knob effects",
		run:     runReport,
	})
}

func runReport(e *env, args []string) error {
	fs := newFlags(e, "report", "report [--md FILE] [--html FILE] [--mca FILE] [--alpha A] [--threshold T] FILE...")
	md := fs.String("md", "", "also write the report as Markdown to `FILE`")
	htmlOut := fs.String("html", "", "also write a self-contained HTML report with SVG charts to `FILE`")
	mcaFile := fs.String("mca", "", "add the llvm-mca predictions of `FILE` (written by 'tunelab mca --json') to the HTML report")
	opt := addDecisionFlags(fs)
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usagef("report: no result files given")
	}
	rep, err := analyzeFiles(e, files, *opt)
	if err != nil {
		return err
	}
	var bounds []mca.Bound
	if *mcaFile != "" {
		m, err := readMCAReport(*mcaFile)
		if err != nil {
			return &exitError{code: 2, err: err}
		}
		bounds = mca.Bounds(rep, m)
		rep.Sections = append(rep.Sections, m.WriteHTML, mca.BoundsHTML(bounds))
	}
	cts := newCTSection(rep)
	rep.Sections = append(rep.Sections, render.OperationsHTML(rep), cts.writeHTML)
	if err := writeReportFile(*md, func(w io.Writer) error {
		if err := render.WriteMarkdown(w, rep); err != nil {
			return err
		}
		return cts.writeMarkdown(w)
	}); err != nil {
		return err
	}
	if err := writeReportFile(*htmlOut, func(w io.Writer) error { return render.WriteHTML(w, rep) }); err != nil {
		return err
	}
	if err := render.WriteText(e.stdout, rep); err != nil {
		return err
	}
	if err := render.WriteOperationsText(e.stdout, rep); err != nil {
		return err
	}
	cts.writeText(e.stdout)
	if *mcaFile != "" {
		return mca.WriteBoundsText(e.stdout, bounds)
	}
	return nil
}

// addDecisionFlags adds the winner rule's settings, --alpha and
// --threshold, to fs and returns the options they set, the defaults
// where not given.
func addDecisionFlags(fs *flag.FlagSet) *reports.Options {
	opt := reports.DefaultOptions()
	fs.Float64Var(&opt.Alpha, "alpha", opt.Alpha, "significance level of the decision's tests (signed-rank over shared rounds; Mann-Whitney U for files without rounds)")
	fs.Float64Var(&opt.Threshold, "threshold", opt.Threshold, "smallest relative advantage that counts as a win (0.01 = 1%)")
	return &opt
}

// analyzeFiles reads result files, printing warnings to stderr; unreadable
// or empty input exits with status 2.
func analyzeFiles(e *env, files []string, opt reports.Options) (*reports.Report, error) {
	set, err := readResults(e, files)
	if err != nil {
		return nil, err
	}
	return reports.Analyze(set, opt), nil
}

func readResults(e *env, files []string) (*reports.Set, error) {
	set, warnings, err := reports.Read(files)
	for _, w := range warnings {
		fmt.Fprintln(e.stderr, "warning:", w)
	}
	if err != nil {
		return nil, &exitError{code: 2, err: err}
	}
	return set, nil
}

// readMCAReport reads a `tunelab mca --json` report and refuses one with
// null results or predictions, which the HTML section cannot render.
func readMCAReport(path string) (*mca.Report, error) {
	m, err := mca.ReadReport(path)
	if err != nil {
		return nil, err
	}
	for i, r := range m.Results {
		if r == nil {
			return nil, fmt.Errorf("%s: Results[%d] is null: want a result object as written by 'tunelab mca --json'", path, i)
		}
		for j, p := range r.Predictions {
			if p == nil {
				return nil, fmt.Errorf("%s: Results[%d].Predictions[%d] is null: want a prediction object as written by 'tunelab mca --json'", path, i, j)
			}
		}
	}
	return m, nil
}

// writeReportFile renders with write and stores the output at path (if
// path is not empty) atomically.
func writeReportFile(path string, write func(w io.Writer) error) error {
	if path == "" {
		return nil
	}
	var b bytes.Buffer
	if err := write(&b); err != nil {
		return err
	}
	return export.WriteFileAtomic(path, b.Bytes())
}

// parseInterspersed parses flags that may appear before, between or after
// positional arguments, and returns the positional arguments.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := parseFlags(fs, args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}
