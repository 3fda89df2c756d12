package variant

import (
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"
)

var (
	mu       sync.RWMutex
	kernels  = map[string]*Kernel{}
	variants = map[string][]*Variant{}
)

// RegisterKernel records a kernel. It panics on a duplicate name: that is a
// programming error in a kernel package's init.
func RegisterKernel(k Kernel) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := kernels[k.Name]; dup {
		panic("variant: kernel registered twice: " + k.Name)
	}
	kernels[k.Name] = &k
}

// Register records variants of already registered kernels. It panics on an
// unknown kernel or a duplicate variant name.
func Register(vs ...Variant) {
	mu.Lock()
	defer mu.Unlock()
	for i := range vs {
		v := vs[i]
		if _, ok := kernels[v.Kernel]; !ok {
			panic("variant: variant of unregistered kernel " + v.Kernel)
		}
		for _, old := range variants[v.Kernel] {
			if old.Name == v.Name {
				panic(fmt.Sprintf("variant: %s %s registered twice", v.Kernel, v.Name))
			}
		}
		variants[v.Kernel] = append(variants[v.Kernel], &v)
	}
}

// Kernels returns every registered kernel, sorted by name.
func Kernels() []*Kernel {
	mu.RLock()
	defer mu.RUnlock()
	out := make([]*Kernel, 0, len(kernels))
	for _, k := range kernels {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// LookupKernel returns the kernel named name, or nil.
func LookupKernel(name string) *Kernel {
	mu.RLock()
	defer mu.RUnlock()
	return kernels[name]
}

// Variants returns the variants of a kernel in registration order.
func Variants(kernel string) []*Variant {
	mu.RLock()
	defer mu.RUnlock()
	return append([]*Variant(nil), variants[kernel]...)
}

// Lookup returns the variant of kernel with the given name, or nil.
func Lookup(kernel, name string) *Variant {
	for _, v := range Variants(kernel) {
		if v.Name == name {
			return v
		}
	}
	return nil
}

// Match returns the variants of kernel whose name matches pattern. A
// pattern is a "/"-separated list of globs (path.Match syntax); a variant
// matches when each glob matches one of its knobs ("isa=avx2",
// "isa=avx512*/align=64") or when the pattern matches the whole name.
// "" and "*" match every variant.
func Match(kernel, pattern string) ([]*Variant, error) {
	if _, err := path.Match(pattern, ""); err != nil {
		return nil, fmt.Errorf("variant pattern %q: %w", pattern, err)
	}
	var out []*Variant
	for _, v := range Variants(kernel) {
		if MatchName(pattern, v.Name) {
			out = append(out, v)
		}
	}
	return out, nil
}

// MatchName reports whether a variant name matches pattern as in Match.
func MatchName(pattern, name string) bool {
	if pattern == "" || pattern == "*" {
		return true
	}
	if ok, _ := path.Match(pattern, name); ok {
		return true
	}
	for _, glob := range strings.Split(pattern, "/") {
		if !matchesSomeKnob(glob, name) {
			return false
		}
	}
	return true
}

func matchesSomeKnob(glob, name string) bool {
	for _, part := range strings.Split(name, "/") {
		if ok, _ := path.Match(glob, part); ok {
			return true
		}
	}
	return false
}
