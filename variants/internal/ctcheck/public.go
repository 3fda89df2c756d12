package ctcheck

import (
	"fmt"
	"strings"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	"github.com/tunelab/tunelab/variants/internal/avogen"
)

// publicPrefix starts the comment that declassifies the next instruction.
const publicPrefix = "ctcheck: public: "

// Public declassifies the outputs (registers, flags, memory) of the next
// instruction the generator emits into the current function of avo's
// global context: the analysis takes them as public whatever they were
// computed from. why must say why the value reveals nothing of the
// secrets, e.g. which candidates a rejection sampler rejects, which is
// independent of the accepted values. The reason is written as a comment
// above the instruction in the generated assembly, and the status file
// lists every declassified instruction with it (tunelab ct shows them), so
// that the gate passes no declassification unseen. Findings at the
// instruction itself (its own addresses) are still reported.
//
// Use it for what the algorithm reveals by design only, never to silence
// a finding on a secret value.
func Public(why string) { build.Comment(PublicComment(why)) }

// PublicComment is the comment line Public adds, for a generator or test
// that builds in its own avo context.
func PublicComment(why string) string { return publicPrefix + why }

// A Declassified is one instruction whose outputs a Public comment made
// public.
type Declassified struct {
	Index int    // in the function's instruction list
	Instr string // as the generated .s has it
	Why   string
	Line  int // line in the generated .s; 0 if unknown
}

// Declassifications returns the instructions of fn that Public comments
// declassify, in order. A Public comment with no reason, or not followed
// directly by an instruction, is an error.
func Declassifications(fn *ir.Function) ([]Declassified, error) {
	var out []Declassified
	pending := ""
	i := 0
	for _, node := range fn.Nodes {
		switch node := node.(type) {
		case *ir.Comment:
			for _, l := range node.Lines {
				why, ok := strings.CutPrefix(l, publicPrefix)
				if !ok {
					continue
				}
				if strings.TrimSpace(why) == "" {
					return nil, fmt.Errorf("function %s: a declassification (ctcheck.Public) without a reason", fn.Name)
				}
				if pending != "" {
					return nil, fmt.Errorf("function %s: two declassifications (ctcheck.Public) before one instruction", fn.Name)
				}
				pending = why
			}
		case ir.Label:
			if pending != "" {
				return nil, fmt.Errorf("function %s: declassification (ctcheck.Public) %q followed by label %s, not an instruction", fn.Name, pending, node)
			}
		case *ir.Instruction:
			if pending != "" {
				out = append(out, Declassified{Index: i, Instr: avogen.Asm(node), Why: pending})
				pending = ""
			}
			i++
		}
	}
	if pending != "" {
		return nil, fmt.Errorf("function %s: declassification (ctcheck.Public) %q at the end, not before an instruction", fn.Name, pending)
	}
	return out, nil
}
