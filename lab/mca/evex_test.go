//go:build amd64 && !purego

package mca

import (
	"context"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/variant"
	_ "github.com/tunelab/tunelab/lab/all"
)

func TestIsEVEX(t *testing.T) {
	for _, c := range []struct {
		name string
		code []byte
		want bool
	}{
		{"vpaddq zmm (EVEX)", []byte{0x62, 0xf1, 0xfd, 0x48, 0xd4, 0xc1}, true},
		{"vprolq ymm (EVEX)", []byte{0x62, 0xf1, 0xf5, 0x28, 0x72, 0xc8, 0x01}, true},
		{"addr32 + EVEX", []byte{0x67, 0x62, 0xf1, 0xfd, 0x48, 0xd4, 0x00}, true},
		{"vpaddq ymm (VEX)", []byte{0xc5, 0xfd, 0xd4, 0xc1}, false},
		{"paddq xmm", []byte{0x66, 0x0f, 0xd4, 0xc1}, false},
		{"decq", []byte{0x48, 0xff, 0xc9}, false},
		{"empty", nil, false},
	} {
		if got := isEVEX(c.code); got != c.want {
			t.Errorf("isEVEX(% x) [%s] = %v, want %v", c.code, c.name, got, c.want)
		}
	}
}

func TestUnmodelledKeepsAVX512FromModelsWithout(t *testing.T) {
	b := &Body{Instrs: []Instr{{Addr: 0x10, Text: "vpaddd %ymm1,%ymm2,%ymm3"},
		{Addr: 0x14, Text: "vpternlogq $0x96,%ymm1,%ymm2,%ymm3", EVEX: true}}}
	declared := &variant.Variant{Name: "isa=avx2/mul=mont", Features: []string{"avx2"}}
	for mcpu, wantSkip := range map[string]bool{"znver3": true, "alderlake": true, "haswell": true,
		"znver4": false, "sapphirerapids": false, "skylake-avx512": false} {
		why := unmodelled(declared, b, mcpu)
		if wantSkip != (why != "") || wantSkip && !strings.Contains(why, "avx512f") {
			t.Errorf("unmodelled(avx2-declared loop with vpternlogq, %s) = %q; want skip %v naming avx512f", mcpu, why, wantSkip)
		}
	}
	if w := undeclaredEVEX(declared, b); !strings.Contains(w, "vpternlogq") || !strings.Contains(w, "avx2") {
		t.Errorf("undeclaredEVEX = %q; want the instruction and the declared features", w)
	}
	if w := undeclaredEVEX(&variant.Variant{Features: []string{"avx512f", "avx512vl"}}, b); w != "" {
		t.Errorf("undeclaredEVEX of an avx512f variant = %q, want none", w)
	}
}

// TestNoAVX512ForModelsWithout extracts one loop per kernel and isa knob
// and checks that a loop with an EVEX instruction is never given to a
// model without AVX-512, whatever the variant declares.
func TestNoAVX512ForModelsWithout(t *testing.T) {
	needObjdump(t)
	n := 0
	for _, v := range onePerISA() {
		b, err := extractVariant(context.Background(), v)
		if err != nil {
			t.Errorf("%s %s: %v", v.Kernel, v.Name, err)
			continue
		}
		if b.FirstEVEX() == nil {
			continue
		}
		n++
		if w := undeclaredEVEX(v, b); w != "" {
			t.Logf("%s %s: %s", v.Kernel, v.Name, w)
		}
		for _, mcpu := range []string{"znver3", "alderlake"} {
			if unmodelled(v, b, mcpu) == "" {
				t.Errorf("%s %s: loop has %q, but would be given to %s", v.Kernel, v.Name, b.FirstEVEX().Text, mcpu)
			}
		}
	}
	t.Logf("%d loops with AVX-512 instructions checked", n)
}

// onePerISA returns the first variant with a generated loop of every
// kernel and isa knob value.
func onePerISA() []*variant.Variant {
	var out []*variant.Variant
	seen := map[string]bool{}
	for _, k := range variant.Kernels() {
		for _, v := range variant.Variants(k.Name) {
			key := k.Name + " " + v.Knob("isa")
			if v.Symbol != "" && v.LoopLabel != "" && !seen[key] {
				seen[key] = true
				out = append(out, v)
			}
		}
	}
	return out
}
