package mldsa

import (
	"fmt"
	"testing"

	"github.com/tunelab/tunelab/internal/polyvec"
)

// faultyKernels makes the package's NTT, InvNTT and MulNTT return
// pseudo-random coefficients anywhere in the int32 range (the way a wrong
// assembly variant would), until the returned function restores them.
func faultyKernels() (restore func()) {
	r := polyvec.NewRand(0xbad)
	garble := func(p *polyvec.Poly[int32]) {
		for i := range p {
			p[i] = int32(r.Uint64())
		}
	}
	undo := []func(){kernels.NTT.Swap(garble), kernels.InvNTT.Swap(garble),
		kernels.MulNTT.Swap(func(h, _, _ *polyvec.Poly[int32]) { garble(h) })}
	return func() {
		for _, u := range undo {
			u()
		}
	}
}

// noPanic runs f and reports a panic as an error naming what ran.
func noPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s panicked with a faulty NTT: %v", what, r)
		}
	}()
	f()
}

// TestFaultyKernelsNeverPanic checks that a wrong NTT kernel (as the
// AVX-512 regression of e5bbc2d produced) makes the public functions
// return wrong keys, errors or false, never a panic: key generation,
// signing, and verification of valid, random and malformed signatures.
func TestFaultyKernelsNeverPanic(t *testing.T) {
	msg := []byte("faulty kernels")
	for _, set := range testSets {
		seed := newTestRand("faulty " + set.name).bytes(SeedSize)
		good := mustKey(t, set, seed)
		sig, err := good.signDet(msg, nil)
		if err != nil {
			t.Fatalf("%s: signing with the dispatched kernels: %v", set.name, err)
		}
		restore := faultyKernels()
		noPanic(t, set.name+" key generation", func() { _, _ = set.newKey(seed) })
		noPanic(t, set.name+" signing", func() { _, _ = good.signDet(msg, nil) })
		noPanic(t, set.name+" verifying a valid signature", func() { good.verify(msg, nil, sig) })
		rnd := newTestRand("faulty sigs " + set.name)
		for i := range 8 {
			noPanic(t, fmt.Sprintf("%s verifying random signature %d", set.name, i), func() { good.verify(msg, nil, rnd.bytes(set.p.sigSize)) })
		}
		for name, edit := range malformations(set.p, sig) {
			bad := append([]byte(nil), sig...)
			edit(bad)
			noPanic(t, set.name+" verifying a signature with "+name, func() { good.verify(msg, nil, bad) })
		}
		restore()
	}
}
