//go:build amd64

package asmmap_test

import (
	"testing"

	"github.com/tunelab/tunelab/internal/asmalign"
	"github.com/tunelab/tunelab/internal/asmmap"
	"github.com/tunelab/tunelab/lab/looptest"
)

func TestLocateAchievesRequestedPlacement(t *testing.T) {
	for _, c := range looptest.Cases {
		if got := c.Run(5); got != 5*8*3 {
			t.Fatalf("%s(5) = %d, want %d", c.Symbol, got, 5*8*3)
		}
		l, err := asmmap.Locate(c.Symbol, "loop")
		if err != nil {
			t.Fatalf("Locate(%s): %v", c.Symbol, err)
		}
		a, _ := asmalign.Parse(c.Align)
		if a.Boundary != 0 {
			if got := int(l.Head % uint64(a.Boundary)); got != a.Offset {
				t.Errorf("%s (align=%s): head %#x is at offset %d mod %d, want %d",
					c.Symbol, c.Align, l.Head, got, a.Boundary, a.Offset)
			}
		}
		// Body: 8 x ADDQ $3 (4 bytes) + DECQ (3) + JNZ rel8 (2) = 37 bytes.
		if l.Size() != 37 {
			t.Errorf("%s: loop body %d bytes (head %#x, back-edge %#x, end %#x), want 37",
				c.Symbol, l.Size(), l.Head, l.BackEdge, l.BodyEnd)
		}
		if l.Head < l.Entry || l.BodyEnd > l.End {
			t.Errorf("%s: loop [%#x,%#x) outside function [%#x,%#x)", c.Symbol, l.Head, l.BodyEnd, l.Entry, l.End)
		}
		wantCross := int((l.Head+36)/64 - l.Head/64)
		if l.LinesCrossed() != wantCross {
			t.Errorf("%s: LinesCrossed = %d, want %d", c.Symbol, l.LinesCrossed(), wantCross)
		}
	}
}

func TestLocateErrors(t *testing.T) {
	if _, err := asmmap.Locate("no/such.func", "loop"); err == nil {
		t.Error("Locate of a missing function succeeded")
	}
	sym := looptest.Cases[0].Symbol
	if _, err := asmmap.Locate(sym, "nolabel"); err == nil {
		t.Errorf("Locate(%s, nolabel) succeeded", sym)
	}
}

func TestLocateStraightLineBlock(t *testing.T) {
	c := looptest.Straight
	if got := c.Run(1); got != 1+8*3 {
		t.Fatalf("%s(1) = %d, want %d", c.Symbol, got, 1+8*3)
	}
	l, err := asmmap.Locate(c.Symbol, "body")
	if err != nil {
		t.Fatalf("Locate(%s, body): %v", c.Symbol, err)
	}
	if !l.Straight {
		t.Errorf("%s: block without a jump back not marked Straight", c.Symbol)
	}
	if l.Offset() != 12 {
		t.Errorf("%s: head %#x at offset %d, want 12", c.Symbol, l.Head, l.Offset())
	}
	// 8 ADDQ + MOVQ to the result + RET.
	if l.SourceInstrs != 10 || l.BodyEnd > l.End {
		t.Errorf("%s: %d instructions to %#x (function ends %#x), want 10 through RET", c.Symbol, l.SourceInstrs, l.BodyEnd, l.End)
	}
}

func TestLocateWholeFunction(t *testing.T) {
	c := looptest.Cases[0] // align=none: no padding between entry and RET
	l, err := asmmap.Locate(c.Symbol, "")
	if err != nil {
		t.Fatalf("Locate(%s, \"\"): %v", c.Symbol, err)
	}
	if !l.Straight || l.Head != l.Entry {
		t.Errorf("%s: whole function: Straight %v, head %#x, entry %#x", c.Symbol, l.Straight, l.Head, l.Entry)
	}
	// MOVQ, XORQ, 8 ADDQ, DECQ, JNZ, MOVQ, RET: the loop's jump does not end it.
	if l.SourceInstrs != 14 || l.BodyEnd > l.End || l.BodyEnd <= l.Head {
		t.Errorf("%s: %d instructions [%#x, %#x) (function [%#x, %#x)), want 14 through RET",
			c.Symbol, l.SourceInstrs, l.Head, l.BodyEnd, l.Entry, l.End)
	}
}

// TestCodeSizeLeavesOutPadding: a function's code size ends at its last
// instruction (its RET), before the INT3 padding to the next function,
// and is within its [entry, end) range.
func TestCodeSizeLeavesOutPadding(t *testing.T) {
	padded := 0
	for _, c := range looptest.Cases {
		n, err := asmmap.CodeSize(c.Symbol)
		if err != nil {
			t.Fatalf("CodeSize(%s): %v", c.Symbol, err)
		}
		entry, end, _ := asmmap.Func(c.Symbol)
		if n <= 0 || uint64(n) > end-entry {
			t.Errorf("%s: code size %d outside (0, %d]", c.Symbol, n, end-entry)
		}
		if uint64(n) < end-entry {
			padded++
		}
	}
	if padded == 0 {
		t.Errorf("no function of %d has padding left out: CodeSize is end - entry", len(looptest.Cases))
	}
	if _, err := asmmap.CodeSize("no.such.function"); err == nil {
		t.Error("CodeSize of a missing function: no error")
	}
}
