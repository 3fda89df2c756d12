// Package variants links every package under lab/variants: the generated
// variants that the families' production tables leave out (see
// variant.OfferLab). A lab binary that calls the families'
// RegisterVariants imports it (lab/all and lab/baselines do); each
// package under it imports only kernels/variant (and poly1305 also
// internal/poly1305core), so that the families' own tests can import
// theirs.
package variants

import (
	_ "github.com/tunelab/tunelab/lab/variants/aesecb"
	_ "github.com/tunelab/tunelab/lab/variants/keccak"
	_ "github.com/tunelab/tunelab/lab/variants/mldsa"
	_ "github.com/tunelab/tunelab/lab/variants/mlkem"
	_ "github.com/tunelab/tunelab/lab/variants/poly1305"
	_ "github.com/tunelab/tunelab/lab/variants/polypack"
	_ "github.com/tunelab/tunelab/lab/variants/polysample"
)
