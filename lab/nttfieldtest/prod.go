package nttfieldtest

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/internal/polyvec"
	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/lab/asmtest"
)

// ProductionEnv, set in a test process, leaves the lab variants
// unregistered (see Main): the tests run on the production tables only, as
// a program that never calls RegisterVariants does.
const ProductionEnv = "TUNELAB_NTT_PRODUCTION_ONLY"

// Main registers every generated variant with register (the package's
// RegisterVariants) unless ProductionEnv is set, then runs the tests. It
// is the body of each family's TestMain, so that the tests see the lab
// tables and APIUnderMasks can rerun TestAPI on production's alone.
func Main(m *testing.M, register func()) int {
	if os.Getenv(ProductionEnv) == "" {
		register()
	}
	return m.Run()
}

// ProductionLinksTable checks that the production tables hold every
// generated variant the compiled dispatch table names for fd's kernels
// (asmtest.CheckProduction) and that each is the lab table's variant of
// that name. It is the body of each family's TestProductionLinksTable.
func ProductionLinksTable[E polyvec.Elem](t *testing.T, fd Field[E]) {
	asmtest.CheckProduction(t, map[string][]string{
		fd.Kernel("ntt"):    inLab(t, fd.Kernel("ntt"), fd.ProdNTT, fd.AsmNTT),
		fd.Kernel("invntt"): inLab(t, fd.Kernel("invntt"), fd.ProdInvNTT, fd.AsmInvNTT),
		fd.Kernel("mulntt"): inLab(t, fd.Kernel("mulntt"), fd.ProdMulNTT, fd.AsmMulNTT),
	})
}

// inLab returns the names of prod, checking that each is in lab with the
// same metadata and is not an offset-sweep copy.
func inLab[F any](t *testing.T, kernel string, prod, lab []variant.Impl[F]) []string {
	t.Helper()
	var names []string
	for _, p := range prod {
		names = append(names, p.Name)
		l := variant.Find(lab, p.Name)
		switch {
		case l == nil:
			t.Errorf("%s: production variant %q is not in the lab table", kernel, p.Name)
		case p.OffsetSweep:
			t.Errorf("%s: production variant %q is an offset-sweep copy, which dispatch never selects", kernel, p.Name)
		case l.Symbol != p.Symbol || l.LoopLabel != p.LoopLabel || !slices.Equal(l.Features, p.Features):
			t.Errorf("%s %s: production entry (%s, %v, loop %q) differs from the lab's (%s, %v, loop %q)",
				kernel, p.Name, p.Symbol, p.Features, p.LoopLabel, l.Symbol, l.Features, l.LoopLabel)
		}
	}
	return names
}

// ProductionInit checks, in a subprocess that does not register the lab
// variants first (ProductionEnv), that init neither registers nor plans
// fd's kernels (the lab registers; each is planned at its first call), that
// the first calls dispatch among the generic variant and the production
// table, and that register (the package's
// RegisterVariants, called twice) then registers every lab variant once
// and dispatches among all; neither registers a whole-operation kernel
// (lab/operations does). It is the body of each family's
// TestProductionInit.
func ProductionInit[E polyvec.Elem](t *testing.T, fd Field[E], register func()) {
	if os.Getenv(ProductionEnv) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestProductionInit$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), ProductionEnv+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestProductionInit") {
			t.Errorf("production init: %v\n%s", err, out)
		}
		return
	}
	for _, k := range []string{"ntt", "invntt", "mulntt"} {
		if slices.ContainsFunc(dispatch.Plans(), func(kp dispatch.KernelPlan) bool { return kp.Kernel == fd.Kernel(k) }) {
			t.Errorf("%s planned at init, want at its first call", fd.Kernel(k))
		}
	}
	var f, g polyvec.Poly[E]
	fd.APINTT(&f)
	fd.APIInvNTT(&f)
	fd.APIMulNTT(&f, &f, &g)
	checkTables(t, fd, "at the first call", false, fd.ProdNTT, fd.ProdInvNTT, fd.ProdMulNTT)
	if ops := operationKernels(""); len(ops) > 0 {
		t.Errorf("at init: operation kernels %q registered, want none", ops)
	}
	register()
	register()
	checkTables(t, fd, "after RegisterVariants", true, fd.AsmNTT, fd.AsmInvNTT, fd.AsmMulNTT)
	if ops := operationKernels(""); len(ops) > 0 {
		t.Errorf("after RegisterVariants: operation kernels %q registered, want none (lab/operations registers them)", ops)
	}
}

// operationKernels returns the names of the registered whole-operation
// kernels of family, or of every family for "".
func operationKernels(family string) []string {
	var names []string
	for _, k := range variant.Kernels() {
		if k.Operation && (family == "" || k.Family == family) {
			names = append(names, k.Name)
		}
	}
	return names
}

// checkTables checks the registered variants and dispatch plans of fd's
// kernels against the tables.
func checkTables[E polyvec.Elem](t *testing.T, fd Field[E], when string, registered bool, ntt, inv []variant.Impl[unary[E]], mul []variant.Impl[binary[E]]) {
	t.Helper()
	checkTable(t, fd.Kernel("ntt"), when, registered, ntt)
	checkTable(t, fd.Kernel("invntt"), when, registered, inv)
	checkTable(t, fd.Kernel("mulntt"), when, registered, mul)
}

// checkTable checks that kernel's registered variants are the generic one
// and table's, each once (none, unless registered), and that its dispatch
// plan was made among the generic variant and table's dispatch
// candidates.
func checkTable[F any](t *testing.T, kernel, when string, registered bool, table []variant.Impl[F]) {
	t.Helper()
	want := []string{variant.GenericName}
	for _, im := range table {
		want = append(want, im.Name)
	}
	var got []string
	for _, v := range variant.Variants(kernel) {
		got = append(got, v.Name)
	}
	slices.Sort(got)
	if !registered && (len(got) > 0 || variant.LookupKernel(kernel) != nil) {
		t.Errorf("%s %s: %d variants registered, want none (the lab registers)", kernel, when, len(got))
	}
	if slices.Sort(want); registered && !slices.Equal(got, want) {
		t.Errorf("%s %s: %d variants registered, want %d (generic and the table)\ngot  %q\nwant %q", kernel, when, len(got), len(want), got, want)
	}
	var wantCands []string
	for _, c := range variant.Candidates(table) {
		wantCands = append(wantCands, c.Name)
	}
	i := slices.IndexFunc(dispatch.Plans(), func(kp dispatch.KernelPlan) bool { return kp.Kernel == kernel })
	if i < 0 {
		t.Fatalf("%s %s: no dispatch plan", kernel, when)
	}
	kp := dispatch.Plans()[i]
	var cands []string
	for _, c := range kp.Candidates {
		cands = append(cands, c.Name)
	}
	if !slices.Equal(cands, wantCands) {
		t.Errorf("%s %s: dispatch planned among %d candidates, want %d (generic and the table's)", kernel, when, len(cands), len(wantCands))
	}
	for _, c := range kp.Choices {
		if !slices.Contains(want, c.Variant) {
			t.Errorf("%s %s: dispatch chose %q, which is neither generic nor in the table", kernel, when, c.Variant)
		}
	}
}
