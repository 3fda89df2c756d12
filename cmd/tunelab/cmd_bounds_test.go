package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/lab/bounds"
)

// TestBoundsMLKEMNTT: every generated ML-KEM NTT, InvNTT and MulNTT
// variant is proven within the canonical output contract; the chains
// hold; the summary counts the lines.
func TestBoundsMLKEMNTT(t *testing.T) {
	out, stderr, code := runCLI(t, "bounds", "--kernel", "mlkem.ntt,mlkem.invntt,mlkem.mulntt")
	if code != 0 {
		t.Fatalf("bounds: exit %d: %s%s", code, out, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	last := lines[len(lines)-1]
	variants := 0
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) == 4 && strings.HasPrefix(f[0], "mlkem.") {
			variants++
			if f[2] != "proven" || f[3] != "[0,q-1]" {
				t.Errorf("line %q: want proven within [0, q-1]", l)
			}
		}
	}
	if variants < 200 || !strings.HasPrefix(last, "bounds: ") || !strings.Contains(last, " variants: ") ||
		!strings.Contains(last, fmt.Sprint(variants)+" proven, 0 overflow, 0 unproven") {
		t.Errorf("%d variant lines, last line %q", variants, last)
	}
	if !strings.Contains(out, "chain ML-KEM-768 encaps: ") || strings.Contains(out, "broken") {
		t.Errorf("chains missing or broken:\n%s", out)
	}
}

// TestBoundsUncoveredFails: a kernel asked for that has no contract
// (mlkem.encode12, a packing of no arithmetic) is reported unproven, and
// the command fails; every ML-DSA MulNTT variant (mul=ifma and ifma2 by
// the Barrett rule) is proven.
func TestBoundsUncoveredFails(t *testing.T) {
	out, _, code := runCLI(t, "bounds", "--kernel", "mlkem.encode12,mldsa.mulntt")
	if code != 1 || !strings.Contains(out, "mlkem.encode12 ") || strings.Contains(out, " overflow ") {
		t.Fatalf("bounds --kernel mlkem.encode12,mldsa.mulntt: exit %d, want 1 with unproven lines:\n%s", code, out)
	}
	ifma := 0
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) == 4 && f[0] == "mlkem.encode12" && f[2] != "unproven":
			t.Errorf("mlkem.encode12 has no contract, yet %q", l)
		case len(f) == 4 && f[0] == "mldsa.mulntt" && f[2] != "proven":
			t.Errorf("want proven: %q", l)
		case len(f) == 4 && f[0] == "mldsa.mulntt" && strings.Contains(f[1], "mul=ifma2"):
			ifma++
		}
	}
	if ifma == 0 {
		t.Errorf("no mul=ifma2 variant listed:\n%s", out)
	}
}

// TestBoundsAll: every variant of every arithmetic kernel is proven, so
// the full command succeeds.
func TestBoundsAll(t *testing.T) {
	out, stderr, code := runCLI(t, "bounds")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || !strings.HasSuffix(lines[len(lines)-1], " proven, 0 overflow, 0 unproven") {
		t.Fatalf("bounds: exit %d, last line %q: %s", code, lines[len(lines)-1], stderr)
	}
}

// TestBoundsPoly1305: every Poly1305 variant (scalar, radix 2^26, IFMA)
// is proven, its bound h[2]'s within the contract's [0, 7].
func TestBoundsPoly1305(t *testing.T) {
	out, stderr, code := runCLI(t, "bounds", "--kernel", "poly1305")
	if code != 0 {
		t.Fatalf("bounds --kernel poly1305: exit %d: %s%s", code, out, stderr)
	}
	kinds := map[string]int{}
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) != 4 || f[0] != "poly1305" {
			continue
		}
		if f[2] != "proven" || (f[3] != "[0,7]" && f[3] != "[0,4]") {
			t.Errorf("line %q: want proven with h[2] in [0, 7]", l)
		}
		kinds[strings.Split(f[1], "/")[0]]++
	}
	for _, k := range []string{"isa=scalar", "isa=avx2", "isa=avx512f", "isa=avx512ifma"} {
		if kinds[k] == 0 {
			t.Errorf("no %s variant listed:\n%s", k, out)
		}
	}
}

// TestBoundsMLDSAShoup: every ML-DSA NTT and InvNTT variant, mul=shoup
// (by the Shoup rule) among them, is proven within [0, q-1].
func TestBoundsMLDSAShoup(t *testing.T) {
	out, stderr, code := runCLI(t, "bounds", "--kernel", "mldsa.ntt,mldsa.invntt")
	if code != 0 {
		t.Fatalf("bounds: exit %d: %s%s", code, out, stderr)
	}
	shoup := 0
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) != 4 || !strings.HasPrefix(f[0], "mldsa.") {
			continue
		}
		if f[2] != "proven" || f[3] != "[0,q-1]" {
			t.Errorf("line %q: want proven within [0, q-1]", l)
		}
		if strings.Contains(f[1], "mul=shoup") {
			shoup++
		}
	}
	if shoup == 0 {
		t.Errorf("no mul=shoup variant listed:\n%s", out)
	}
}

// TestBoundsSelftest: every defect planted on a copy of a generated
// variant is reported as an overflow with lane and instruction; a
// recorded miss would fail the command.
func TestBoundsSelftest(t *testing.T) {
	out, stderr, code := runCLI(t, "bounds", "--selftest")
	if code != 0 {
		t.Fatalf("bounds --selftest: exit %d: %s%s", code, out, stderr)
	}
	ps := bounds.PlantedDefects()
	if len(ps) < 3 {
		t.Fatalf("%d planted defects recorded, want at least 3", len(ps))
	}
	for _, p := range ps {
		if !p.OK() || !strings.Contains(out, p.Defect+" ") || !strings.Contains(out, p.Instr) {
			t.Errorf("planted %s: %s lane %d %q not reported as flagged:\n%s", p.Defect, p.Status, p.Lane, p.Instr, out)
		}
	}
	for _, d := range []string{"subtract-chain-short mlkem.ntt", "radix26-carry-removed poly1305", "ifma-top-limb-unreduced poly1305"} {
		if !strings.Contains(out, d) {
			t.Errorf("the issue's defect %s is not planted:\n%s", d, out)
		}
	}
}

func TestBoundsUsage(t *testing.T) {
	for _, args := range [][]string{{"bounds", "x"}, {"bounds", "--selftest", "--kernel", "mlkem.ntt"}, {"bounds", "--kernel", "nosuch"}} {
		if _, _, code := runCLI(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2 (usage)", args, code)
		}
	}
}
