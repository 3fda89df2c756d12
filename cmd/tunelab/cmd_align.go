package main

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/tunelab/tunelab/harness"
	"github.com/tunelab/tunelab/harness/resultfile"
	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/lab/align"
)

func init() {
	register(&command{
		name:    "align",
		summary: "measure how the hot loop's placement within a 64-byte line affects a kernel, warm or cold",
		run:     runAlign,
	})
}

// defaultAlignBudget is the measurement budget per kernel.
const defaultAlignBudget = 20 * time.Second

// alignFlags are the parsed flags of `tunelab align`.
type alignFlags struct {
	kernel, variant, offsets, entry, out, svg string
	size, samples                             int
	budget, sampleTime                        time.Duration
	seed                                      uint64
}

func runAlign(e *env, args []string) error {
	f, err := parseAlignFlags(e, args)
	if err != nil {
		return err
	}
	set, opts, err := f.resolve()
	if err != nil {
		return err
	}
	opts.Log = e.stderr
	m, err := align.Measure(set, opts)
	if err != nil {
		return err
	}
	a := align.Analyze(m)
	if err := align.WriteText(e.stdout, a); err != nil {
		return err
	}
	return f.writeFiles(e, m, a)
}

func parseAlignFlags(e *env, args []string) (*alignFlags, error) {
	fs := newFlags(e, "align", "align --kernel K [--variant V] [--offsets 0-63/4] [--entry warm|cold] [--budget D] [-o FILE] [--svg FILE]")
	f := &alignFlags{}
	fs.StringVar(&f.kernel, "kernel", "", "kernel to measure (required), e.g. keccak.x4")
	fs.StringVar(&f.variant, "variant", "", "base variant, with or without its align knob (default: of the offset-sweep bases this host runs, dispatch's choice, else one of its ISA width, else the widest)")
	fs.StringVar(&f.offsets, "offsets", align.DefaultOffsets, "loop-head offsets: N, A-B or A-B/S items, comma-separated, within 0..63 (align=64 and align=none are always measured)")
	fs.StringVar(&f.entry, "entry", align.Warm, "warm (steady-state throughput) or cold (first call after evicting the instruction cache and op-cache)")
	fs.DurationVar(&f.budget, "budget", defaultAlignBudget, "wall time of the measurement rounds")
	fs.StringVar(&f.out, "o", "", "result file (default results/align-<kernel>-<entry>-<date>.txt)")
	fs.StringVar(&f.svg, "svg", "", "write an SVG plot of time against offset to this file")
	f.size = -1
	fs.Var(sizeValue{&f.size}, "size", "input size for kernels with sizes, "+sizeHelp+" (default: largest size up to 1024)")
	fs.IntVar(&f.samples, "samples", 0, fmt.Sprintf("maximum samples per offset (default %d warm, %d cold)", align.DefaultWarmSamples, align.DefaultColdSamples))
	fs.DurationVar(&f.sampleTime, "sample-time", time.Millisecond, "target duration of one warm sample")
	fs.Uint64Var(&f.seed, "seed", 1, "seed for inputs and the interleaving order")
	if err := parseNoArgs(fs, args); err != nil {
		return nil, err
	}
	return f, f.validate()
}

// validate checks what can be checked without the registry.
func (f *alignFlags) validate() error {
	switch {
	case f.kernel == "":
		return usagef("align: --kernel is required")
	case f.entry != align.Warm && f.entry != align.Cold:
		return usagef("align: --entry %q: want warm or cold", f.entry)
	case f.budget <= 0:
		return usagef("align: --budget %v: want a positive duration", f.budget)
	case f.samples < 0:
		return usagef("align: --samples %d: want 0 (default) or more", f.samples)
	case f.sampleTime < 10*time.Microsecond || f.sampleTime > time.Second:
		return usagef("align: --sample-time %v: want 10µs..1s", f.sampleTime)
	}
	return nil
}

// resolve looks up the kernel and the set of arms and builds the options.
func (f *alignFlags) resolve() (*align.Set, align.Options, error) {
	var o align.Options
	offs, err := align.ParseOffsets(f.offsets)
	if err != nil {
		return nil, o, usagef("align: --offsets: %v", err)
	}
	k := variant.LookupKernel(f.kernel)
	if k == nil {
		return nil, o, usagef("align: unknown kernel %q (run 'tunelab list')", f.kernel)
	}
	size := f.size
	switch {
	case size < 0:
		size = align.DefaultSize(k)
	case len(k.Sizes) == 0 && size != 0:
		return nil, o, usagef("align: kernel %s has a fixed-size input; drop --size", k.Name)
	}
	if err := checkSize(k, size); err != nil {
		return nil, o, usagef("align: %v", err)
	}
	set, err := align.NewSet(k.Name, f.variant, offs, size)
	var re *align.RequestError
	if errors.As(err, &re) {
		return nil, o, usagef("align: %v", re)
	}
	if err != nil {
		return nil, o, fmt.Errorf("align: %w", err)
	}
	o = align.Options{Entry: f.entry, Size: size, Budget: f.budget, MaxSamples: f.samples,
		SampleTime: f.sampleTime, Seed: f.seed}
	return set, o, nil
}

// writeFiles writes the result file and, if asked, the plot.
func (f *alignFlags) writeFiles(e *env, m *align.Measurement, a *align.Analysis) error {
	var id [8]byte
	rand.Read(id[:])
	run := harness.NewRun(binary.LittleEndian.Uint64(id[:]))
	run.TSCHz = m.TSCHz
	out := f.out
	if out == "" {
		out = filepath.Join("results", fmt.Sprintf("align-%s-%s-%s.txt", f.kernel, f.entry,
			time.Now().UTC().Format("2006-01-02T150405")))
	}
	host := resultfile.HostConfig(run)
	if err := align.WriteFileAtomic(out, func(w io.Writer) error { return align.WriteResults(w, host, m) }); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "results: %s\n", out)
	if f.svg == "" {
		return nil
	}
	if err := align.WriteFileAtomic(f.svg, func(w io.Writer) error { return align.WriteSVG(w, a) }); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "plot: %s\n", f.svg)
	return nil
}
