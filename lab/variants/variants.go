// Package variants links every package under lab/variants: the generated
// variants that the families' production tables leave out (see
// variant.OfferLab). Its imports (zimports.go) are generated with lab/all's
// zfamilies.go (variants/all), one per directory here. A lab binary that
// calls the families' RegisterVariants imports it (lab/all and
// lab/baselines do); each package under it imports only kernels/variant
// (and poly1305 also internal/poly1305core), so that the families' own
// tests can import theirs.
package variants
