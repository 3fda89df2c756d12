// Package labinit tells kernels/dispatch that this binary is a lab
// binary (the tunelab command, its workers, the tests), before any
// kernel family plans its dispatch: lab/all imports it.
//
// A lab binary's families plan twice: at their own init with the
// production variants, then once lab/all registered the lab
// variants. An override (TUNELAB_DISPATCH) naming a lab variant is
// unknown to the first plan and applied by the second, so Plan holds
// override warnings until lab/all releases them (see
// dispatch.HoldOverrideWarnings): no "ignored" warning for an override
// that applies.
//
// Go initializes, of the packages whose imports are initialized, the one
// first in import-path order. This package imports only kernels/dispatch,
// which every family imports too, and its path (internal/ before
// kernels/) sorts before every family's: it is initialized before any
// family, whichever packages the binary links. That is also why it is a
// library under internal/ rather than under lab/ ("lab/" sorts after
// "kernels/").
package labinit

import "github.com/tunelab/tunelab/kernels/dispatch"

func init() { dispatch.HoldOverrideWarnings() }
