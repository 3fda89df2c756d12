package sha3

import (
	"github.com/tunelab/tunelab/kernels/internal/escape"
	"github.com/tunelab/tunelab/kernels/keccak"
)

// The keccak functions call the variant dispatch selected through a func
// value, so the compiler cannot see that they do not retain their
// arguments and moves every state and message passed to them to the heap:
// Sum256 on a stack state would allocate. They do not retain them (they
// permute or read in place and return), so the wrappers below hide the
// pointers from escape analysis (kernels/internal/escape), and the
// states of Sum*, SumSHAKE* and the many-stream functions stay on the
// stack. This file can go once kernels/keccak's functions no longer leak
// their arguments.

// permute is keccak.Permute on a state that may stay on the stack.
func permute(a *[25]uint64) { keccak.Permute(escape.Hide(a)) }

// absorbBlocks is keccak.AbsorbBlocks on a state and message that may
// stay on the stack.
func absorbBlocks(a *[25]uint64, data []byte, rate int) int {
	return keccak.AbsorbBlocks(escape.Hide(a), escape.HideBytes(data), rate)
}

// permuteStates permutes len(s) (1, 2, 4 or 8) states with keccak's
// dispatched permutation of that width.
func permuteStates(s [][25]uint64) {
	switch len(s) {
	case 1:
		keccak.Permute(escape.Hide(&s[0]))
	case 2:
		keccak.PermuteX2(escape.Hide((*[2][25]uint64)(s)))
	case 4:
		keccak.PermuteX4(escape.Hide((*[4][25]uint64)(s)))
	case 8:
		keccak.PermuteX8(escape.Hide((*[8][25]uint64)(s)))
	default:
		panic("sha3: internal error: permuting a group of states that is not 1, 2, 4 or 8 wide")
	}
}
