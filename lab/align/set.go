package align

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/tunelab/tunelab/internal/asmalign"
	"github.com/tunelab/tunelab/internal/asmmap"
	"github.com/tunelab/tunelab/kernels/variant"
)

// A RequestError is a request that names something that does not exist
// (an unknown kernel or variant, offsets without a variant). The CLI treats
// it as a usage error.
type RequestError struct{ Msg string }

// Error returns the message.
func (e *RequestError) Error() string { return e.Msg }

func requestErrorf(format string, a ...any) error {
	return &RequestError{fmt.Sprintf(format, a...)}
}

// An Arm is one placement of the measured loop: a sibling of the base
// variant that differs from it only in the align knob.
type Arm struct {
	// Align is the align knob value ("64", "64+4", ..., "none").
	Align string
	// Offset is the requested head offset within a 64-byte line, or -1
	// for align=none (unaligned: the head lands where it falls).
	Offset  int
	Variant *variant.Variant
	// Place is where the loop really is in this binary.
	Place Placement
}

// Label returns the arm's name in tables and plots: the offset, or "none".
func (a *Arm) Label() string {
	if a.Offset < 0 {
		return "none"
	}
	return strconv.Itoa(a.Offset)
}

// A Placement is the located hot loop of a variant. Err is set (and the
// other fields zero) when the loop could not be located.
type Placement struct {
	File         string // the generated .s file the loop was read from
	Head         uint64
	Offset       int // head address mod 64
	Size         int // loop body bytes, head through back-edge
	LinesCrossed int // 64-byte line boundaries inside the body
	Err          string
}

// Matches reports whether the loop was located at the requested offset
// (always true for align=none, which requests nothing).
func (a *Arm) Matches() bool {
	return a.Place.Err == "" && (a.Offset < 0 || a.Place.Offset == a.Offset)
}

// A Set is the base variant's loop placements to measure.
type Set struct {
	Kernel *variant.Kernel
	// Base is the variant name without its align knob.
	Base string
	// Arms are the offset arms in ascending offset order, then align=none
	// if the base has such a sibling.
	Arms []*Arm
	// Warnings say why located placements may be wrong (a generated .s
	// file newer than the running binary).
	Warnings []string
}

