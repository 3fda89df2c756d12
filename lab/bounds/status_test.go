package bounds

import "testing"

// TestStatusFiles: every recorded variant has a known status, a proven
// one a bound, the others a reason; every planted defect was reported
// as an overflow with lane and instruction.
func TestStatusFiles(t *testing.T) {
	vs := Variants()
	if len(vs) == 0 {
		t.Fatal("no status recorded (run go generate ./kernels/mlkem ./kernels/mldsa)")
	}
	for _, v := range vs {
		switch v.Status {
		case Proven:
			if v.Lo > v.Hi || v.Why != "" {
				t.Errorf("%s %s: proven with bound [%d, %d] and reason %q", v.Kernel, v.Name, v.Lo, v.Hi, v.Why)
			}
		case Overflow, Unproven:
			if v.Why == "" {
				t.Errorf("%s %s: %s without a reason", v.Kernel, v.Name, v.Status)
			}
		default:
			t.Errorf("%s %s: status %q", v.Kernel, v.Name, v.Status)
		}
	}
	ps := PlantedDefects()
	if len(ps) == 0 {
		t.Fatal("no planted defects recorded")
	}
	for _, p := range ps {
		if !p.OK() {
			t.Errorf("planted %s on %s %s: %s lane %d %q: %s", p.Defect, p.Kernel, p.Variant, p.Status, p.Lane, p.Instr, p.Why)
		}
	}
	if v, ok := Of("mlkem.ntt", "isa=avx512/regs=all/shuf=blend/reorder=undo/red=lazy/align=none"); !ok || v.Status != Proven {
		t.Errorf("the issue's ML-KEM NTT variant: %+v, want proven", v)
	}
}
