package poly1305

import "github.com/tunelab/tunelab/internal/poly1305core"

// A state is the accumulator and key of one message; its generic
// arithmetic (Init, Finish, BlocksGeneric) is in internal/poly1305core,
// which the lab's generated variants share.
type state = poly1305core.State

// sumGeneric is the generic reference: the whole MAC in Go.
func sumGeneric(out *[16]byte, m []byte, key *[32]byte) {
	var st state
	st.Init(key)
	full := len(m) &^ 15
	poly1305core.BlocksGeneric(&st.H, &st.R, m[:full], 1)
	st.Finish(out, m[full:])
}
