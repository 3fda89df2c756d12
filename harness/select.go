package harness

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tunelab/tunelab/harness/resultfile"
	"github.com/tunelab/tunelab/kernels/variant"
)

// A Selection says what to measure. Zero values select defaults.
type Selection struct {
	// Kernels lists kernel names; empty means every kernel.
	Kernels []string
	// Variant is a glob over knob names (variant.Match); "" matches all.
	Variant string
	// Sizes overrides the default sizes of kernels that have sizes.
	Sizes []int
	// OffsetSweep includes offset-sweep variants (skipped by default).
	OffsetSweep bool
}

// A Contender is one arm of a race: a variant under a label that is
// unique within its group (the variant name, or "name/arm=b" when the same
// variant races itself in an A/A comparison).
type Contender struct {
	Label   string
	Variant *variant.Variant
}

// A Group is one race: the contenders of one kernel at one size.
type Group struct {
	Kernel     *variant.Kernel
	Size       int
	Contenders []Contender
}

// contender returns the contender labelled label, nil if none is.
func (g *Group) contender(label string) *Contender {
	for i := range g.Contenders {
		if g.Contenders[i].Label == label {
			return &g.Contenders[i]
		}
	}
	return nil
}

// Key names the group as "kernel" or "kernel/size=N".
func (g *Group) Key() string { return groupKey(g.Kernel, g.Size) }

func groupKey(k *variant.Kernel, size int) string {
	return resultfile.GroupKey(k.Name, sizeOf(k, size))
}

// A Skip is a selected variant that will not run, with the reason.
type Skip struct {
	Kernel, Variant, Reason string
}

// Select resolves sel against the registry: one group per kernel and size
// with the runnable matching variants, plus the variants skipped because
// the host lacks a CPU feature.
func Select(sel Selection) ([]*Group, []Skip, error) {
	kernels, err := selectKernels(sel.Kernels)
	if err != nil {
		return nil, nil, err
	}
	var groups []*Group
	var skips []Skip
	for _, k := range kernels {
		cs, sk, err := selectVariants(k, sel)
		if err != nil {
			return nil, nil, err
		}
		skips = append(skips, sk...)
		if len(cs) == 0 {
			continue
		}
		for _, size := range kernelSizes(k, sel.Sizes) {
			groups = append(groups, &Group{Kernel: k, Size: size, Contenders: cs})
		}
	}
	if len(groups) == 0 {
		return nil, skips, fmt.Errorf("selecting variants: nothing runnable matches kernels %q, variant %q", sel.Kernels, sel.Variant)
	}
	return groups, skips, nil
}

func selectKernels(names []string) ([]*variant.Kernel, error) {
	if len(names) == 0 {
		return variant.Kernels(), nil
	}
	var ks []*variant.Kernel
	for _, n := range names {
		k := variant.LookupKernel(n)
		if k == nil {
			return nil, fmt.Errorf("selecting kernels: unknown kernel %q (known: %s)", n, strings.Join(kernelNames(), ", "))
		}
		ks = append(ks, k)
	}
	return ks, nil
}

func kernelNames() []string {
	var out []string
	for _, k := range variant.Kernels() {
		out = append(out, k.Name)
	}
	return out
}

func selectVariants(k *variant.Kernel, sel Selection) ([]Contender, []Skip, error) {
	vs, err := variant.Match(k.Name, sel.Variant)
	if err != nil {
		return nil, nil, err
	}
	var cs []Contender
	var skips []Skip
	for _, v := range vs {
		if v.OffsetSweep && !sel.OffsetSweep {
			continue
		}
		if v.New == nil || v.Verify == nil {
			skips = append(skips, Skip{k.Name, v.Name, "not measurable: registered without New or Verify"})
			continue
		}
		if missing := MissingFeatures(v); len(missing) > 0 {
			skips = append(skips, Skip{k.Name, v.Name, "missing CPU feature " + strings.Join(missing, ",")})
			continue
		}
		cs = append(cs, Contender{Label: v.Name, Variant: v})
	}
	return cs, skips, nil
}

// MissingFeatures returns the features v requires that the host (with
// masks applied) lacks.
func MissingFeatures(v *variant.Variant) []string {
	var out []string
	for _, f := range v.Features {
		if !hostHas(f) {
			out = append(out, f)
		}
	}
	return out
}

// kernelSizes returns the sizes to measure k at: size 0 for fixed-size
// kernels, else the override list or the kernel's defaults.
func kernelSizes(k *variant.Kernel, override []int) []int {
	if len(k.Sizes) == 0 {
		return []int{0}
	}
	if len(override) > 0 {
		s := append([]int(nil), override...)
		sort.Ints(s)
		return s
	}
	return k.Sizes
}
