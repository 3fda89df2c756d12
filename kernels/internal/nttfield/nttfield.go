// Package nttfield holds what the NTT kernel families (kernels/mlkem and
// kernels/mldsa) share: the verification of their kernels on the
// polynomial inputs of internal/polyvec (which the families' other
// kernels and the lab's tests use too), and a field's Set of three
// kernelset slots (NTT, InvNTT, MulNTT). Production registers and chooses
// among a family's production table (the variants the compiled dispatch
// table can select, NewSet); the lab adds the rest of the lab table and
// chooses again among all (RegisterLab).
//
// A polynomial is a *[256]E with E int16 (ML-KEM, q = 3329) or int32
// (ML-DSA, q = 8380417). Every variant's contract is the same: inputs
// canonical in [0, q), outputs canonical in [0, q) in the standard's
// coefficient order.
package nttfield
