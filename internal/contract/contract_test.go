package contract

import (
	"strings"
	"testing"
)

// TestChains: along every operation's chain, each step's output bound
// lies within the next step's input bound.
func TestChains(t *testing.T) {
	cs := Chains()
	if len(cs) != 18 {
		t.Fatalf("%d chains, want 18 (3 ML-KEM and 3 ML-DSA sets × 3 operations)", len(cs))
	}
	for _, c := range cs {
		if len(c.Links) == 0 {
			t.Errorf("%s: no links", c.Op)
		}
		if err := c.Check(); err != nil {
			t.Error(err)
		}
	}
}

// TestChainCatchesAWidenedOutput: an output bound one past the next
// input's fails the chain, naming the link.
func TestChainCatchesAWidenedOutput(t *testing.T) {
	i := -1
	for j, k := range kernels {
		if k.Name == "mlkem.ntt" {
			i = j
		}
	}
	saved := kernels[i]
	defer func() { kernels[i] = saved }()
	k := saved
	k.Args = []Arg{poly16("f", kemCanon, &Bound{0, QKEM})}
	kernels[i] = k
	err := Chains()[0].Check()
	if err == nil || !strings.Contains(err.Error(), "mlkem.ntt.f out [0, 1q]") {
		t.Fatalf("chain with ntt out [0, q] = %v, want a finding at mlkem.ntt.f", err)
	}
}

func TestFormat(t *testing.T) {
	for _, c := range []struct {
		b    Bound
		want string
	}{{Canonical(QKEM), "[0, q-1]"}, {Bound{-8 * QKEM, 8 * QKEM}, "[-8q, 8q]"}, {Bound{-5, 7}, "[-5, 7]"}} {
		if got := c.b.Format(QKEM); got != c.want {
			t.Errorf("%v.Format = %q, want %q", c.b, got, c.want)
		}
	}
}

// TestContractsWellFormed: every kernel has an input and an output,
// bounds are ordered and fit the lanes, and the sets of an array of
// constants have one bound per lane, each within its In.
func TestContractsWellFormed(t *testing.T) {
	for _, k := range append(append([]Kernel(nil), kernels...), glues...) {
		for _, a := range k.Args {
			for i, set := range a.Sets {
				if len(set) != a.Lanes || a.In == nil {
					t.Errorf("%s.%s: set %d has %d lanes of %d (In %v)", k.Name, a.Name, i, len(set), a.Lanes, a.In)
				}
				for _, b := range set {
					if b.Lo > b.Hi || a.In != nil && !b.Within(*a.In) {
						t.Errorf("%s.%s: set %d: %v outside In", k.Name, a.Name, i, b)
					}
				}
			}
			for _, b := range []*Bound{a.In, a.Out} {
				if b == nil {
					continue
				}
				lim := int64(1)<<(8*a.Elem-1) - 1
				if b.Lo > b.Hi || b.Lo < -lim-1 || b.Hi > lim {
					t.Errorf("%s.%s: bound %v does not fit %d-byte lanes", k.Name, a.Name, *b, a.Elem)
				}
			}
		}
	}
}
