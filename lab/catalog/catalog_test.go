//go:build !purego

package catalog_test

import (
	"slices"
	"testing"

	"github.com/tunelab/tunelab/harness"
	"github.com/tunelab/tunelab/kernels/variant"
	_ "github.com/tunelab/tunelab/lab/all"
	"github.com/tunelab/tunelab/lab/catalog"
)

// TestCatalogIsTheRegistry checks the generated catalog against the
// registry of this (full) build: every kernel and variant with its
// features and flags, nothing more, and the same variant-set fingerprint
// a sweep records. (go generate rewrites it; CI requires it fresh.)
func TestCatalogIsTheRegistry(t *testing.T) {
	n := 0
	for _, k := range variant.Kernels() {
		ck := catalog.LookupKernel(k.Name)
		if ck == nil || ck.Bench != k.Bench || ck.Operation != k.Operation {
			t.Errorf("kernel %s (bench %s, operation %v): catalog has %+v", k.Name, k.Bench, k.Operation, ck)
			continue
		}
		for _, v := range variant.Variants(k.Name) {
			n++
			e := catalog.Lookup(k.Name, v.Name)
			want := slices.Sorted(slices.Values(v.Features))
			switch {
			case e == nil:
				t.Errorf("%s %s: not in the catalog", k.Name, v.Name)
			case !slices.Equal(e.Features, want) && len(e.Features)+len(want) > 0:
				t.Errorf("%s %s: catalog features %v, registered %v", k.Name, v.Name, e.Features, want)
			case e.External != v.External || e.OffsetSweep != v.OffsetSweep || e.GoCode != (v.Symbol == ""):
				t.Errorf("%s %s: catalog flags %+v, registered external=%v offset-sweep=%v symbol=%q", k.Name, v.Name, e, v.External, v.OffsetSweep, v.Symbol)
			}
		}
	}
	if n != catalog.Len() {
		t.Errorf("%d registered variants, %d in the catalog", n, catalog.Len())
	}
	if got, want := catalog.Fingerprint(), harness.VariantSet(); got != want {
		t.Errorf("catalog fingerprint %s, a sweep records %s", got, want)
	}
}
