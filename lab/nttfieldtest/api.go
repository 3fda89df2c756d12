package nttfieldtest

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/internal/polyvec"
	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/variant"
)

// ChildEnv is set in the subprocesses APIUnderMasks starts.
const ChildEnv = "TUNELAB_NTT_API_CHILD"

// API checks the public functions (whatever variant dispatch chose) against
// the generic code on 200 random inputs, and that every dispatch choice of
// fd's kernels is a variant runnable on this host. It is the body of each
// family's TestAPI.
func API[E polyvec.Elem](t *testing.T, fd Field[E]) {
	rng := polyvec.NewRand(99)
	for i := range 200 {
		var f, g, got, want polyvec.Poly[E]
		polyvec.Fill(rng, fd.Q, &f)
		polyvec.Fill(rng, fd.Q, &g)
		got, want = f, f
		fd.APINTT(&got)
		fd.NTT(&want)
		if j := polyvec.FirstDiff(&got, &want); j >= 0 {
			t.Fatalf("NTT, random #%d: coefficient %d = %d, want %d", i, j, got[j], want[j])
		}
		got, want = f, f
		fd.APIInvNTT(&got)
		fd.InvNTT(&want)
		if j := polyvec.FirstDiff(&got, &want); j >= 0 {
			t.Fatalf("InvNTT, random #%d: coefficient %d = %d, want %d", i, j, got[j], want[j])
		}
		fd.APIMulNTT(&got, &f, &g)
		fd.MulNTT(&want, &f, &g)
		if j := polyvec.FirstDiff(&got, &want); j >= 0 {
			t.Fatalf("MulNTT, random #%d: coefficient %d = %d, want %d", i, j, got[j], want[j])
		}
	}
	for _, kp := range dispatch.Plans() {
		if !strings.HasPrefix(kp.Kernel, fd.Prefix+".") {
			continue
		}
		for _, c := range kp.Choices {
			t.Logf("%s: dispatching to %s (%s)", kp.Kernel, c.Variant, c.Reason)
			if features, ok := fd.generated(kp.Kernel, c.Variant); !ok || !cpu.Has(features...) {
				t.Errorf("%s: dispatch chose %q, which is not a runnable variant here", kp.Kernel, c.Variant)
			}
		}
	}
}

// APIUnderMasks reruns the calling package's TestAPI in subprocesses with
// CPU features masked (TUNELAB_CPU) and with variants forced
// (TUNELAB_DISPATCH), so that every dispatch path of the public API is
// exercised on this host, and on the production tables alone
// (ProductionEnv), unmasked and with AVX-512 masked, as a program that
// never calls RegisterVariants runs. It is the body of each family's
// TestAPIUnderMasks.
func APIUnderMasks[E polyvec.Elem](t *testing.T, fd Field[E]) {
	if os.Getenv(ChildEnv) != "" {
		t.Skip("in child")
	}
	envs := [][]string{{"TUNELAB_CPU=avx512f=off"}, {"TUNELAB_CPU=all=off"}}
	refused := ""
	if len(fd.AsmNTT) > 0 {
		// Forcing AVX-512 variants with AVX-512 masked must be refused
		// with a warning, not obeyed.
		envs = append(envs,
			[]string{"TUNELAB_DISPATCH=" + fd.forced(fd.AsmNTT[0].Name, fd.AsmInvNTT[0].Name, fd.AsmMulNTT[0].Name)},
			[]string{"TUNELAB_CPU=avx512f=off", "TUNELAB_DISPATCH=" + fd.forced(lastAVX512(fd.AsmNTT), lastAVX512(fd.AsmInvNTT), lastAVX512(fd.AsmMulNTT))})
		refused = "missing or masked on this CPU"
	}
	envs = append(envs, []string{ProductionEnv + "=1"}, []string{ProductionEnv + "=1", "TUNELAB_CPU=avx512f=off"})
	for i, env := range envs {
		cmd := exec.Command(os.Args[0], "-test.run=^TestAPI$", "-test.count=1", "-test.v")
		cmd.Env = append(append(os.Environ(), ChildEnv+"=1"), env...)
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestAPI") {
			t.Errorf("public API under %v: %v\n%s", env, err, out)
		}
		if i == 3 && !strings.Contains(string(out), refused) {
			t.Errorf("public API under %v: forcing AVX-512 variants with AVX-512 masked was not refused:\n%s", env, out)
		}
	}
}

// forced is a TUNELAB_DISPATCH value forcing the given variants.
func (fd Field[E]) forced(ntt, inv, mul string) string {
	return fd.Kernel("ntt") + "=" + ntt + "," + fd.Kernel("invntt") + "=" + inv + "," + fd.Kernel("mulntt") + "=" + mul
}

// lastAVX512 returns the name of the last dispatchable (non offset-sweep)
// variant of impls that needs AVX-512F, or the generic variant's if there
// is none.
func lastAVX512[F any](impls []variant.Impl[F]) string {
	for i := len(impls) - 1; i >= 0; i-- {
		if !impls[i].OffsetSweep && slices.Contains(impls[i].Features, "avx512f") {
			return impls[i].Name
		}
	}
	return variant.GenericName
}

// generated reports whether name is the generic code or a generated
// variant of kernel and returns its features: for the field's NTT, InvNTT
// and MulNTT the tables answer (the production child registers nothing),
// for another kernel the registry, where the lab registered it.
func (fd Field[E]) generated(kernel, name string) ([]string, bool) {
	if name == variant.GenericName {
		return nil, true
	}
	var features []string
	found := false
	find := func(n string, f []string) {
		if n == name {
			features, found = f, true
		}
	}
	switch kernel {
	default: // a coefficient kernel: registered, unless in the production child
		if variant.LookupKernel(kernel) == nil {
			return nil, true
		}
		v := variant.Lookup(kernel, name)
		if v == nil {
			return nil, false
		}
		return v.Features, true
	case fd.Kernel("ntt"):
		for _, im := range fd.AsmNTT {
			find(im.Name, im.Features)
		}
	case fd.Kernel("invntt"):
		for _, im := range fd.AsmInvNTT {
			find(im.Name, im.Features)
		}
	case fd.Kernel("mulntt"):
		for _, im := range fd.AsmMulNTT {
			find(im.Name, im.Features)
		}
	}
	return features, found
}
