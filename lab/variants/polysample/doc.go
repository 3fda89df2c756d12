// Package polysample holds the generated variants of
// kernels/internal/polysample that production does not link: every one its
// compiled dispatch table names in no entry or default. The generators
// (variants/cbd (cbd_amd64.s) and variants/sample (sample_amd64.s)) print
// those functions here and the others into kernels/internal/polysample,
// and write here the lab tables, which this package's init offers to
// kernels/variant (variant.OfferLab) for the family's RegisterVariants.
//
// Import it (blank) in every binary that calls the family's
// RegisterVariants: lab/all does, and the family's own tests.
package polysample
