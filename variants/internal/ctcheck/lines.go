package ctcheck

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/mmcloughlin/avo/ir"
)

// An Asm is a generated .s file indexed by TEXT block.
type Asm struct {
	lines [][]byte
	text  map[string]int // function name -> 0-based line of its TEXT
}

// ParseAsm indexes the generated assembly src.
func ParseAsm(src []byte) *Asm {
	a := &Asm{lines: bytes.Split(src, []byte("\n")), text: map[string]int{}}
	for i, l := range a.lines {
		if rest, ok := bytes.CutPrefix(l, []byte("TEXT ·")); ok {
			if end := bytes.Index(rest, []byte("(SB)")); end > 0 {
				a.text[string(rest[:end])] = i
			}
		}
	}
	return a
}

// Lines returns the 1-based line of each of fn's instructions in the
// file. Instruction lines of a TEXT block are the tab-indented lines that
// are not comments; each must start with its instruction's opcode, so a
// file that does not match fn is an error, never a wrong line.
func (a *Asm) Lines(fn *ir.Function) ([]int, error) {
	start, ok := a.text[fn.Name]
	if !ok {
		return nil, fmt.Errorf("no TEXT block for %s in the generated assembly", fn.Name)
	}
	insts := fn.Instructions()
	out := make([]int, 0, len(insts))
	for n := start + 1; n < len(a.lines) && len(out) < len(insts); n++ {
		l := a.lines[n]
		if bytes.HasPrefix(l, []byte("TEXT ")) {
			break
		}
		if len(l) == 0 || l[0] != '\t' || bytes.HasPrefix(l, []byte("\t//")) {
			continue
		}
		fields := strings.Fields(string(l))
		want := insts[len(out)].OpcodeWithSuffixes()
		if len(fields) == 0 || fields[0] != want {
			return nil, fmt.Errorf("%s: line %d is %q, want instruction %d, %s", fn.Name, n+1, strings.TrimSpace(string(l)), len(out), want)
		}
		out = append(out, n+1)
	}
	if len(out) != len(insts) {
		return nil, fmt.Errorf("%s: %d instruction lines in the generated assembly, want %d", fn.Name, len(out), len(insts))
	}
	return out, nil
}
