package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/mca"
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
	fs.StringVar(&f.mcpus, "mcpu", strings.Join(mca.DefaultMCPUs, ","), "llvm-mca CPU models, comma-separated")
	fs.IntVar(&f.size, "size", 0, "input size for cycles per op (default: each kernel's first default size)")
	fs.StringVar(&f.results, "results", "", "benchfmt results of this host to reconcile predictions with")
	fs.BoolVar(&f.json, "json", false, "print JSON")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	bin, err := mca.Find()
	if err != nil {
		return usagef("%v", err)
	}
	vs, err := mcaVariants(f.kernel, f.variant)
	if err != nil {
		return err
	}
	mcpus := mcaSplit(f.mcpus)
	host := mca.MCPUForUarch(mcaHostUarch())
	rep := &mcaReport{MCPUs: mcpus, Host: host}
	ctx := context.Background()
	for _, k := range mcaGroupByKernel(vs) {
		rep.Results = append(rep.Results, mca.PredictAll(ctx, bin, k, mcpus, mcaSizeFor(k[0].Kernel, f.size))...)
	}
	if f.results != "" {
		ms, err := mca.ReadMeasured(f.results)
		if err != nil {
			return usagef("%v", err)
		}
		rep.Reconciled = mca.Reconcile(rep.Results, ms, host)
	}
	if f.json {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	rep.writeText(e.stdout)
	return nil
}

// mcaReport is the whole output of `tunelab mca`.
type mcaReport struct {
	MCPUs      []string
	Host       string `json:"host_mcpu"`
	Results    []*mca.Result
	Reconciled []mca.Comparison `json:",omitempty"`
}

func (r *mcaReport) writeText(w io.Writer) {
	for _, kernel := range mcaKernelsOf(r.Results) {
		rs := mcaResultsOf(r.Results, kernel)
		for _, mcpu := range r.MCPUs {
			writeRanking(w, kernel, mcpu, rs)
		}
		writeSkipped(w, rs)
	}
	if len(r.Reconciled) > 0 {
		writeReconciled(w, r.Host, r.Reconciled)
	}
}

func writeRanking(w io.Writer, kernel, mcpu string, rs []*mca.Result) {
	ranked := mca.Rank(rs, mcpu)
	if len(ranked) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s on %s (predicted, llvm-mca)\n", kernel, mcpu)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "rank\tvariant\tcost\tx best\tcycles/iter\tIPC\tbottleneck\tunmodelled")
	for _, x := range ranked {
		c, unit := mca.Cost(x.Pred)
		fmt.Fprintf(tw, "%d\t%s\t%.1f %s\t%.2f\t%.1f\t%.2f\t%s\t%s\n", x.Rank, x.Result.Variant, c, unit,
			x.Relative, x.Pred.CyclesPerIter, x.Pred.IPC, x.Pred.Bottleneck, strings.Join(x.Pred.Unsupported, "; "))
	}
	tw.Flush()
}

func writeSkipped(w io.Writer, rs []*mca.Result) {
	for _, r := range rs {
		if r.Skipped != "" {
			fmt.Fprintf(w, "skipped %s %s: %s\n", r.Kernel, r.Variant, r.Skipped)
		}
		for _, p := range r.Predictions {
			if p.Prediction == nil && !strings.Contains(p.Skipped, " lacks ") {
				fmt.Fprintf(w, "skipped %s %s on %s: %s\n", r.Kernel, r.Variant, p.MCPU, p.Skipped)
			}
		}
	}
}

func writeReconciled(w io.Writer, host string, cs []mca.Comparison) {
	fmt.Fprintf(w, "\npredicted (%s) against measured on this host, per loop iteration (measured in TSC reference cycles)\n", host)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "kernel\tvariant\tsize\tpredicted\tmeasured\tmeasured/predicted\tflag")
	agree := 0
	for _, c := range cs {
		flag := ""
		if c.Flagged {
			flag = "DISAGREE >25%"
		} else {
			agree++
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.1f\t%.1f\t%.2f\t%s\n", c.Kernel, c.Variant, c.Size, c.PredictedPerIter, c.MeasuredPerIter, c.Ratio, flag)
	}
	tw.Flush()
	fmt.Fprintf(w, "agreement within 25%%: %d of %d variants\n", agree, len(cs))
}

func mcaKernelsOf(rs []*mca.Result) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range rs {
		if !seen[r.Kernel] {
			seen[r.Kernel] = true
			out = append(out, r.Kernel)
		}
	}
	return out
}

func mcaResultsOf(rs []*mca.Result, kernel string) []*mca.Result {
	var out []*mca.Result
	for _, r := range rs {
		if r.Kernel == kernel {
			out = append(out, r)
		}
	}
	return out
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

func mcaSplit(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
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
		names = mcaSplit(kernels)
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
			if v.Symbol != "" && v.LoopLabel != "" {
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
func mcaHostUarch() string { return dispatch.Host().Uarch() }
