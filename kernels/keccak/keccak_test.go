package keccak

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/variant"
)

// TestRoundConstants recomputes RC[i] from the LFSR of FIPS 202 Algorithm 5.
func TestRoundConstants(t *testing.T) {
	rc := func(t int) uint64 { // rc(t), R = 10000000 stepped t mod 255 times
		r := uint64(1)
		for i := 0; i < t%255; i++ {
			r <<= 1
			if r&0x100 != 0 {
				r ^= 0x171 // R[0], R[4], R[5], R[6] ^= R[8]; truncate
			}
		}
		return r & 1
	}
	for i, got := range roundConstants {
		var want uint64
		for j := 0; j <= 6; j++ {
			want |= rc(j+7*i) << ((1 << j) - 1)
		}
		if got != want {
			t.Errorf("RC[%d] = %#016x, want %#016x", i, got, want)
		}
	}
}

// TestRotations recomputes the rho offsets: (t+1)(t+2)/2 mod 64 along the
// orbit of (1, 0) under (x, y) -> (y, 2x+3y).
func TestRotations(t *testing.T) {
	want := [25]int{}
	x, y := 1, 0
	for i := 0; i < 24; i++ {
		want[x+5*y] = (i + 1) * (i + 2) / 2 % 64
		x, y = y, (2*x+3*y)%5
	}
	if rotations != want {
		t.Errorf("rotations = %v, want %v", rotations, want)
	}
}

// Keccak team, XKCP tests/TestVectors/KeccakF-1600-IntermediateValues.txt: the all-zero state
// after one and after two permutations.
var katZero = [2][25]uint64{{
	0xF1258F7940E1DDE7, 0x84D5CCF933C0478A, 0xD598261EA65AA9EE, 0xBD1547306F80494D, 0x8B284E056253D057,
	0xFF97A42D7F8E6FD4, 0x90FEE5A0A44647C4, 0x8C5BDA0CD6192E76, 0xAD30A6F71B19059C, 0x30935AB7D08FFC64,
	0xEB5AA93F2317D635, 0xA9A6E6260D712103, 0x81A57C16DBCF555F, 0x43B831CD0347C826, 0x01F22F1A11A5569F,
	0x05E5635A21D9AE61, 0x64BEFEF28CC970F2, 0x613670957BC46611, 0xB87C5A554FD00ECB, 0x8C3EE88A1CCF32C8,
	0x940C7922AE3A2614, 0x1841F924A2C509E4, 0x16F53526E70465C2, 0x75F644E97F30A13B, 0xEAF1FF7B5CECA249,
}, {
	0x2D5C954DF96ECB3C, 0x6A332CD07057B56D, 0x093D8D1270D76B6C, 0x8A20D9B25569D094, 0x4F9C4F99E5E7F156,
	0xF957B9A2DA65FB38, 0x85773DAE1275AF0D, 0xFAF4F247C3D810F7, 0x1F1B9EE6F79A8759, 0xE4FECC0FEE98B425,
	0x68CE61B6B9CE68A1, 0xDEEA66C4BA8F974F, 0x33C43D836EAFB1F5, 0xE00654042719DBD9, 0x7CF8A9F009831265,
	0xFD5449A6BF174743, 0x97DDAD33D8994B40, 0x48EAD5FC5D0BE774, 0xE3B8C8EE55B7B03C, 0x91A0226E649E42E9,
	0x900E3129E7BADD7B, 0x202A9EC5FAA3CCE8, 0x5B3402464E1C3DB6, 0x609F4E62A44C1059, 0x20D06CD26A8FBF5C,
}}

// runnable returns the implementations of kernel nr the host can execute,
// logging the ones it skips with the missing features.
func runnable(t testing.TB, nr int) []*impl {
	var out []*impl
	for _, m := range implsOf(nr) {
		if miss := missing(m); len(miss) > 0 {
			t.Logf("skipping %s %s: host lacks %v", kernelName(nr), m.Name, miss)
			continue
		}
		out = append(out, m)
	}
	return out
}

// implsOf returns the implementations of kernel nr the package lists:
// the generic code, then the known variants in table order.
func implsOf(nr int) []*impl {
	known := tables{x1.Known(), x2.Known(), x4.Known(), x8.Known()}
	return append([]*impl{generics[nr]}, known.erased(nr)...)
}

// erased returns the records of tab's table of kernel nr.
func (tab tables) erased(nr int) []*impl {
	switch nr {
	case 1:
		return eraseAll(1, tab.x1)
	case 2:
		return eraseAll(2, tab.x2)
	case 4:
		return eraseAll(4, tab.x4)
	}
	return eraseAll(8, tab.x8)
}

func eraseAll[F any](nr int, table []variant.Impl[F]) []*impl {
	var out []*impl
	for _, im := range table {
		out = append(out, erase(nr, im))
	}
	return out
}

// selectedOf returns the name of the variant kernel nr's public function
// runs.
func selectedOf(nr int) string {
	return map[int]string{1: x1.Selected(), 2: x2.Selected(), 4: x4.Selected(), 8: x8.Selected()}[nr]
}

