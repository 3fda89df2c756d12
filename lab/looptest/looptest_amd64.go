//go:build amd64

package looptest

// A Case is one generated loop and the placement it was generated with.
type Case struct {
	Align  string // asmalign knob value
	Symbol string // the function's name in the binary
	Run    func(n uint64) uint64
}

const pkg = "github.com/tunelab/tunelab/lab/looptest."

// Cases lists every generated loop; referencing the functions keeps the
// linker from dropping them.
var Cases = []Case{
	{"none", pkg + "loop_none", loop_none},
	{"16", pkg + "loop_16", loop_16},
	{"32", pkg + "loop_32", loop_32},
	{"64", pkg + "loop_64", loop_64},
	{"64+7", pkg + "loop_64_7", loop_64_7},
	{"64+36", pkg + "loop_64_36", loop_64_36},
	{"64+60", pkg + "loop_64_60", loop_64_60},
}

// Straight is a straight-line block labelled "body" at align=64+12.
var Straight = Case{"64+12", pkg + "block_64_12", block_64_12}
