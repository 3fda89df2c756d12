package main

import (
	"encoding/json"
	"testing"
)

func TestListCalib(t *testing.T) {
	needCalibAsm(t)
	out, stderr, code := runCLI(t, "list", "--kernel", "calib")
	if code != 0 {
		t.Fatalf("list: exit %d: %s", code, stderr)
	}
	golden(t, "list_calib.golden", out)
}

func TestListJSON(t *testing.T) {
	needCalibAsm(t)
	out, _, code := runCLI(t, "list", "--kernel", "calib", "--json")
	if code != 0 {
		t.Fatalf("list --json: exit %d", code)
	}
	golden(t, "list_calib_json.golden", out)
	var ks []listKernel
	if err := json.Unmarshal([]byte(out), &ks); err != nil || len(ks) != 1 || len(ks[0].Variants) != 11 {
		t.Fatalf("list --json: %v; got %d kernels (want 1 with 11 variants: generic, eps=0/1/2/5, 3 copies, 3 loop offsets)", err, len(ks))
	}
	v := ks[0].Variants[1]
	if v.Name != "isa=amd64/eps=0/align=64" || len(v.Knobs) != 3 || v.Knobs[1][0] != "eps" || !v.Runnable {
		t.Errorf("variant %+v: want isa=amd64/eps=0/align=64 with knobs isa, eps, align, runnable", v)
	}
}

func TestListUsage(t *testing.T) {
	for _, args := range [][]string{{"list", "x"}, {"list", "--kernel", "nope"}} {
		if _, _, code := runCLI(t, args...); code != 2 {
			t.Errorf("tunelab %q: exit %d, want 2", args, code)
		}
	}
}
