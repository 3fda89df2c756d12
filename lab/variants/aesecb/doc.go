// Package aesecb holds the generated variants of kernels/aesecb that
// production does not link: every one its compiled dispatch table names in
// no entry or default. The generators (variants/aesecb) print those
// functions here and the others into kernels/aesecb, and write here the
// lab tables, which this package's init offers to kernels/variant
// (variant.OfferLab) for the family's RegisterVariants.
//
// Import it (blank) in every binary that calls the family's
// RegisterVariants: lab/all does, and the family's own tests.
package aesecb
