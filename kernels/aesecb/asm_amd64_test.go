//go:build !purego

package aesecb

import (
	"os"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/variant"
)

// addAsmKeyExpanders adds the AESKEYGENASSIST expansion where the host has
// AES-NI.
func addAsmKeyExpanders(m map[string]func([]byte, *[240]byte, *[240]byte)) {
	if dispatch.Has("aes") {
		m["aeskeygenassist"] = expandKeyAESNI
	}
}

// avoFeatures maps avo's "Requires:" names to kernels/dispatch names; SSE2
// is part of the amd64 baseline.
var avoFeatures = map[string]string{
	"AES": "aes", "AVX": "avx", "AVX2": "avx2", "AVX512F": "avx512f",
	"AVX512VL": "avx512vl", "VAES": "vaes", "SSE2": "",
}

// TestGeneratedMetadata checks each registered variant against the
// generated assembly: its function exists with the loop label, the
// features avo derived from its instructions are declared, and Symbol is
// the name the runtime reports for the function.
func TestGeneratedMetadata(t *testing.T) {
	src, err := os.ReadFile("aesecb_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	funcs := map[string]string{} // symbol -> "Requires" line + body
	for _, chunk := range strings.Split(string(src), "\n// func ")[1:] {
		_, rest, _ := strings.Cut(chunk, "TEXT ·")
		name, _, _ := strings.Cut(rest, "(SB)")
		funcs[name] = chunk
	}
	for _, a := range asmVariants {
		body, ok := funcs[a.symbol]
		if !ok {
			t.Errorf("%s %s: no TEXT ·%s in aesecb_amd64.s", a.kernel, a.name, a.symbol)
			continue
		}
		if !strings.Contains(body, "\n"+a.loop+":\n") {
			t.Errorf("%s %s: loop label %q not in %s", a.kernel, a.name, a.loop, a.symbol)
		}
		req, _, _ := strings.Cut(strings.SplitN(body, "// Requires: ", 2)[1], "\n")
		for _, f := range strings.Split(req, ", ") {
			ours, known := avoFeatures[f]
			if !known || (ours != "" && !slices.Contains(a.features, ours)) {
				t.Errorf("%s %s: assembly requires %s, declared features %v", a.kernel, a.name, f, a.features)
			}
		}
		v := variant.Lookup(a.kernel, a.name)
		if got := runtime.FuncForPC(reflect.ValueOf(a.fn).Pointer()).Name(); v == nil || got != v.Symbol {
			t.Errorf("%s %s: runtime name %q, registered Symbol %v", a.kernel, a.name, got, v)
		}
	}
}
