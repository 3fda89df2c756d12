package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/tunelab/tunelab/harness"
	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/lab/catalog"
	"github.com/tunelab/tunelab/lab/ct"
)

func init() {
	register(&command{
		name:    "list",
		summary: "list kernels and variants with knobs, required features and whether they run here",
		run:     runList,
	})
}

// listKernel is the JSON form of one kernel in `tunelab list --json`.
type listKernel struct {
	Name     string        `json:"name"`
	Family   string        `json:"family"`
	Bench    string        `json:"bench"`
	Unit     string        `json:"unit"`
	Sizes    []int         `json:"sizes"`
	Doc      string        `json:"doc"`
	Variants []listVariant `json:"variants"`
}

// listVariant is the JSON form of one variant.
type listVariant struct {
	Name        string     `json:"name"`
	Knobs       [][]string `json:"knobs"` // [key, value] pairs in name order
	Features    []string   `json:"features"`
	Runnable    bool       `json:"runnable"`
	Missing     []string   `json:"missing,omitempty"`
	External    bool       `json:"external,omitempty"`
	OffsetSweep bool       `json:"offset_sweep,omitempty"`
	// Production marks a variant production code can select: see
	// productionVariants.
	Production bool `json:"production,omitempty"`
	// CT is the constant-time static check's status (see ctState).
	CT string `json:"ct"`
}

