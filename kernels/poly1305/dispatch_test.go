package poly1305

import (
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"

	"golang.org/x/crypto/poly1305"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/variant"
)

const childEnv = "TUNELAB_POLY1305_CHILD"

// TestPublicAPIUnderMasks reruns TestPublicAPIChild in a subprocess under
// CPU masks and dispatch overrides: the plan must only select runnable,
// unmasked variants and the public API must still match x/crypto.
func TestPublicAPIUnderMasks(t *testing.T) {
	if os.Getenv(childEnv) != "" {
		t.Skip("in the child process")
	}
	ifma := "isa=avx512ifma/radix=44/lanes=8/blocks=16/pow=reg/carry=seq/tail=scalar/align=64"
	// A lab variant (not in the production set), which Sum and MAC run
	// on heap copies.
	labAVX2 := "isa=avx2/radix=26/lanes=4/blocks=8/pow=mem/carry=seq/tail=scalar/align=none"
	cases := [][]string{
		{"TUNELAB_DISPATCH=poly1305=" + labAVX2},
		{"TUNELAB_CPU=avx512f=off"},
		{"TUNELAB_CPU=all=off"},
		{"TUNELAB_CPU=avx512f=off", "TUNELAB_DISPATCH=poly1305=" + ifma},
		{"TUNELAB_DISPATCH=poly1305=" + ifma},
		{"TUNELAB_DISPATCH=poly1305=generic"},
	}
	for _, env := range cases {
		cmd := exec.Command(os.Args[0], "-test.run=^TestPublicAPIChild$", "-test.v", "-test.count=1")
		cmd.Env = append(append(os.Environ(), childEnv+"=1"), env...)
		out, err := cmd.CombinedOutput()
		if err != nil || !bytes.Contains(out, []byte("--- PASS: TestPublicAPIChild")) {
			t.Errorf("%v: child failed (%v):\n%s", env, err, out)
		}
	}
}

// TestPublicAPIChild is the subprocess side of TestPublicAPIUnderMasks.
func TestPublicAPIChild(t *testing.T) {
	if os.Getenv(childEnv) == "" {
		t.Skip("run by TestPublicAPIUnderMasks")
	}
	mask := os.Getenv("TUNELAB_CPU")
	for i, c := range slot.Plan() {
		im := lookup(c.Variant)
		if !cpu.Has(im.Features...) {
			t.Errorf("plan[%d] = %s needs %v, not all present", i, im.Name, im.Features)
		}
		for _, f := range im.Features {
			if masked(mask, f) {
				t.Errorf("plan[%d] = %s needs %s, masked by TUNELAB_CPU=%s", i, im.Name, f, mask)
			}
		}
	}
	if strings.Contains(mask, "avx512f=off") && cpu.Has("avx512f") {
		t.Errorf("TUNELAB_CPU=%s but cpu.Has(avx512f) is true", mask)
	}
	if o := os.Getenv("TUNELAB_DISPATCH"); o != "" && mask == "" {
		want := strings.TrimPrefix(o, "poly1305=")
		if im := lookup(want); im.Name == want && cpu.Has(im.Features...) && slot.Plan()[0].Variant != want {
			t.Errorf("TUNELAB_DISPATCH=%s: plan selects %s", o, slot.Plan()[0].Variant)
		}
	}
	t.Logf("plan: %v", slot.Plan())
	rng := rand.New(rand.NewPCG(21, 22))
	for _, n := range []int{0, 1, 16, 64, 100, 256, 1000, 1024, 4096 + 5, 16384} {
		m := make([]byte, n)
		fill(rng, m)
		key := randKey(rng)
		var got, want [16]byte
		Sum(&got, m, key)
		poly1305.Sum(&want, m, key)
		if got != want || !Verify(&want, m, key) {
			t.Errorf("%d bytes: Sum %x, want %x", n, got, want)
		}
		mac := New(key)
		mac.Write(m[:n/3])
		mac.Write(m[n/3:])
		if !mac.Verify(want[:]) {
			t.Errorf("%d bytes: MAC (two writes) rejected x/crypto's tag", n)
		}
	}
}

// masked reports whether a TUNELAB_CPU value hides feature f (masking
// avx512f hides every avx512* feature).
func masked(mask, f string) bool {
	for _, m := range strings.Split(mask, ",") {
		name, _, _ := strings.Cut(m, "=")
		if name == "all" || name == f || (name == "avx512f" && strings.HasPrefix(f, "avx512")) {
			return true
		}
	}
	return false
}

// TestSizeClassPlan installs a three-class plan (as an exported dispatch
// table would) and checks Sum, Verify and the streaming MAC across the
// class boundaries against x/crypto.
func TestSizeClassPlan(t *testing.T) {
	ims := runnable(t)
	if len(ims) < 3 {
		t.Skip("fewer than three runnable implementations")
	}
	small, mid, large := ims[1], ims[len(ims)/2], ims[len(ims)-1]
	plan := []dispatch.Choice{{MaxSize: 64, Variant: small.Name}, {MaxSize: 1024, Variant: mid.Name}, {Variant: large.Name}}
	restore, err := slot.UsePlan(plan)
	if err != nil {
		t.Fatal(err)
	}
	defer restore()
	rng := rand.New(rand.NewPCG(31, 32))
	for _, n := range []int{0, 15, 16, 63, 64, 65, 1023, 1024, 1025, 4096, 20000} {
		m := make([]byte, n)
		fill(rng, m)
		key := randKey(rng)
		var got, want [16]byte
		Sum(&got, m, key)
		poly1305.Sum(&want, m, key)
		if got != want {
			t.Errorf("%d bytes (class %s): Sum %x, want %x", n, plan[dispatch.ForSize(plan, n)].Variant, got, want)
		}
		mac := New(key)
		for rest := m; len(rest) > 0; {
			k := min(len(rest), 1+rng.IntN(1500))
			mac.Write(rest[:k])
			rest = rest[k:]
		}
		if !mac.Verify(want[:]) {
			t.Errorf("%d bytes: streaming MAC over the plan rejected x/crypto's tag", n)
		}
	}
}

// lookup returns the implementation named name, the generic one if none
// is.
func lookup(name string) impl {
	all := impls()
	if im := variant.Find(all, name); im != nil {
		return *im
	}
	return all[0]
}