// BaseName returns a variant name without its align knob.
func BaseName(name string) string {
	var parts []string
	for _, p := range strings.Split(name, "/") {
		if !strings.HasPrefix(p, "align=") {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, "/")
}

// siblings returns the variants of kernel whose name without the align knob
// is base, keyed by align knob value.
func siblings(kernel, base string) map[string]*variant.Variant {
	out := map[string]*variant.Variant{}
	for _, v := range variant.Variants(kernel) {
		if a := v.Knob("align"); a != "" && BaseName(v.Name) == base {
			out[a] = v
		}
	}
	return out
}

// sweepBases returns the bases of the kernel's offset-sweep sets in
// registration order.
func sweepBases(kernel string) []string {
	var bases []string
	for _, v := range variant.Variants(kernel) {
		if b := BaseName(v.Name); v.OffsetSweep && !slices.Contains(bases, b) {
			bases = append(bases, b)
		}
	}
	return bases
}

// DefaultBase returns the base to measure when none is named: among the
// kernel's offset-sweep bases that the host (TUNELAB_CPU masks applied)
// runs, the base of the variant dispatch selects for size, else the first
// of that variant's ISA width, else the first of the widest. It returns a
// *RequestError when the kernel has no offset-sweep variants and an
// *UnrunnableError when the host runs none of them.
func DefaultBase(kernel string, size int) (string, error) {
	bases := Bases(kernel)
	if len(bases) == 0 {
		return "", requestErrorf("kernel %s has no offset-sweep (align=64+N) variants", kernel)
	}
	b, err := chooseBase(kernel, bases, hostCPU(), dispatched(kernel, size))
	return b.Name, err
}

// NewSet resolves the arms to measure: align=64 (offset 0) and align=64+N
// for every other requested offset of the base variant named by name (with
// or without its align knob; "" for DefaultBase), plus align=none if it
// exists. It locates every arm's loop. A base the host cannot run is an
// *UnrunnableError that names a runnable one.
func NewSet(kernel, name string, offsets []int, size int) (*Set, error) {
	k := variant.LookupKernel(kernel)
	if k == nil {
		return nil, requestErrorf("unknown kernel %q", kernel)
	}
	base := BaseName(name)
	if name == "" {
		var err error
		if base, err = DefaultBase(kernel, size); err != nil {
			return nil, err
		}
	}
	sib := siblings(kernel, base)
	if len(sib) == 0 {
		return nil, requestErrorf("kernel %s has no variant %q with an align knob (offset-sweep bases: %s)",
			kernel, name, strings.Join(sweepBases(kernel), ", "))
	}
	if err := checkRunnable(kernel, base, sib, size, hostCPU()); err != nil {
		return nil, err
	}
	s := &Set{Kernel: k, Base: base}
	if err := s.addOffsetArms(sib, offsets); err != nil {
		return nil, err
	}
	if v := sib["none"]; v != nil {
		s.Arms = append(s.Arms, &Arm{Align: "none", Offset: -1, Variant: v})
	}
	for _, a := range s.Arms {
		a.Place = locate(a.Variant)
	}
	s.Warnings = staleSources(s.Arms)
	return s, nil
}

// staleSources warns about generated .s files modified after the running
// executable was built: asmmap maps the binary's PCs to lines of the file
// on disk, so a regenerated file can misplace or lose the loop.
func staleSources(arms []*Arm) []string {
	exe, err := os.Executable()
	if err != nil {
		return nil
	}
	bin, err := os.Stat(exe)
	if err != nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, a := range arms {
		f := a.Place.File
		if f == "" || seen[f] {
			continue
		}
		seen[f] = true
		if st, err := os.Stat(f); err == nil && st.ModTime().After(bin.ModTime()) {
			out = append(out, fmt.Sprintf("%s changed after this binary was built: rebuild tunelab, placements may not match the code that ran", f))
		}
	}
	return out
}

// addOffsetArms adds align=64 and the requested align=64+N siblings.
func (s *Set) addOffsetArms(sib map[string]*variant.Variant, offsets []int) error {
	avail := availableOffsets(sib)
	if !slices.Contains(offsets, 0) {
		offsets = append([]int{0}, offsets...)
	}
	var missing []int
	for _, o := range offsets {
		if !slices.Contains(avail, o) {
			missing = append(missing, o)
			continue
		}
		knob := offsetKnob(o)
		s.Arms = append(s.Arms, &Arm{Align: knob, Offset: o, Variant: sib[knob]})
	}
	if len(missing) > 0 {
		return requestErrorf("%s %s: no variant for offset(s) %s; available offsets: %s",
			s.Kernel.Name, s.Base, joinInts(missing), joinInts(avail))
	}
	return nil
}

// availableOffsets returns the offsets with a sibling, ascending.
func availableOffsets(sib map[string]*variant.Variant) []int {
	var out []int
	for knob := range sib {
		if a, err := asmalign.Parse(knob); err == nil && a.Boundary == 64 {
			out = append(out, a.Offset)
		}
	}
	slices.Sort(out)
	return out
}

// offsetKnob returns the align knob value of a head offset.
func offsetKnob(o int) string { return asmalign.At(o).String() }

func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ",")
}

// locate finds the variant's hot loop in the running binary.
func locate(v *variant.Variant) Placement {
	if !v.HasHotCode() {
		return Placement{Err: "variant names no symbol, or neither a loop label nor runs per op"}
	}
	l, err := asmmap.Locate(v.Symbol, v.LoopLabel)
	if err != nil {
		return Placement{Err: err.Error()}
	}
	return Placement{File: l.File, Head: l.Head, Offset: l.Offset(), Size: l.Size(), LinesCrossed: l.LinesCrossed()}
}

// DefaultSize returns the input size measured when none is given: 0 for
// fixed-size kernels, else the largest of the kernel's sizes up to 1 KiB
// (the smallest if all are larger), so the loop runs several iterations
// per call and a cold call is still dominated by its first iterations.
func DefaultSize(k *variant.Kernel) int {
	if len(k.Sizes) == 0 {
		return 0
	}
	best := slices.Min(k.Sizes)
	for _, s := range k.Sizes {
		if s <= 1024 && s > best {
			best = s
		}
	}
	return best
}
