package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/lab/mca"
)

func init() {
	register(&command{
		name:    "mca",
		summary: "predict variants' loop throughput per CPU model with llvm-mca",
		run:     runMCA,
	})
}

type mcaFlags struct {
	kernel, variant, mcpus, results string
	size                            int
	json                            bool
}

func runMCA(e *env, args []string) error {
	var f mcaFlags
	fs := newFlags(e, "mca", "mca [--kernel K] [--variant G] [--mcpu LIST] [--size N] [--results FILE] [--json]")
	fs.StringVar(&f.kernel, "kernel", "", "kernels to predict, comma-separated (default all with generated loops)")
	fs.StringVar(&f.variant, "variant", "", "variant glob over knobs, e.g. 'isa=avx512*/align=64'")
	fs.StringVar(&f.mcpus, "mcpu", strings.Join(mca.DefaultMCPUs, ","), "llvm-mca CPU models, comma-separated (the default list gains this host's model)")
	fs.Var(sizeValue{&f.size}, "size", "input size for cycles per op, "+sizeHelp+" (default: each kernel's first default size)")
	fs.StringVar(&f.results, "results", "", "benchfmt results of this host to reconcile predictions with")
	fs.BoolVar(&f.json, "json", false, "print JSON")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	vs, err := mcaVariants(f.kernel, f.variant)
	if err != nil {
		return err
	}
	if err := mcaCheckSizes(vs, f.size); err != nil {
		return err
	}
	rep, err := mcaPredict(f, mcaFlagGiven(fs, "mcpu"), vs)
	if err != nil {
		return err
	}
	if f.json {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return rep.WriteText(e.stdout)
}

// mcaPredict finds llvm-mca, predicts vs on the CPU models of f (the
// host's added to the default list) and reconciles with f.results.
func mcaPredict(f mcaFlags, explicitMCPUs bool, vs []*variant.Variant) (*mca.Report, error) {
	bin, err := mca.Find()
	if err != nil {
		return nil, fmt.Errorf("mca: %w", err)
	}
	host := mca.MCPUForUarch(mcaHostUarch())
	mcpus := mcaModels(f.mcpus, explicitMCPUs, host)
	if f.results != "" && !slices.Contains(mcpus, host) {
		return nil, usagef("mca --results: no llvm-mca model of this host (%s) among --mcpu %s", mcaHostUarch(), strings.Join(mcpus, ","))
	}
	rep := &mca.Report{MCPUs: mcpus, Host: host}
	ctx := context.Background()
	for _, k := range mcaGroupByKernel(vs) {
		rep.Results = append(rep.Results, mca.PredictAll(ctx, bin, k, mcpus, mcaSizeFor(k[0].Kernel, f.size))...)
	}
	if f.results != "" {
		ms, err := mca.ReadMeasured(f.results, cpu.Host().Key())
		if err != nil {
			return nil, usagef("%v", err)
		}
		rep.Reconciled = mca.Reconcile(rep.Results, ms, host)
	}
	return rep, nil
}

// mcaGroupByKernel splits variants into per-kernel lists, keeping order.
func mcaGroupByKernel(vs []*variant.Variant) [][]*variant.Variant {
	var out [][]*variant.Variant
	idx := map[string]int{}
	for _, v := range vs {
		i, ok := idx[v.Kernel]
		if !ok {
			i = len(out)
			idx[v.Kernel] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], v)
	}
	return out
}

// mcaSizeFor returns size, or the kernel's first default size when size is 0.
func mcaSizeFor(kernel string, size int) int {
	if size != 0 {
		return size
	}
	if k := variant.LookupKernel(kernel); k != nil && len(k.Sizes) > 0 {
		return k.Sizes[0]
	}
	return 0
}

// mcaCheckSizes rejects a size that a selected kernel cannot run.
func mcaCheckSizes(vs []*variant.Variant, size int) error {
	for _, k := range mcaGroupByKernel(vs) {
		if kn := variant.LookupKernel(k[0].Kernel); kn != nil {
			if err := checkSize(kn, mcaSizeFor(kn.Name, size)); err != nil {
				return usagef("mca: %v", err)
			}
		}
	}
	return nil
}

// mcaModels returns the CPU models to predict: the --mcpu list, plus the
// host's own model (when llvm-mca has one) if the list is the default, so
// that every host can reconcile predictions with its measurements.
func mcaModels(list string, explicit bool, host string) []string {
	mcpus := cpu.SplitList(list)
	if !explicit && host != "" && !slices.Contains(mcpus, host) {
		mcpus = append(mcpus, host)
	}
	return mcpus
}

// mcaFlagGiven reports whether the flag name was given on the command line.
func mcaFlagGiven(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// mcaVariants selects registered variants with a generated loop: every
// kernel in the comma-separated list (all when empty) whose name matches
// the glob. Offset-sweep variants are included: their layout is the point.
func mcaVariants(kernels, pattern string) ([]*variant.Variant, error) {
	var names []string
	if kernels == "" {
		for _, k := range variant.Kernels() {
			names = append(names, k.Name)
		}
	} else {
		names = cpu.SplitList(kernels)
	}
	var out []*variant.Variant
	for _, name := range names {
		if variant.LookupKernel(name) == nil {
			return nil, usagef("mca: unknown kernel %q (see 'tunelab list')", name)
		}
		vs, err := variant.Match(name, pattern)
		if err != nil {
			return nil, usagef("mca: %v", err)
		}
		for _, v := range vs {
			if v.HasHotCode() {
				out = append(out, v)
			}
		}
	}
	if len(out) == 0 {
		return nil, usagef("mca: no variant with a generated loop matches --kernel %q --variant %q", kernels, pattern)
	}
	return out, nil
}

// mcaHostUarch returns this host's microarchitecture name.
func mcaHostUarch() string { return cpu.Host().Uarch() }
