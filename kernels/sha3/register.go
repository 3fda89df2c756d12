package sha3

import (
	"fmt"
	"slices"
	"strconv"
	"sync"

	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/internal/kernelset"
	"github.com/tunelab/tunelab/kernels/keccak"
	"github.com/tunelab/tunelab/kernels/variant"
)

// A manyKernel is one of the many-stream kernels: its registry metadata,
// sweep shape and dispatch plan.
type manyKernel struct {
	name, bench, doc string
	rate             int
	// inLen and outLen are the per-stream sweep shape.
	inLen, outLen int
	// slot holds the dispatch plan by number of streams, the NR of each
	// choice (0: the generic code).
	slot *kernelset.Slot[int]
}

var (
	shake128Many = &manyKernel{name: "shake128.many", bench: "SHAKE128Many", rate: rate128X, inLen: 34, outLen: 504,
		doc: "SHAKE128 of n streams, 34-byte input and 504-byte output each (ML-KEM matrix expansion), NR at a time",
		slot: &kernelset.Slot[int]{Name: "shake128.many", Resolve: resolveWays, MakeTable: waysImpls,
			AfterPlan: func() { reportFallback("shake128.many") }}}
	shake256Many = &manyKernel{name: "shake256.many", bench: "SHAKE256Many", rate: rate256X, inLen: 66, outLen: 640,
		doc: "SHAKE256 of n streams, 66-byte input and 640-byte output each (ML-DSA ExpandMask), NR at a time",
		slot: &kernelset.Slot[int]{Name: "shake256.many", Resolve: resolveWays, MakeTable: waysImpls,
			AfterPlan: func() { reportFallback("shake256.many") }}}
	manyKernels = []*manyKernel{shake128Many, shake256Many}
)

// widths are the values of the ways knob: keccak's permutation widths.
var widths = []int{1, 2, 4, 8}

// sweepSizes are the default sweep sizes: numbers of streams.
var sweepSizes = []int{4, 8, 16}

// maxStreams bounds the number of streams a sweep may ask for (at most
// 40 MiB of output); verifyStreams bounds the streams Verify checks at
// once: beyond eight groups of eight the work only repeats. Sizes given in
// bytes to every kernel (tunelab verify --size 16384) stay valid.
const (
	maxStreams    = 1 << 16
	verifyStreams = 64
)

// SweepShape returns the per-stream input and output lengths in bytes of
// the sweep of the many-stream kernel named kernel ("shake128.many" or
// "shake256.many"), and false for any other name. External references
// (lab/baselines) use it to measure the same work as the variants.
func SweepShape(kernel string) (inLen, outLen int, ok bool) {
	for _, k := range manyKernels {
		if k.name == kernel {
			return k.inLen, k.outLen, true
		}
	}
	return 0, 0, false
}

var registerOnce sync.Once

// RegisterVariants plans the many-stream kernels' dispatch again, for the
// lab: lab/all calls it after kernels/keccak's RegisterVariants, which
// may select other permutations (under TUNELAB_DISPATCH) and so change
// the default NR, and registers the kernels and their variants (there
// are no generated ones). It is idempotent; call it from an init
// function, before the package is used concurrently.
func RegisterVariants() {
	registerOnce.Do(func() {
		for _, k := range manyKernels {
			k.slot.AddLab(k.spec(), nil)
		}
		resetLaneCosts()
	})
}

// run hashes the streams with the NR dispatch selects for len(ins).
func (k *manyKernel) run(outs, ins [][]byte) {
	if len(outs) != len(ins) {
		panic(fmt.Sprintf("sha3: %s: %d outputs for %d inputs", k.bench, len(outs), len(ins)))
	}
	k.runWays(k.slot.For(len(ins)), outs, ins)
}

// runWays hashes the streams nr at a time, or with the generic code for
// nr = 0.
func (k *manyKernel) runWays(nr int, outs, ins [][]byte) {
	if nr == 0 {
		manyGeneric(outs, ins, k.rate)
		return
	}
	manyWays(outs, ins, k.rate, nr)
}

