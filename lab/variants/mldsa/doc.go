// Package mldsa holds the generated variants of kernels/mldsa that
// production does not link: every one its compiled dispatch table names in
// no entry or default. The generators (variants/ntt (mldsa_amd64.s),
// variants/matvec (matvec_amd64.s) and variants/round (round_amd64.s))
// print those functions here and the others into kernels/mldsa, and write
// here the lab tables, which this package's init offers to kernels/variant
// (variant.OfferLab) for the family's RegisterVariants.
//
// Import it (blank) in every binary that calls the family's
// RegisterVariants: lab/all does, and the family's own tests.
package mldsa
