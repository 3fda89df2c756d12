package align

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tunelab/tunelab/kernels/variant"
)

// smallSet returns a set of two offsets and align=none of keccak.x1's
// offset-sweep base, or skips when the build or host cannot run it.
func smallSet(t *testing.T) *Set {
	t.Helper()
	if len(sweepBases("keccak.x1")) == 0 {
		t.Skip("keccak.x1 has no offset-sweep variants in this build")
	}
	s, err := NewSet("keccak.x1", "", []int{0, 32}, 0)
	var ue *UnrunnableError
	if errors.As(err, &ue) {
		t.Skipf("host runs no offset-sweep base: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestMeasureShortRun(t *testing.T) {
	for _, entry := range []string{Warm, Cold} {
		s := smallSet(t)
		if entry == Cold && !EvictAvailable() {
			continue
		}
		m, err := Measure(s, Options{Entry: entry, Budget: 20 * time.Millisecond, MaxSamples: 4, SampleTime: 100 * time.Microsecond, Seed: 3})
		if err != nil {
			t.Fatalf("%s: %v", entry, err)
		}
		if m.Rounds < 1 || m.Rounds > 4 {
			t.Errorf("%s: %d rounds, want 1..4", entry, m.Rounds)
		}
		for i, a := range s.Arms {
			smp := m.Samples[i]
			if m.Excluded[i] != "" || len(smp.Ns) != m.Rounds {
				t.Errorf("%s %s: excluded %q, %d samples, want %d", entry, a.Variant.Name, m.Excluded[i], len(smp.Ns), m.Rounds)
				continue
			}
			for j := range smp.Ns {
				if !(smp.Ns[j] > 0 && smp.TSC[j] > 0) || (entry == Cold && smp.Iters[j] != 1) {
					t.Errorf("%s %s sample %d: %v ns/op, %v tsc/op, %d iters", entry, a.Variant.Name, j, smp.Ns[j], smp.TSC[j], smp.Iters[j])
				}
			}
		}
	}
}

func TestMeasureNeverRunsUnsupportedVariant(t *testing.T) {
	k := &variant.Kernel{Name: "fake", Bench: "Fake"}
	v := &variant.Variant{Kernel: "fake", Name: "isa=fake/align=64", Features: []string{"no-such-feature"},
		New:    func(int, uint64) variant.Instance { t.Error("New called for a variant the host lacks"); return nil },
		Verify: func(int, uint64) error { t.Error("Verify called for a variant the host lacks"); return nil }}
	s := &Set{Kernel: k, Base: "isa=fake", Arms: []*Arm{{Align: "64", Offset: 0, Variant: v}}}
	m, err := Measure(s, Options{Entry: Warm, Budget: time.Millisecond})
	if err == nil || !strings.Contains(m.Excluded[0], "host lacks features") {
		t.Errorf("Measure = %v, excluded %q; want an error and the arm excluded for missing features", err, m.Excluded[0])
	}
}

func TestMeasureRejectsBadEntry(t *testing.T) {
	if _, err := Measure(&Set{}, Options{Entry: "lukewarm"}); err == nil {
		t.Error("Measure accepted entry lukewarm")
	}
}