// spec describes k for kernelset: its variants are the NRs.
func (k *manyKernel) spec() kernelset.Spec[int] {
	return kernelset.Spec[int]{
		Family: "sha3", Bench: k.bench, Sizes: sweepSizes, SizeClasses: true,
		SizeCheck: func(n int) error {
			if n < 1 || n > maxStreams {
				return fmt.Errorf("%d streams: want 1 to %d", n, maxStreams)
			}
			return nil
		},
		Unit: "stream", UnitsPerOp: func(n int) float64 { return float64(n) }, Doc: k.doc,
		Instance: func(_ string, nr, size int, seed uint64) variant.Instance { return k.newInstance(nr, size, seed) },
		VerifyAt: func(_ string, _ []string, nr, size int, seed uint64) error { return k.verify(nr, size, seed) },
	}
}

// waysName is the variant name of NR = nr (0: generic).
func waysName(nr int) string {
	if nr == 0 {
		return variant.GenericName
	}
	return "ways=" + strconv.Itoa(nr)
}

// waysImpls returns the variants ways=1..8. A ways variant needs no CPU
// feature of its own: each width runs the keccak permutation dispatch
// selected for this CPU, which is always runnable, so what a ways variant
// requires does not depend on the host that registers it.
func waysImpls() []variant.Impl[int] {
	var impls []variant.Impl[int]
	for _, nr := range widths {
		impls = append(impls, variant.Impl[int]{Name: waysName(nr), Fn: nr})
	}
	return impls
}

// resolveWays runs a plan choice's NR where the table or an override
// made it, and elsewhere defaultWays. Other CPUs' choices (nearest
// entries, feature-level defaults) are not used: the ways variants run
// keccak's dispatched permutations, so a measurement on another CPU (with
// other keccak choices, or with keccak.x8 forced generic here) says
// little about this one.
func resolveWays(c dispatch.Choice, name string, nr int, _ []variant.Impl[int]) (string, int) {
	if c.Reason == dispatch.ReasonGeneric || dispatch.Foreign(c) {
		nr = defaultWays()
		return waysName(nr), nr
	}
	return name, nr
}

// reportFallback tells dispatch, after kernel's plan was made, what runs
// where the plan fell back to the generic code: defaultWays.
func reportFallback(kernel string) {
	if def := defaultWays(); def > 0 {
		dispatch.Fallback(kernel, waysName(def), "the widest NR whose keccak permutation dispatch runs in SIMD here", true)
	}
}

// defaultWays is the NR for a CPU the table does not cover: the widest
// whose keccak permutation dispatch runs on a SIMD variant, else 1.
func defaultWays() int {
	for _, nr := range []int{8, 4, 2} {
		if _, features := keccakSelected(nr); variant.TierWidth(features) > 0 {
			return nr
		}
	}
	return 1
}

// keccakSelected returns the name and features of the variant that runs
// for keccak.x<nr> (kernels/keccak's plan and tables, not the registry,
// which production programs leave empty).
func keccakSelected(nr int) (name string, features []string) {
	name = keccak.PermutationSelected(nr)
	return name, keccak.PermutationFeatures(nr, name)
}

// Ways returns the way counts UseWays takes besides 0: keccak's
// permutation widths.
func Ways() []int { return slices.Clone(widths) }

// UseWays makes SHAKE128Many and SHAKE256Many hash nr streams at a time
// for every number of streams (0: the generic code, one stream after
// another) and returns a function that restores the dispatched plans.
// The lab composes the way count with other kernel choices this way to
// measure whole operations (ML-KEM, ML-DSA); every width runs on every CPU
// (on keccak's dispatched permutations). UseWays is not safe while the
// functions run concurrently.
func UseWays(nr int) (restore func(), err error) {
	if nr != 0 && !slices.Contains(widths, nr) {
		return nil, fmt.Errorf("sha3: ways=%d: want 0 (generic) or one of %v", nr, widths)
	}
	var slots []kernelset.Tiered
	var names []string
	for _, k := range manyKernels {
		slots, names = append(slots, k.slot), append(names, waysName(nr))
	}
	return kernelset.UseAll(slots, names)
}
