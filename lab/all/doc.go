// Package all registers every kernel family's generated variants (and the
// external reference implementations they are compared against) in
// kernels/variant: the lab's view of the tree. The harness, the CLI and
// the lab tools import it; production code imports the family packages it
// uses instead, and then links only the variants their dispatch tables
// can select.
//
// zfamilies.go is generated: every package under kernels/ that declares
// func RegisterVariants() is imported and its RegisterVariants called, so
// that a family need not be listed in it; the closure tests derive the
// public families the same way (closure_test.go's publicFamilies).
package all

//go:generate go run ../../variants/all -dirs ../../kernels,.. -out zfamilies.go -labvariants ../variants