// replanOf plans kernel nr's dispatch again.
func replanOf(nr int) {
	map[int]func(){1: x1.Replan, 2: x2.Replan, 4: x4.Replan, 8: x8.Replan}[nr]()
}

// byName returns the listed implementation of kernel nr named name, or
// nil.
func byName(nr int, name string) *impl {
	for _, m := range implsOf(nr) {
		if m.Name == name {
			return m
		}
	}
	return nil
}

// choose returns the implementation of kernel nr that dispatch selects
// (at size 0) among the generated ones in table: the compiled table's
// choice, a feature-level default or generic; it records that plan.
func choose(nr int, table []*impl) *impl {
	cands := make([]variant.Impl[*impl], len(table))
	for i, m := range table {
		cands[i] = variant.Impl[*impl]{Name: m.Name, Features: m.Features, OffsetSweep: m.OffsetSweep, Fn: m}
	}
	plan := dispatch.Plan(kernelName(nr), variant.Candidates(cands))
	if im := variant.Find(cands, plan[dispatch.ForSize(plan, 0)].Variant); im != nil && cpu.Has(im.Features...) {
		return im.Fn
	}
	return generics[nr]
}

// record returns the registry record of m.
func record(m *impl) variant.Variant { return *variant.Lookup(kernelName(m.nr), m.Name) }

// missing returns the features m needs that the host lacks (or masks).
func missing(m *impl) []string {
	var out []string
	for _, f := range m.Features {
		if !cpu.Has(f) {
			out = append(out, f)
		}
	}
	return out
}

// forEach runs f in a subtest per variant of kernel nr (the generic code
// too if withGeneric), skipping variants the host cannot run and naming
// the missing features.
func forEach(t *testing.T, nr int, withGeneric bool, f func(t *testing.T, m *impl)) {
	for _, m := range implsOf(nr) {
		if m.Name == variant.GenericName && !withGeneric {
			continue
		}
		t.Run(kernelName(nr)+"/"+m.Name, func(t *testing.T) {
			if miss := missing(m); len(miss) > 0 {
				t.Skipf("host lacks %v", miss)
			}
			f(t, m)
		})
	}
}

// TestKAT runs every runnable variant of every kernel on all-zero states.
func TestKAT(t *testing.T) {
	for _, nr := range widths {
		forEach(t, nr, true, func(t *testing.T, m *impl) {
			s := make([][25]uint64, nr)
			for p, want := range katZero {
				m.run(s)
				for k := range s {
					for i := range want {
						if s[k][i] != want[i] {
							t.Fatalf("%s %s: zero state after %d permutation(s): state %d lane %d = %#016x, want %#016x",
								kernelName(nr), m.Name, p+1, k, i, s[k][i], want[i])
						}
					}
				}
			}
		})
	}
}

// TestVariants compares every runnable variant with the generic code on
// 10,000 random states per kernel (batched), plus edge cases.
func TestVariants(t *testing.T) {
	const states = 10000
	for _, nr := range widths {
		r := rand.New(rand.NewPCG(uint64(nr), 1))
		in := make([][25]uint64, states/nr*nr)
		randomStates(in, r)
		want := append([][25]uint64(nil), in...)
		for i := 0; i < len(want); i += nr {
			generics[nr].run(want[i : i+nr])
		}
		got := make([][25]uint64, len(in))
		forEach(t, nr, false, func(t *testing.T, m *impl) {
			copy(got, in)
			for i := 0; i < len(got); i += nr {
				m.run(got[i : i+nr])
			}
			for i := 0; i < len(got); i += nr {
				if err := compare(m, "random state batch", got[i:i+nr], want[i:i+nr]); err != nil {
					t.Fatalf("call %d: %v", i/nr, err)
				}
			}
			if err := verify(m, 42, 4); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestRegistered runs each registered variant's Verify and an instance
// Run/Check cycle, as the harness does.
func TestRegistered(t *testing.T) {
	for _, nr := range widths {
		forEach(t, nr, true, func(t *testing.T, m *impl) {
			v := record(m)
			if err := v.Verify(0, 7); err != nil {
				t.Fatal(err)
			}
			in := v.New(0, 9)
			in.Run(3)
			if err := in.Check(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// FuzzVariants feeds fuzzer-chosen states to every runnable variant.
func FuzzVariants(f *testing.F) {
	f.Add(uint64(0), uint64(0), uint8(0))
	f.Add(^uint64(0), uint64(1)<<63, uint8(24))
	f.Fuzz(func(t *testing.T, a, b uint64, shift uint8) {
		for _, nr := range widths {
			in := make([][25]uint64, nr)
			fillLanes(in, func(k, i int) uint64 { return bits.RotateLeft64(a, k*7+i+int(shift)) ^ b*uint64(i+1) })
			want := append([][25]uint64(nil), in...)
			generics[nr].run(want)
			for _, m := range runnable(t, nr)[1:] {
				got := append([][25]uint64(nil), in...)
				m.run(got)
				if err := compare(m, "fuzz input", got, want); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
}
