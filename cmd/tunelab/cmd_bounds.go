package main

import (
	"fmt"
	"strings"

	"github.com/tunelab/tunelab/internal/contract"
	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/lab/bounds"
	"github.com/tunelab/tunelab/lab/catalog"
)

func init() {
	register(&command{
		name:    "bounds",
		summary: "value bounds: the range analysis' status of every generated variant of the arithmetic kernels and the operations' contract chains; --selftest: planted defects",
		run:     runBounds,
	})
}

// boundsKernels are the arithmetic kernels of issue 42 whose variants
// `tunelab bounds` reports (those registered here).
var boundsKernels = []string{
	"mlkem.ntt", "mlkem.invntt", "mlkem.mulntt", "mlkem.mulcache", "mlkem.matvec", "mlkem.compress",
	"mlkem.decompress", "mlkem.cbd2", "mlkem.cbd3",
	"mldsa.ntt", "mldsa.invntt", "mldsa.mulntt", "mldsa.matvec", "mldsa.power2round", "mldsa.lowbits",
	"mldsa.makehint", "mldsa.response", "mldsa.expandmask",
	"poly1305",
}

// A boundsRow is one variant's line.
type boundsRow struct {
	kernel, name, status, bound, why string
}

func runBounds(e *env, args []string) error {
	fs := newFlags(e, "bounds", "bounds [--kernel K,...] [-v] | bounds --selftest")
	selftest := fs.Bool("selftest", false, "require the analysis to report every defect planted on copies of generated variants as an overflow with lane and instruction")
	kernels := fs.String("kernel", "", "comma-separated kernels to report (default: every arithmetic kernel)")
	verbose := fs.Bool("v", false, "print why each variant is not proven")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if *selftest {
		if *kernels != "" {
			return usagef("bounds: --selftest runs the planted defects; --kernel selects what the report lists")
		}
		return boundsSelftest(e)
	}
	list := boundsKernels
	if *kernels != "" {
		list = cpu.SplitList(*kernels)
		for _, k := range list {
			if catalog.LookupKernel(k) == nil {
				return usagef("bounds: unknown kernel %q (run 'tunelab list')", k)
			}
		}
	}
	return boundsReport(e, list, *verbose)
}

// boundsRows returns the lines of the non-generic, non-external
// variants of the kernels of list, as the catalog lists them: the
// generated variants, the same in every build (a purego binary links none
// of them, yet their proofs are a property of the generated code).
func boundsRows(list []string) []boundsRow {
	var rows []boundsRow
	for _, k := range list {
		if catalog.LookupKernel(k) == nil {
			continue
		}
		c, hasContract := contract.Of(k)
		for _, v := range catalog.Variants(k) {
			if v.Name == variant.GenericName || v.External {
				continue
			}
			r := boundsRow{kernel: k, name: v.Name, status: bounds.Unproven, bound: "-"}
			switch s, ok := bounds.Of(k, v.Name); {
			case !hasContract:
				r.why = "no contract (internal/contract) and no analysis yet"
			case !ok:
				r.why = "no status: the generator did not run the analysis (-bounds)"
			default:
				r.status, r.why = s.Status, s.Why
				if s.Status == bounds.Proven {
					r.bound = strings.ReplaceAll(contract.Bound{Lo: s.Lo, Hi: s.Hi}.Format(c.Q), " ", "")
				} else if s.Instr != "" {
					r.why = fmt.Sprintf("instruction %d (%s) lane %d: %s", s.Index, s.Instr, s.Lane, s.Why)
				}
			}
			rows = append(rows, r)
		}
	}
	return rows
}

// boundsReport prints one line per variant, the chains and the summary;
// it fails unless every variant is proven and every chain holds.
func boundsReport(e *env, list []string, verbose bool) error {
	rows := boundsRows(list)
	n := map[string]int{}
	for _, r := range rows {
		n[r.status]++
		fmt.Fprintf(e.stdout, "%s %s %s %s\n", r.kernel, r.name, r.status, r.bound)
		if verbose && r.why != "" {
			fmt.Fprintf(e.stdout, "\t%s\n", r.why)
		}
	}
	var broken []string
	for _, c := range contract.Chains() {
		if err := c.Check(); err != nil {
			broken = append(broken, err.Error())
			fmt.Fprintf(e.stdout, "chain %s: broken: %v\n", c.Op, err)
			continue
		}
		fmt.Fprintf(e.stdout, "chain %s: %d links hold\n", c.Op, len(c.Links))
	}
	fmt.Fprintf(e.stdout, "bounds: %d variants: %d proven, %d overflow, %d unproven\n",
		len(rows), n[bounds.Proven], n[bounds.Overflow], n[bounds.Unproven])
	if len(rows) == 0 || n[bounds.Proven] != len(rows) || len(broken) > 0 {
		return &exitError{1, fmt.Errorf("bounds: %d of %d variants not proven, %d chains broken", len(rows)-n[bounds.Proven], len(rows), len(broken))}
	}
	return nil
}

// boundsSelftest checks the defects the generators planted on copies of
// their variants (lab/bounds.PlantedDefects).
func boundsSelftest(e *env) error {
	ps := bounds.PlantedDefects()
	var miss []string
	for _, p := range ps {
		res := "flagged"
		if !p.OK() {
			res = "MISSED"
			miss = append(miss, p.Defect)
		}
		fmt.Fprintf(e.stdout, "%s %s %s: %s %s\n", p.Defect, p.Kernel, p.Variant, p.Status, res)
		fmt.Fprintf(e.stdout, "\t%s\n", p.Doc)
		if p.Instr != "" {
			fmt.Fprintf(e.stdout, "\tinstruction %d (%s) lane %d: %s\n", p.Index, p.Instr, p.Lane, p.Why)
		} else if p.Why != "" {
			fmt.Fprintf(e.stdout, "\t%s\n", p.Why)
		}
	}
	if len(ps) == 0 {
		return &exitError{1, fmt.Errorf("bounds selftest: no planted defects recorded (run go generate ./kernels/mlkem)")}
	}
	if len(miss) > 0 {
		return &exitError{1, fmt.Errorf("bounds selftest: missed %s", strings.Join(miss, ", "))}
	}
	fmt.Fprintf(e.stdout, "selftest: %d planted defects, each reported as an overflow with lane and instruction\n", len(ps))
	return nil
}
