package main

import (
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"hash"
	"io"
	"os"
	"regexp"
	"strings"
	"time"
	"unicode"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/dispatch"
)

func main() {
	if err := run(os.Stdout, os.Stderr, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "tiercheck:", err)
		os.Exit(1)
	}
}

// sizes is the spread of sizes every function runs at, in bytes.
var sizes = []int{0, 1, 15, 16, 17, 63, 64, 65, 200, 255, 256, 1000, 4096, 16384, 65536 + 7, 1 << 20}

// run parses args, runs the selected checks and writes their digests to
// stdout; diagnostics (and, with -v, tier details) go to stderr.
func run(stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("tiercheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	only := fs.String("func", "", "run only the functions whose name matches this regexp")
	kernelsOnly := fs.Bool("kernels", false, "run only the exported kernel functions, not the whole operations (mlkem768.keygen, ...)")
	seed := fs.Uint64("seed", 1, "seed of the input stream")
	list := fs.Bool("list", false, "list the function names and exit")
	verbose := fs.Bool("v", false, "print the CPU tier, timings and dispatched variants to stderr")
	maxSize := fs.Int("maxsize", 1<<20, "run only the sizes up to this many bytes (for emulated CPUs; the output names the sizes)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	re, err := regexp.Compile(*only)
	if err != nil {
		return fmt.Errorf("-func: %w", err)
	}
	selected := selectChecks(re, *kernelsOnly)
	if len(selected) == 0 {
		return fmt.Errorf("-func %q matches no function", *only)
	}
	if *list {
		for _, c := range selected {
			fmt.Fprintln(stdout, c.name)
		}
		return nil
	}
	if *verbose {
		printTier(stderr)
	}
	return runChecks(stdout, stderr, selected, sizesUpTo(*maxSize), *seed, *verbose)
}

// sizesUpTo returns the sizes of the spread up to max bytes.
func sizesUpTo(max int) []int {
	var out []int
	for _, n := range sizes {
		if n <= max {
			out = append(out, n)
		}
	}
	return out
}

func selectChecks(re *regexp.Regexp, kernelsOnly bool) []check {
	var out []check
	for _, c := range checks {
		if re.MatchString(c.name) && !(kernelsOnly && isOperation(c.name)) {
			out = append(out, c)
		}
	}
	return out
}

// runChecks runs each check at every size, printing a line as each one
// finishes (so a crash shows how far the run got), then the digest of all
// outputs.
func runChecks(stdout, stderr io.Writer, cs []check, sizes []int, seed uint64, verbose bool) error {
	fmt.Fprintf(stdout, "tiercheck seed=%d sizes=%s\n", seed, joinInts(sizes))
	all := sha256.New()
	var problems []string
	for _, c := range cs {
		x := &ctx{rng: newStream(seed, c.name), h: sha256.New(), all: all}
		start := time.Now()
		for _, n := range sizes {
			x.size = n
			c.run(x, n)
		}
		fmt.Fprintf(stdout, "%-24s %x %7d calls\n", c.name, x.h.Sum(nil), x.calls)
		if verbose {
			fmt.Fprintf(stderr, "time %-24s %v\n", c.name, time.Since(start).Round(time.Millisecond))
		}
		for _, p := range x.problems {
			problems = append(problems, c.name+": "+p)
		}
	}
	fmt.Fprintf(stdout, "%-24s %x\n", "all", all.Sum(nil))
	if verbose {
		printPlans(stderr)
	}
	if len(problems) > 0 {
		for _, p := range problems {
			fmt.Fprintln(stderr, "FAIL", p)
		}
		return errors.New("consistency checks failed")
	}
	return nil
}

// A ctx is the state of one check: its input stream, its digest and the
// digest of everything, and the problems its consistency checks found.
type ctx struct {
	rng      *stream
	h, all   hash.Hash
	size     int
	calls    int
	problems []string
}

// out adds b to the function's digest and to the digest of all outputs.
func (x *ctx) out(b []byte) {
	x.h.Write(b)
	x.all.Write(b)
}

// failf records a failed consistency check at the current size.
func (x *ctx) failf(format string, args ...any) {
	x.problems = append(x.problems, fmt.Sprintf("size %d: ", x.size)+fmt.Sprintf(format, args...))
}

// isOperation reports whether the check named name runs a whole
// operation ("mlkem768.keygen") rather than an exported function of a
// family ("mlkem.NTT", "aesecb.Encrypter/128"): its name after the
// package is lower case.
func isOperation(name string) bool {
	_, after, ok := strings.Cut(name, ".")
	return ok && after != "" && unicode.IsLower(rune(after[0]))
}

// printTier writes the CPU as dispatch sees it: under QEMU, the emulated one.
func printTier(w io.Writer) {
	host := cpu.Host()
	extras := strings.Join(host.Extras(), " ")
	if extras == "" {
		extras = "-"
	}
	fmt.Fprintf(w, "cpu %s: level %s, extras %s\n", host.Brand, host.Level(), extras)
}

// printPlans writes the variant each kernel dispatched to, per size class.
func printPlans(w io.Writer) {
	for _, p := range dispatch.Plans() {
		var parts []string
		for _, c := range p.Choices {
			upTo := "rest"
			if c.MaxSize > 0 {
				upTo = fmt.Sprintf("<=%d", c.MaxSize)
			}
			parts = append(parts, upTo+" "+c.Variant)
		}
		fmt.Fprintf(w, "dispatch %-13s %s\n", p.Kernel, strings.Join(parts, "; "))
	}
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, ",")
}
