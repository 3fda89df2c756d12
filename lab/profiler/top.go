package profiler

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/google/pprof/profile"
	"github.com/tunelab/tunelab/kernels/variant"
)

// A Hot is one instruction address with its share of the samples.
type Hot struct {
	Addr  uint64
	Share float64 // of the profile's total, 0..1
	Func  string
	File  string
	Line  int64
	// Source is the text of File:Line; Note is the nearest comment above
	// it in the same TEXT block of a .s file (where generators record what
	// emitted the code), "" if none.
	Source, Note string
	// Disasm is GNU objdump's text of the instruction (see AddDisasm).
	Disasm string
}

// valueIndex returns the index of the default sample type (the last one
// when unset).
func valueIndex(p *profile.Profile) int {
	for i, st := range p.SampleType {
		if st.Type == p.DefaultSampleType {
			return i
		}
	}
	return len(p.SampleType) - 1
}

// leaf returns the innermost frame of a sample.
func leaf(s *profile.Sample) (addr uint64, fn, file string, line int64) {
	if len(s.Location) == 0 {
		return 0, "", "", 0
	}
	loc := s.Location[0]
	if len(loc.Line) == 0 || loc.Line[0].Function == nil {
		return loc.Address, "", "", 0
	}
	ln := loc.Line[0]
	return loc.Address, ln.Function.Name, ln.Function.Filename, ln.Line
}

// Top returns the n hottest instruction addresses of p, in address order
// (the order they appear in the loop), with source lines.
func Top(p *profile.Profile, n int) []Hot {
	vi := valueIndex(p)
	byAddr := map[uint64]*Hot{}
	total := 0.0
	for _, s := range p.Sample {
		v := float64(s.Value[vi])
		total += v
		addr, fn, file, line := leaf(s)
		h := byAddr[addr]
		if h == nil {
			h = &Hot{Addr: addr, Func: fn, File: file, Line: line}
			byAddr[addr] = h
		}
		h.Share += v
	}
	hots := make([]Hot, 0, len(byAddr))
	for _, h := range byAddr {
		h.Share /= math.Max(total, 1)
		hots = append(hots, *h)
	}
	sort.Slice(hots, func(i, j int) bool {
		if hots[i].Share != hots[j].Share {
			return hots[i].Share > hots[j].Share
		}
		return hots[i].Addr < hots[j].Addr
	})
	hots = hots[:min(n, len(hots))]
	sort.Slice(hots, func(i, j int) bool { return hots[i].Addr < hots[j].Addr })
	src := sourceCache{}
	for i := range hots {
		hots[i].Source, hots[i].Note = src.annotate(hots[i].File, hots[i].Line)
	}
	return hots
}

// sourceCache reads source files once.
type sourceCache map[string][]string

// annotate returns the text of file:line and, for .s files, the nearest
// comment above it within its TEXT block.
func (c sourceCache) annotate(file string, line int64) (text, note string) {
	lines, ok := c[file]
	if !ok {
		if b, err := os.ReadFile(file); err == nil {
			lines = strings.Split(string(b), "\n")
		}
		c[file] = lines
	}
	if line < 1 || int(line) > len(lines) {
		return "", ""
	}
	text = strings.TrimSpace(lines[line-1])
	if !strings.HasSuffix(file, ".s") {
		return text, ""
	}
	for i := int(line) - 2; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if strings.HasPrefix(l, "TEXT ") {
			break
		}
		if strings.HasPrefix(l, "//") {
			return text, strings.TrimSpace(strings.TrimPrefix(l, "//"))
		}
	}
	return text, ""
}

// WriteTop prints Top(p, n) with a header naming the profile. When exe is
// the binary that recorded p (""  for none), each instruction also shows
// its objdump disassembly.
func WriteTop(w io.Writer, p *profile.Profile, n int, exe string) {
	for _, c := range p.Comments {
		fmt.Fprintf(w, "# %s\n", c)
	}
	writeFuncShares(w, p, 5)
	writeKernelShares(w, p)
	hots := Top(p, n)
	if exe != "" {
		if err := AddDisasm(hots, exe); err != nil {
			fmt.Fprintf(w, "(no disassembly: %v)\n", err)
		}
	}
	sum := 0.0
	for _, h := range hots {
		sum += h.Share
	}
	fmt.Fprintf(w, "%d hottest instructions (%.1f%% of %s), in address order:\n", len(hots), 100*sum, p.SampleType[valueIndex(p)].Type)
	lastNote := ""
	for _, h := range hots {
		fmt.Fprintf(w, "%6.2f%%  %#x  %s:%d  %s\n", 100*h.Share, h.Addr, filepath.Base(h.File), h.Line, h.Source)
		if h.Disasm != "" {
			fmt.Fprintf(w, "%25sobjdump: %s\n", "", h.Disasm)
		}
		if h.Note != "" && h.Note != lastNote {
			fmt.Fprintf(w, "%25s// %s\n", "", h.Note)
		}
		lastNote = h.Note
	}
}

// HottestFunction returns the name of the function with the largest share
// of p's samples, "" if none resolved.
func HottestFunction(p *profile.Profile) string {
	fns, _, _ := funcShares(p)
	if len(fns) == 0 {
		return ""
	}
	return fns[0]
}