func runList(e *env, args []string) error {
	fs := newFlags(e, "list", "list [--kernel K,...] [--prod] [--json | --names]")
	kernels := fs.String("kernel", "", "comma-separated kernels to list (default all)")
	prod := fs.Bool("prod", false, "list only the variants production code can select (compiled dispatch table entries, feature-level defaults, generic fallbacks)")
	asJSON := fs.Bool("json", false, "print JSON")
	names := fs.Bool("names", false, "print one line per variant: kernel, variant and role (production, lab or external)")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if *asJSON && *names {
		return usagef("list: --json and --names are two output formats; pick one")
	}
	ks, err := lookupKernels(*kernels)
	if err != nil {
		return err
	}
	out := make([]listKernel, 0, len(ks))
	for _, k := range ks {
		lk := describeKernel(k)
		if *prod {
			lk.Variants = productionOnly(lk.Variants)
		}
		if len(lk.Variants) > 0 || !*prod {
			out = append(out, lk)
		}
	}
	switch {
	case *names:
		printNames(e, out)
		return nil
	case *asJSON:
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	printList(e, out)
	return nil
}

// productionVariants returns, per kernel, the variants production code
// can select: every variant a compiled dispatch table entry or a
// feature-level default names (what each family's generated
// zprod_amd64.go links), and the generic fallback of every kernel the
// table covers.
func productionVariants() map[string]map[string]bool {
	prod := map[string]map[string]bool{}
	for kernel, cs := range dispatch.Compiled().Choices() {
		if prod[kernel] == nil {
			prod[kernel] = map[string]bool{variant.GenericName: true}
		}
		for _, c := range cs {
			prod[kernel][c.Variant] = true
		}
	}
	return prod
}

func productionOnly(vs []listVariant) []listVariant {
	var out []listVariant
	for _, v := range vs {
		if v.Production {
			out = append(out, v)
		}
	}
	return out
}

// printNames prints "KERNEL VARIANT ROLE" per variant, for scripts (.ci/matrix
// checks that every production variant ran on some CPU tier).
func printNames(e *env, ks []listKernel) {
	for _, k := range ks {
		for _, v := range k.Variants {
			fmt.Fprintf(e.stdout, "%s %s %s\n", k.Name, v.Name, variantRole(v))
		}
	}
}

// variantRole is production, external (a reference implementation from
// another module, never dispatched) or lab (every other variant,
// offset-sweep copies included).
func variantRole(v listVariant) string {
	switch {
	case v.Production:
		return "production"
	case v.External:
		return "external"
	}
	return "lab"
}

// lookupKernels resolves a comma-separated kernel list ("" = all).
func lookupKernels(list string) ([]*variant.Kernel, error) {
	if list == "" {
		return variant.Kernels(), nil
	}
	var ks []*variant.Kernel
	for _, n := range cpu.SplitList(list) {
		k := variant.LookupKernel(n)
		if k == nil {
			return nil, usagef("unknown kernel %q (run 'tunelab list')", n)
		}
		ks = append(ks, k)
	}
	return ks, nil
}

func describeKernel(k *variant.Kernel) listKernel {
	lk := listKernel{Name: k.Name, Family: k.Family, Bench: k.Bench, Unit: k.Unit, Sizes: k.Sizes, Doc: k.Doc}
	prod := productionVariants()[k.Name]
	for _, v := range variant.Variants(k.Name) {
		lv := listVariant{Name: v.Name, Features: v.Features, External: v.External, OffsetSweep: v.OffsetSweep,
			Production: prod[v.Name] && !v.OffsetSweep && !v.External}
		for _, kn := range variant.Knobs(v.Name) {
			lv.Knobs = append(lv.Knobs, []string{kn.Key, kn.Value})
		}
		lv.CT = ctState(v.Kernel, v.Name)
		lv.Missing = harness.MissingFeatures(v)
		lv.Runnable = len(lv.Missing) == 0
		if lv.Features == nil {
			lv.Features = []string{}
		}
		lk.Variants = append(lk.Variants, lv)
	}
	return lk
}

func printList(e *env, ks []listKernel) {
	for i, k := range ks {
		if i > 0 {
			fmt.Fprintln(e.stdout)
		}
		sizes := "fixed"
		if len(k.Sizes) > 0 {
			sizes = strings.Trim(fmt.Sprint(k.Sizes), "[]")
		}
		fmt.Fprintf(e.stdout, "%s (family %s, Benchmark%s, unit %s, sizes %s): %s\n", k.Name, k.Family, k.Bench, k.Unit, sizes, k.Doc)
		tw := tabwriter.NewWriter(e.stdout, 2, 8, 2, ' ', 0)
		for _, v := range k.Variants {
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", v.Name, featureList(v.Features), variantState(v))
		}
		tw.Flush()
	}
}

func featureList(fs []string) string {
	if len(fs) == 0 {
		return "-"
	}
	return strings.Join(fs, ",")
}

func variantState(v listVariant) string {
	var s []string
	if v.Runnable {
		s = append(s, "runnable")
	} else {
		s = append(s, "not runnable (missing "+strings.Join(v.Missing, ",")+")")
	}
	if v.External {
		s = append(s, "external")
	}
	if v.Production {
		s = append(s, "production")
	}
	if v.OffsetSweep {
		s = append(s, "offset-sweep")
	}
	return strings.Join(append(s, "ct "+v.CT), ", ")
}

// reportCTState is ctState for a report, from today's catalog of
// variants rather than what this binary registered: the same in every
// build.
func reportCTState(kernel, name string) string {
	if s := ct.Lookup(kernel, name); s.Checked {
		return s.String()
	}
	switch e := catalog.Lookup(kernel, name); {
	case e == nil:
		return "not registered"
	case e.GoCode:
		return "go"
	}
	return "unchecked"
}

// ctState is a variant's constant-time status: the static check's
// verdict on its generated functions ("ok", "2 findings (address)"),
// "go" for Go code (no generated function; only the dynamic check
// applies), "unchecked" for generated code no status file covers, and
// "not registered" for a variant this binary does not have.
func ctState(kernel, name string) string {
	if s := ct.Lookup(kernel, name); s.Checked {
		return s.String()
	}
	switch v := variant.Lookup(kernel, name); {
	case v == nil:
		return "not registered"
	case v.Symbol == "":
		return "go"
	}
	return "unchecked"
}
