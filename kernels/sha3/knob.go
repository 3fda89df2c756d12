package sha3

import (
	"strconv"

	"github.com/tunelab/tunelab/internal/compose"
)

// WaysKnob returns the "ways" knob of whole-operation compositions: the
// number of streams SHAKE128Many and SHAKE256Many hash at a time, NR = 1,
// 2, 4 or 8 (each on keccak's dispatched permutation of that width), with
// the generic code (one stream after another) as the reference. No choice
// requires a CPU feature: each runs keccak's dispatched permutations.
func WaysKnob() compose.Knob {
	use := func(nr int) func() (func(), error) { return func() (func(), error) { return UseWays(nr) } }
	kn := compose.Knob{Key: "ways", Generic: compose.Choice{Value: "generic", Use: use(0)}}
	for _, nr := range widths {
		kn.Choices = append(kn.Choices, compose.Choice{Value: strconv.Itoa(nr), Use: use(nr)})
	}
	return kn
}
