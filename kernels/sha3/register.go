package sha3

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/variant"
)

// A manyKernel is one of the many-stream kernels: its registry metadata,
// sweep shape and dispatch plan.
type manyKernel struct {
	name, bench, doc string
	rate             int
	// inLen and outLen are the per-stream sweep shape.
	inLen, outLen int
	// plan is the dispatch plan by number of streams and ways[i] the NR
	// of plan[i] (0: the generic code).
	plan []dispatch.Choice
	ways []int
}

var (
	shake128Many = &manyKernel{name: "shake128.many", bench: "SHAKE128Many", rate: rate128X, inLen: 34, outLen: 504,
		doc: "SHAKE128 of n streams, 34-byte input and 504-byte output each (ML-KEM matrix expansion), NR at a time"}
	shake256Many = &manyKernel{name: "shake256.many", bench: "SHAKE256Many", rate: rate256X, inLen: 66, outLen: 640,
		doc: "SHAKE256 of n streams, 66-byte input and 640-byte output each (ML-DSA ExpandMask), NR at a time"}
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

// init registers the many-stream kernels and their variants and plans
// their dispatch.
func init() {
	for _, k := range manyKernels {
		variant.RegisterKernel(k.kernel())
		variant.Register(k.variants()...)
		k.replan()
	}
}

var registerOnce sync.Once

// RegisterVariants plans the many-stream kernels' dispatch again, for the
// lab: lab/all calls it after kernels/keccak's RegisterVariants, which
// may select other permutations (under TUNELAB_DISPATCH) and so change
// the default NR. The variants themselves are registered at init (there
// are no generated ones). It is idempotent; call it from an init
// function, before the package is used concurrently.
func RegisterVariants() {
	registerOnce.Do(func() {
		for _, k := range manyKernels {
			k.replan()
		}
	})
}

// run hashes the streams with the NR dispatch selects for len(ins).
func (k *manyKernel) run(outs, ins [][]byte) {
	if len(outs) != len(ins) {
		panic(fmt.Sprintf("sha3: %s: %d outputs for %d inputs", k.bench, len(outs), len(ins)))
	}
	k.runWays(k.ways[dispatch.ForSize(k.plan, len(ins))], outs, ins)
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

// kernel returns k's registry record.
func (k *manyKernel) kernel() variant.Kernel {
	return variant.Kernel{
		Name: k.name, Family: "sha3", Bench: k.bench, Sizes: sweepSizes, SizeClasses: true,
		SizeCheck: func(n int) error {
			if n < 1 || n > maxStreams {
				return fmt.Errorf("%d streams: want 1 to %d", n, maxStreams)
			}
			return nil
		},
		Unit: "stream", UnitsPerOp: func(n int) float64 { return float64(n) }, Doc: k.doc,
	}
}

// waysName is the variant name of NR = nr.
func waysName(nr int) string { return "ways=" + strconv.Itoa(nr) }

// waysOf returns the NR of a variant name, 0 for the generic code.
func waysOf(name string) int {
	nr, err := strconv.Atoi(strings.TrimPrefix(name, "ways="))
	if err != nil || !strings.HasPrefix(name, "ways=") {
		return 0
	}
	return nr
}

// variants returns k's variants: the generic code, then ways=1..8. A
// ways variant needs no CPU feature of its own: each width runs the keccak
// permutation dispatch selected for this CPU, which is always runnable, so
// what a ways variant requires does not depend on the host that registers
// it.
func (k *manyKernel) variants() []variant.Variant {
	vs := []variant.Variant{k.variant(0)}
	for _, nr := range widths {
		vs = append(vs, k.variant(nr))
	}
	return vs
}

// variant returns the registry record of NR = nr (0: generic).
func (k *manyKernel) variant(nr int) variant.Variant {
	name := variant.GenericName
	if nr > 0 {
		name = waysName(nr)
	}
	return variant.Variant{
		Kernel: k.name, Name: name,
		New:    func(size int, seed uint64) variant.Instance { return k.newInstance(nr, size, seed) },
		Verify: func(size int, seed uint64) error { return k.verify(nr, size, seed) },
	}
}

// candidates returns k's dispatch candidates, generic first.
func (k *manyKernel) candidates() []dispatch.Candidate {
	cands := []dispatch.Candidate{{Name: variant.GenericName}}
	for _, nr := range widths {
		cands = append(cands, dispatch.Candidate{Name: waysName(nr)})
	}
	return cands
}

// replan plans k's dispatch: the override or the table's entry for this
// CPU, and elsewhere defaultWays. Other CPUs' choices (nearest entries,
// feature-level defaults) are not used: the ways variants run keccak's
// dispatched permutations, so a measurement on another CPU (with other
// keccak choices, or with keccak.x8 forced generic here) says little
// about this one.
func (k *manyKernel) replan() {
	plan := dispatch.Plan(k.name, k.candidates())
	ways := make([]int, len(plan))
	def := defaultWays()
	for i, c := range plan {
		ways[i] = waysOf(c.Variant)
		if c.Reason == dispatch.ReasonGeneric || dispatch.Foreign(c) {
			ways[i] = def
		}
	}
	k.plan, k.ways = plan, ways
	setLaneCosts()
	if def > 0 {
		dispatch.Fallback(k.name, waysName(def), "the widest NR whose keccak permutation dispatch runs in SIMD here", true)
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

// keccakSelected returns the name and features of the variant dispatch
// selected for keccak.x<nr>, from the plan kernels/keccak recorded.
func keccakSelected(nr int) (name string, features []string) {
	kernel := fmt.Sprintf("keccak.x%d", nr)
	name = variant.GenericName
	for _, kp := range dispatch.Plans() {
		if kp.Kernel == kernel && len(kp.Choices) > 0 {
			name = kp.Choices[dispatch.ForSize(kp.Choices, 0)].Variant
		}
	}
	if v := variant.Lookup(kernel, name); v != nil {
		features = v.Features
	}
	return name, features
}

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
	type saved struct {
		plan []dispatch.Choice
		ways []int
	}
	var old []saved
	for _, k := range manyKernels {
		old = append(old, saved{k.plan, k.ways})
		k.plan, k.ways = []dispatch.Choice{{Variant: waysName(nr)}}, []int{nr}
	}
	return func() {
		for i, k := range manyKernels {
			k.plan, k.ways = old[i].plan, old[i].ways
		}
	}, nil
}
