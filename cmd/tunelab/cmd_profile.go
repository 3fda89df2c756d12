package main

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/google/pprof/profile"

	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/lab/profiler"
)

func init() {
	register(&command{
		name:    "profile",
		summary: "profile a variant with perf sampling into a pprof file; show hot .s lines; diff two profiles",
		run:     runProfile,
	})
}

type profileFlags struct {
	kernel, variant, event, out string
	size, lines                 int
	seconds                     float64
	top, diff                   bool
}

func runProfile(e *env, args []string) error {
	var f profileFlags
	fs := newFlags(e, "profile", "profile --kernel K [--variant V] [--size N] [--seconds S] [--event E] -o OUT.pb.gz [--top]\n"+
		"       tunelab profile --top FILE.pb.gz\n       tunelab profile --diff BASE.pb.gz NEW.pb.gz")
	fs.StringVar(&f.kernel, "kernel", "", "kernel to profile (see 'tunelab list')")
	fs.StringVar(&f.variant, "variant", "", "variant name (default: the variant dispatch selects on this host, else the widest-ISA variant the host runs)")
	f.size = -1
	fs.Var(sizeValue{&f.size}, "size", "input size, "+sizeHelp+" (default: the kernel's first default size)")
	fs.Float64Var(&f.seconds, "seconds", 2, "how long to run the variant while sampling")
	fs.StringVar(&f.event, "event", "", "event to sample (default: cycles with a PMU, else cpu-clock)")
	fs.StringVar(&f.out, "o", "", "write the profile (gzipped pprof protobuf) to this file")
	fs.BoolVar(&f.top, "top", false, "print the hottest instructions with their .s source lines")
	fs.BoolVar(&f.diff, "diff", false, "compare two profiles given as arguments: where the samples moved")
	fs.IntVar(&f.lines, "n", 20, "number of instructions or lines that --top and --diff print")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case f.diff:
		if fs.NArg() != 2 {
			return usagef("profile --diff: want two profile files, got %d arguments", fs.NArg())
		}
		return profileDiff(e, fs.Arg(0), fs.Arg(1), f.lines)
	case f.kernel == "" && f.top && fs.NArg() == 1:
		p, err := readProfile(fs.Arg(0))
		if err != nil {
			return err
		}
		profiler.WriteTop(e.stdout, p, f.lines, "")
		return nil
	case f.kernel == "":
		return usagef("profile: --kernel is required (or --top FILE, --diff A B)")
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	if f.out == "" && !f.top {
		return usagef("profile: give -o OUT.pb.gz and/or --top")
	}
	return profileRecord(e, f)
}

// profileOptions resolves the flags to profiler options.
func profileOptions(f profileFlags) (profiler.Options, error) {
	k := variant.LookupKernel(f.kernel)
	if k == nil {
		return profiler.Options{}, usagef("profile: unknown kernel %q (see 'tunelab list')", f.kernel)
	}
	size := f.size
	if size < 0 {
		size = 0
		if len(k.Sizes) > 0 {
			size = k.Sizes[0]
		}
	}
	if err := checkSize(k, size); err != nil {
		return profiler.Options{}, usagef("profile: %v", err)
	}
	if f.seconds <= 0 {
		return profiler.Options{}, usagef("profile: --seconds must be positive")
	}
	v, err := profileVariant(f.kernel, f.variant, size)
	if err != nil {
		return profiler.Options{}, err
	}
	return profiler.Options{Variant: v, Size: size, Seed: 1, Event: f.event,
		Duration: time.Duration(f.seconds * float64(time.Second))}, nil
}

// profileVariant returns the named variant if the host runs it, or
// profiler.Default's choice when name is "".
func profileVariant(kernel, name string, size int) (*variant.Variant, error) {
	if name == "" {
		v, err := profiler.Default(kernel, size)
		if err != nil {
			return nil, fmt.Errorf("profile: %w", err)
		}
		return v, nil
	}
	v := variant.Lookup(kernel, name)
	if v == nil {
		return nil, usagef("profile: kernel %s has no variant %q", kernel, name)
	}
	if err := profiler.Runnable(v, size); err != nil {
		return nil, fmt.Errorf("profile: %w", err)
	}
	return v, nil
}

func profileRecord(e *env, f profileFlags) error {
	o, err := profileOptions(f)
	if err != nil {
		return err
	}
	o.Log = e.stderr
	r, err := profiler.Record(o)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "profile: %s %s size %d: %d samples (%d lost)\n", o.Variant.Kernel, o.Variant.Name, o.Size, r.Samples, r.Lost)
	if f.out != "" {
		if err := writeProfile(r.Profile, f.out); err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "profile: wrote %s; read it with 'go tool pprof -top %s' or 'go tool pprof -list %s %s'\n",
			f.out, f.out, listPattern(profiler.HottestFunction(r.Profile)), f.out)
	}
	if f.top {
		exe, _ := os.Executable() // the binary whose PCs were sampled
		profiler.WriteTop(e.stdout, r.Profile, f.lines, exe)
	}
	return nil
}

// listPattern turns a function name into a pprof -list regexp: its last
// path element with dots, parentheses and stars escaped.
func listPattern(fn string) string {
	if i := strings.LastIndexByte(fn, '/'); i >= 0 {
		fn = fn[i+1:]
	}
	return "'" + regexp.QuoteMeta(fn) + "'"
}

func writeProfile(p *profile.Profile, path string) error {
	if err := p.CheckValid(); err != nil {
		return fmt.Errorf("writing profile %s: %w", path, err)
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("writing profile: %w", err)
	}
	if err := p.Write(f); err != nil {
		f.Close()
		return fmt.Errorf("writing profile %s: %w", path, err)
	}
	return f.Close()
}

func readProfile(path string) (*profile.Profile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading profile: %w", err)
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		return nil, fmt.Errorf("reading profile %s: %w", path, err)
	}
	return p, nil
}

func profileDiff(e *env, a, b string, n int) error {
	pa, err := readProfile(a)
	if err != nil {
		return err
	}
	pb, err := readProfile(b)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "base %s\nnew  %s\n", a, b)
	profiler.WriteDiff(e.stdout, pa, pb, n)
	return nil
}
