package keccak

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"crypto/sha3"

	"github.com/cloudflare/circl/simd/keccakf1600"
)

var measure = flag.Int("keccak.measure", 0, "measure contenders interleaved in `N` rounds and log a table (0: skip)")

// An arm is one contender of the interleaved measurement: run performs
// calls calls of perms permutations each.
type arm struct {
	name  string
	perms int
	run   func(calls int)
	ns    []float64 // ns per permutation, one per round
}

// TestMeasureInterleaved measures the contenders of every kernel and the
// external references in randomized order, round after round (bursts of
// about 20 µs), so drift and neighbours' load hit all arms alike; it logs
// the minimum and median ns/perm of each arm and ratios to the references.
func TestMeasureInterleaved(t *testing.T) {
	if *measure == 0 {
		t.Skip("enable with -keccak.measure=N")
	}
	arms := referenceArms()
	for _, nr := range widths {
		for _, m := range runnable(t, nr)[1:] {
			if contender(m) {
				arms = append(arms, implArm(m))
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < *measure; round++ {
		r.Shuffle(len(arms), func(i, j int) { arms[i], arms[j] = arms[j], arms[i] })
		for _, a := range arms {
			calls := max(1, 20000/(a.perms*100))
			start := time.Now()
			a.run(calls)
			a.ns = append(a.ns, float64(time.Since(start).Nanoseconds())/float64(calls*a.perms))
		}
	}
	logTable(t, arms)
}

func implArm(m *impl) *arm {
	s := make([][25]uint64, m.nr)
	return &arm{name: kernelName(m.nr) + " " + m.Name, perms: m.nr, run: func(calls int) {
		for i := 0; i < calls; i++ {
			m.run(s)
		}
	}}
}

func referenceArms() []*arm {
	h := sha3.NewSHAKE128()
	buf := make([]byte, 168)
	h.Read(buf)
	var st keccakf1600.StateX4
	lanes := st.Initialize(false)
	var major [4][25]uint64
	return []*arm{
		{name: "ext=sha3 (SHAKE128 168-byte squeeze)", perms: 1, run: func(calls int) {
			for i := 0; i < calls; i++ {
				h.Read(buf)
			}
		}},
		{name: "ext=circl (StateX4.Permute, own layout)", perms: 4, run: func(calls int) {
			for i := 0; i < calls; i++ {
				st.Permute()
			}
		}},
		{name: "ext=circl-xpose (state-major in and out)", perms: 4, run: func(calls int) {
			for i := 0; i < calls; i++ {
				for j := range major {
					for k, v := range major[j] {
						lanes[4*k+j] = v
					}
				}
				st.Permute()
				for j := range major {
					for k := range major[j] {
						major[j][k] = lanes[4*k+j]
					}
				}
			}
		}},
	}
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	sort.Float64s(s)
	return s[len(s)/2]
}

func logTable(t *testing.T, arms []*arm) {
	sort.Slice(arms, func(i, j int) bool { return arms[i].name < arms[j].name })
	ref := map[string]float64{}
	for _, a := range arms {
		if strings.HasPrefix(a.name, "ext=") {
			ref[a.name[:strings.Index(a.name, " ")]] = slices.Min(a.ns) // ext=circl and ext=circl-xpose keyed apart
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-95s %9s %9s %8s %8s\n", "arm", "min ns/p", "med ns/p", "x sha3", "x circl")
	for _, a := range arms {
		lo := slices.Min(a.ns)
		fmt.Fprintf(&b, "%-95s %9.1f %9.1f %8.2f %8.2f\n", a.name, lo, median(a.ns), ref["ext=sha3"]/lo, ref["ext=circl"]/lo)
	}
	t.Log("\n" + b.String())
}
