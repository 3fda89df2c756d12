package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/variant"
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
	for _, args := range [][]string{{"list", "x"}, {"list", "--kernel", "nope"}, {"list", "--json", "--names"}} {
		if _, _, code := runCLI(t, args...); code != 2 {
			t.Errorf("tunelab %q: exit %d, want 2", args, code)
		}
	}
}

// TestListNames checks the script format: "KERNEL VARIANT ROLE" per
// variant; calib is lab only.
func TestListNames(t *testing.T) {
	needCalibAsm(t)
	out, stderr, code := runCLI(t, "list", "--kernel", "calib", "--names")
	if code != 0 {
		t.Fatalf("list --names: exit %d: %s", code, stderr)
	}
	golden(t, "list_calib_names.golden", out)
}

// TestListProd checks that `list --prod` lists, as production, only the
// variants the compiled dispatch table's entries and feature-level
// defaults name plus each of their kernels' generic code, and (where the
// generated variants are built: not under purego) every one of them.
func TestListProd(t *testing.T) {
	asm := variant.Lookup("calib", "isa=amd64/eps=0/align=64") != nil
	out, stderr, code := runCLI(t, "list", "--prod", "--names")
	if code != 0 {
		t.Fatalf("list --prod --names: exit %d: %s", code, stderr)
	}
	listed := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		f := strings.Fields(line)
		if len(f) != 3 || f[2] != "production" {
			t.Fatalf("list --prod --names line %q: want KERNEL VARIANT production", line)
		}
		listed[f[0]+" "+f[1]] = true
	}
	want := map[string]bool{}
	tab := dispatch.Compiled()
	add := func(kernel string, cs []dispatch.Choice) {
		want[kernel+" "+variant.GenericName] = true
		for _, c := range cs {
			want[kernel+" "+c.Variant] = true
		}
	}
	for _, e := range tab.Entries {
		add(e.Kernel, e.Choices)
	}
	for _, d := range tab.Defaults {
		add(d.Kernel, d.Choices)
	}
	for k := range want {
		if asm && !listed[k] {
			t.Errorf("the compiled table names %s, which list --prod does not list (not registered?)", k)
		}
	}
	for k := range listed {
		if !want[k] {
			t.Errorf("list --prod lists %s, which the compiled table does not name", k)
		}
	}
	if all, _, _ := runCLI(t, "list", "--names"); strings.Count(all, " production\n") != len(listed) {
		t.Errorf("list --names marks %d variants production, list --prod --names lists %d", strings.Count(all, " production\n"), len(listed))
	}
}
