package sha3

import (
	"errors"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/variant"
)

// TestRegisteredVariants verifies every registered variant of the
// many-stream kernels the host can run, at the default sweep sizes and at
// 1 and 17 streams, and runs an instance through Run and Check as a sweep
// does.
func TestRegisteredVariants(t *testing.T) {
	for _, k := range manyKernels {
		kern := variant.LookupKernel(k.name)
		if kern == nil || kern.Family != "sha3" || kern.Unit != "stream" || !kern.SizeClasses {
			t.Fatalf("%s: kernel record %+v", k.name, kern)
		}
		var names []string
		for _, v := range variant.Variants(k.name) {
			names = append(names, v.Name)
			if !cpu.Has(v.Features...) {
				t.Logf("%s %s skipped: needs %v", k.name, v.Name, v.Features)
				continue
			}
			for _, size := range append([]int{1, 17}, kern.Sizes...) {
				if err := v.Verify(size, uint64(size)); err != nil {
					t.Errorf("%s %s at %d streams: %v", k.name, v.Name, size, err)
				}
			}
			in := v.New(kern.Sizes[0], 3)
			in.Run(2)
			if err := in.Check(); err != nil {
				t.Errorf("%s %s after Run: %v", k.name, v.Name, err)
			}
		}
		if want := []string{variant.GenericName, "ways=1", "ways=2", "ways=4", "ways=8"}; !slices.Equal(names, want) {
			t.Errorf("%s: variants %q, want %q", k.name, names, want)
		}
	}
}

// TestVerifyReportsMismatch checks that compare names the variant, the
// stream and the first wrong byte, for ways=N and for the generic code.
func TestVerifyReportsMismatch(t *testing.T) {
	k := shake256Many
	ins, outs := equalStreams(nil, 5, 10, 300)
	for _, nr := range []int{0, 4} {
		k.runWays(nr, outs, ins)
		outs[3][200] ^= 0x10
		var mm *variant.Mismatch
		err := k.compare(nr, "test input", outs, ins)
		if !errors.As(err, &mm) || mm.Index != 200 || !strings.Contains(mm.Input, "stream 3 of 5") {
			t.Errorf("nr=%d: compare with byte 200 of stream 3 flipped = %v, want a mismatch there", nr, err)
		}
		if err := k.compare(nr, "test input", outs[:3], ins[:3]); err != nil {
			t.Errorf("nr=%d: compare of correct streams = %v", nr, err)
		}
	}
}

// TestSizeCheck checks the number of streams a sweep may ask for.
func TestSizeCheck(t *testing.T) {
	kern := variant.LookupKernel("shake128.many")
	for n, ok := range map[int]bool{-1: false, 0: false, 1: true, 16: true, maxStreams: true, maxStreams + 1: false} {
		if err := kern.ValidSize(n); (err == nil) != ok {
			t.Errorf("ValidSize(%d) = %v, want ok=%v", n, err, ok)
		}
	}
	if in, out, ok := SweepShape("shake128.many"); in != 34 || out != 504 || !ok {
		t.Errorf("SweepShape(shake128.many) = %d, %d, %v", in, out, ok)
	}
	if _, _, ok := SweepShape("keccak.x4"); ok {
		t.Errorf("SweepShape(keccak.x4) ok")
	}
}

// TestWaysFeatures checks that no ways=N variant or knob choice requires a
// CPU feature, so that what a table may name does not depend on the host
// that registered the variants (they run keccak's dispatched permutations,
// which always have a runnable choice), and that the permutation selected
// for every width is a registered keccak variant.
func TestWaysFeatures(t *testing.T) {
	for _, nr := range widths {
		for w := 1; w <= nr; w *= 2 {
			if name, _ := keccakSelected(w); variant.Lookup("keccak.x"+strconv.Itoa(w), name) == nil {
				t.Errorf("keccak.x%d: selected %q is not a registered variant", w, name)
			}
		}
		for _, kernel := range []string{"shake128.many", "shake256.many"} {
			if v := variant.Lookup(kernel, waysName(nr)); v == nil || len(v.Features) != 0 {
				t.Errorf("%s %s: registered %v, want a variant with no features", kernel, waysName(nr), v)
			}
		}
	}
}

// TestRegisterVariantsReplans checks that RegisterVariants (twice) keeps a
// valid plan.
func TestRegisterVariantsReplans(t *testing.T) {
	before := shake128Many.slot.Planned()
	RegisterVariants()
	RegisterVariants()
	if after := shake128Many.slot.Planned(); !slices.Equal(after, before) {
		t.Errorf("RegisterVariants changed ways %v to %v with the same keccak selection", before, after)
	}
}

const childEnv = "TUNELAB_SHA3_CHILD"

// TestDispatchUnderEnv reruns TestDispatchChild in subprocesses under CPU
// masks and dispatch overrides, with the NR each must select: forced by
// TUNELAB_DISPATCH, or the default for the masked CPU (ways=1 when no
// keccak width above one runs SIMD code).
func TestDispatchUnderEnv(t *testing.T) {
	if os.Getenv(childEnv) != "" {
		t.Skip("in the child process")
	}
	widest := func(exclude int) int {
		for _, nr := range []int{8, 4, 2} {
			if _, f := keccakSelected(nr); nr != exclude && variant.TierWidth(f) > 0 {
				return nr
			}
		}
		return 1
	}
	cases := []struct {
		env  []string
		want int // -1: the default of this host, unchecked
	}{
		{[]string{"TUNELAB_CPU=all=off"}, 1},
		{[]string{"TUNELAB_CPU=avx=off"}, 1},
		{[]string{"TUNELAB_DISPATCH=keccak.x8=generic"}, widest(8)},
		{[]string{"TUNELAB_DISPATCH=shake128.many=ways=2,shake256.many=ways=2"}, 2},
		{[]string{"TUNELAB_DISPATCH=shake128.many=generic,shake256.many=generic"}, 0},
		{[]string{"TUNELAB_CPU=all=off", "TUNELAB_DISPATCH=shake128.many=ways=8,shake256.many=ways=8"}, 8},
	}
	for _, c := range cases {
		cmd := exec.Command(os.Args[0], "-test.run=^TestDispatchChild$", "-test.v", "-test.count=1", "-test.short")
		cmd.Env = append(append(os.Environ(), childEnv+"="+strconv.Itoa(c.want)), c.env...)
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestDispatchChild") {
			t.Errorf("%v: child failed (%v):\n%s", c.env, err, out)
		}
	}
}

// TestDispatchChild is the subprocess side of TestDispatchUnderEnv: the
// NR planned must be the expected one (unless a table entry for this CPU
// decided), every variant planned must run here, and the public API must
// match crypto/sha3.
func TestDispatchChild(t *testing.T) {
	env := os.Getenv(childEnv)
	if env == "" {
		t.Skip("run by TestDispatchUnderEnv")
	}
	want, _ := strconv.Atoi(env)
	for _, k := range manyKernels {
		plan := k.slot.Planned()
		t.Logf("%s: plan %v", k.name, plan)
		for i, c := range plan {
			if c.Reason == dispatch.ReasonTable {
				continue
			}
			if c.Fn != want {
				t.Errorf("%s: plan[%d] %s (%s) runs ways=%d, want %d", k.name, i, c.Variant, c.Reason, c.Fn, want)
			}
		}
	}
	TestManyPublicAPI(t)
}