// funcShares returns functions by decreasing share, their shares (of the
// total) and files.
func funcShares(p *profile.Profile) ([]string, map[string]float64, map[string]string) {
	vi := valueIndex(p)
	shares := map[string]float64{}
	files := map[string]string{}
	total := 0.0
	for _, s := range p.Sample {
		_, fn, file, _ := leaf(s)
		shares[fn] += float64(s.Value[vi])
		files[fn] = file
		total += float64(s.Value[vi])
	}
	fns := make([]string, 0, len(shares))
	for fn := range shares {
		fns = append(fns, fn)
	}
	sort.Slice(fns, func(i, j int) bool {
		if shares[fns[i]] != shares[fns[j]] {
			return shares[fns[i]] > shares[fns[j]]
		}
		return fns[i] < fns[j]
	})
	for fn := range shares {
		shares[fn] /= math.Max(total, 1)
	}
	return fns, shares, files
}

// writeFuncShares prints the n functions with the largest share.
func writeFuncShares(w io.Writer, p *profile.Profile, n int) {
	fns, shares, files := funcShares(p)
	fmt.Fprintln(w, "hottest functions:")
	for _, fn := range fns[:min(n, len(fns))] {
		name := fn
		if name == "" {
			name = "(unknown)"
		}
		fmt.Fprintf(w, "%6.2f%%  %s  %s\n", 100*shares[fn], name, filepath.Base(files[fn]))
	}
}

// KernelShares returns the share of p's samples in each registered
// kernel's generated code (a function that is some variant's symbol),
// largest first, and the share outside every kernel: for a whole
// operation, where its time goes by kernel, so that the next kernel to
// tune is visible. Operation kernels are left out (their variants have
// no code of their own).
func KernelShares(p *profile.Profile) (kernels []string, shares map[string]float64, other float64) {
	bySymbol := map[string]string{}
	for _, k := range variant.Kernels() {
		if k.Operation {
			continue
		}
		for _, v := range variant.Variants(k.Name) {
			if v.Symbol != "" {
				if _, dup := bySymbol[v.Symbol]; !dup {
					bySymbol[v.Symbol] = k.Name
				}
			}
		}
	}
	fns, fnShares, _ := funcShares(p)
	shares = map[string]float64{}
	for _, fn := range fns {
		if k, ok := bySymbol[fn]; ok {
			if _, seen := shares[k]; !seen {
				kernels = append(kernels, k)
			}
			shares[k] += fnShares[fn]
			continue
		}
		other += fnShares[fn]
	}
	sort.SliceStable(kernels, func(i, j int) bool { return shares[kernels[i]] > shares[kernels[j]] })
	return kernels, shares, other
}

// writeKernelShares prints KernelShares when some samples are in a
// kernel's code.
func writeKernelShares(w io.Writer, p *profile.Profile) {
	kernels, shares, other := KernelShares(p)
	if len(kernels) == 0 {
		return
	}
	fmt.Fprintln(w, "time by kernel (generated code; generic Go and glue under other):")
	for _, k := range kernels {
		fmt.Fprintf(w, "%6.2f%%  %s\n", 100*shares[k], k)
	}
	fmt.Fprintf(w, "%6.2f%%  other\n", 100*other)
}

// A Moved is one source line whose share changed between two profiles.
type Moved struct {
	Func   string
	File   string
	Line   int64
	A, B   float64 // share in the base and the new profile
	Source string
}

// Diff compares the share of each source line (function, file, line)
// between base profile a and profile b, largest change first, at most n
// lines. As with pprof -diff_base, positive changes are where b spends
// more of its samples than a.
func Diff(a, b *profile.Profile, n int) []Moved {
	sa, sb := lineShares(a), lineShares(b)
	keys := map[lineKey]bool{}
	for k := range sa {
		keys[k] = true
	}
	for k := range sb {
		keys[k] = true
	}
	var out []Moved
	src := sourceCache{}
	for k := range keys {
		text, _ := src.annotate(k.file, k.line)
		out = append(out, Moved{Func: k.fn, File: k.file, Line: k.line, A: sa[k], B: sb[k], Source: text})
	}
	sort.Slice(out, func(i, j int) bool {
		di, dj := math.Abs(out[i].B-out[i].A), math.Abs(out[j].B-out[j].A)
		if math.Abs(di-dj) > 1e-9 {
			return di > dj
		}
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].Line < out[j].Line
	})
	return out[:min(n, len(out))]
}

type lineKey struct {
	fn, file string
	line     int64
}

func lineShares(p *profile.Profile) map[lineKey]float64 {
	vi := valueIndex(p)
	m := map[lineKey]float64{}
	total := 0.0
	for _, s := range p.Sample {
		_, fn, file, line := leaf(s)
		m[lineKey{fn, file, line}] += float64(s.Value[vi])
		total += float64(s.Value[vi])
	}
	for k := range m {
		m[k] /= math.Max(total, 1)
	}
	return m
}

// WriteDiff prints Diff(a, b, n).
func WriteDiff(w io.Writer, a, b *profile.Profile, n int) {
	fmt.Fprintf(w, "share of samples per source line: base -> new (change); go tool pprof -diff_base=BASE NEW shows the same in pprof\n")
	for _, m := range Diff(a, b, n) {
		fmt.Fprintf(w, "%6.2f%% -> %6.2f%% (%+6.2f)  %s:%d  %s  [%s]\n",
			100*m.A, 100*m.B, 100*(m.B-m.A), filepath.Base(m.File), m.Line, m.Source, shortFunc(m.Func))
	}
}

func shortFunc(f string) string {
	if i := strings.LastIndexByte(f, '/'); i >= 0 {
		return f[i+1:]
	}
	return f
}
