// Package poly1305 holds the generated variants of kernels/poly1305 that
// production does not link: every one its compiled dispatch table names in
// no entry or default. The generator (variants/poly1305) prints those
// functions here (with a copy of the scalar variant 0 that every vector
// variant runs on what its vector iterations leave) and the others into
// kernels/poly1305, and writes here the lab table, the lab switches and
// the wrappers running a MAC through them. This package's init offers
// the table to kernels/variant (variant.OfferLab) for the family's
// RegisterVariants and sets internal/poly1305core's Lab hooks, through
// which kernels/poly1305 runs these variants; both packages share the
// variant record and state of internal/poly1305core.
//
// Import it (blank) in every binary that calls the family's
// RegisterVariants: lab/all does, and the family's own tests.
package poly1305
