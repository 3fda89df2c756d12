package mlkem

import (
	"testing"

	"github.com/tunelab/tunelab/internal/contract"
	"github.com/tunelab/tunelab/lab/nttfieldtest"
)

// contractInputs are the inputs the generic code is checked on against
// its contracts (nttfieldtest.ContractInputs).
func contractInputs() []*[256]int16 { return nttfieldtest.ContractInputs(int16(Q)) }

// checkArg fails t if a lane of p is outside the bound b of kernel k's
// parameter.
func checkArg(t *testing.T, k, arg, what string, b *contract.Bound, p *[256]int16) {
	t.Helper()
	nttfieldtest.CheckBound(t, k, arg, what, b, p)
}

// TestGenericContracts: the generic NTT, InvNTT and MulNTT satisfy the
// contracts of internal/contract on the edge and random inputs.
func TestGenericContracts(t *testing.T) { nttfieldtest.GenericContracts(t, field) }

// TestGenericContractCatchesAWideInput: a lane one past the input bound
// is reported (the check can fail).
func TestGenericContractCatchesAWideInput(t *testing.T) {
	nttfieldtest.ContractCatchesAWideInput(t, field)
}

// checkLanes fails t if a lane of xs is outside the bound b of kernel
// k's parameter arg.
func checkLanes(t *testing.T, k, arg, what string, b *contract.Bound, xs []int16) {
	t.Helper()
	if b == nil {
		t.Fatalf("%s.%s has no %s bound", k, arg, what)
	}
	for i, x := range xs {
		if int64(x) < b.Lo || int64(x) > b.Hi {
			t.Fatalf("%s.%s %s[%d] = %d outside %v", k, arg, what, i, x, *b)
		}
	}
}

// TestGenericRowProductContracts: the generic mlkem.mulcache and
// mlkem.matvec satisfy their contracts on the edge and random inputs,
// for every vector length k of the parameter sets (2, 3, 4) and a row
// stride of 1 and k.
func TestGenericRowProductContracts(t *testing.T) {
	in := contractInputs()
	mc, ok1 := contract.Of("mlkem.mulcache")
	mv, ok2 := contract.Of("mlkem.matvec")
	if !ok1 || !ok2 {
		t.Fatal("no contract for mlkem.mulcache or mlkem.matvec")
	}
	cb, _ := mc.Arg("b")
	cc, _ := mc.Arg("c")
	va, _ := mv.Arg("a")
	vc, _ := mv.Arg("c")
	vacc, _ := mv.Arg("acc")
	caches := make([]mulCache, len(in))
	for i, p := range in {
		checkArg(t, mc.Name, "b", "input", cb.In, p)
		mulCacheGeneric(&caches[i], p)
		checkLanes(t, mc.Name, "c", "output", cc.Out, caches[i][:])
	}
	for _, k := range []int{2, 3, 4} {
		for _, stride := range []int{1, k} {
			for i := 0; i+k*stride <= len(in); i += k * stride {
				rows := make([]poly, (k-1)*stride+1)
				for j := range rows {
					rows[j] = *in[i+j]
					checkArg(t, mv.Name, "a", "input", va.In, &rows[j])
				}
				cs := caches[(i+5)%(len(caches)-k):][:k]
				for j := range cs {
					checkLanes(t, mv.Name, "c", "input", vc.In, cs[j][:])
				}
				var acc [256]int16
				matVecGeneric(&acc, &rows[0], stride, &cs[0], k)
				checkArg(t, mv.Name, "acc", "output", vacc.Out, &acc)
			}
		}
	}
}
