package keccak

import (
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/internal/asmmap"
	"github.com/tunelab/tunelab/kernels/variant"
)

var knobOrder = []string{"isa", "layout", "comp", "rot", "chi", "regs", "load", "group", "unroll", "xpose", "align"}

// TestNames checks variant names (allowed characters, fixed knob order),
// symbols (as runtime.FuncForPC reports them) and loop labels of every
// permutation and sha3.256 variant.
func TestNames(t *testing.T) {
	for _, nr := range widths {
		for _, m := range implsOf(nr) {
			checkName(t, record(m), m.Fn)
		}
	}
	for _, m := range absorbers() {
		checkName(t, m.record(), m.Fn)
	}
}

var validName = regexp.MustCompile(`^[a-z0-9=+/._-]+$`)

// checkName checks one variant whose function is fn.
func checkName(t *testing.T, v variant.Variant, fn any) {
	t.Helper()
	if !validName.MatchString(v.Name) {
		t.Errorf("%s %q: invalid characters", v.Kernel, v.Name)
	}
	if !inOrder(v.Name) {
		t.Errorf("%s %q: knobs out of the order %v", v.Kernel, v.Name, knobOrder)
	}
	if v.Name == variant.GenericName {
		return
	}
	pc := reflect.ValueOf(fn).Pointer()
	if got := runtime.FuncForPC(pc).Name(); got != v.Symbol {
		t.Errorf("%s %s: Symbol %q, runtime reports %q", v.Kernel, v.Name, v.Symbol, got)
	}
	entry, end, err := asmmap.Func(v.Symbol)
	if v.LoopLabel != "loop" || err != nil || end <= entry || v.LoopTrips == nil {
		t.Errorf("%s %s: LoopLabel %q, code in the binary [%#x, %#x) %v, LoopTrips set %v", v.Kernel, v.Name, v.LoopLabel, entry, end, err, v.LoopTrips != nil)
	}
	if sweep := strings.Contains(v.Name, "align=64+"); sweep != v.OffsetSweep {
		t.Errorf("%s %s: OffsetSweep %v", v.Kernel, v.Name, v.OffsetSweep)
	}
}

func inOrder(name string) bool {
	pos := -1
	for _, k := range variant.Knobs(name) {
		i := indexOf(knobOrder, k.Key)
		if i <= pos {
			return false
		}
		pos = i
	}
	return true
}

func indexOf(s []string, x string) int {
	for i, v := range s {
		if v == x {
			return i
		}
	}
	return -1
}
