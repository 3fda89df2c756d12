//go:build !purego

package keccak

//go:generate go run ../../variants/keccak -out keccak_amd64.s -stubs zstubs_amd64.go -pkg keccak -table zvariants_amd64.go -prod zprod_amd64.go -ct ../../lab/ct/zstatic_keccak.go

// prodImpls returns, per nr, the production table (zprod_amd64.go): the
// generated variants the compiled dispatch table can select.
func prodImpls() map[int][]*impl {
	return map[int][]*impl{
		1: erase(1, prodImplsX1), 2: erase(2, prodImplsX2),
		4: erase(4, prodImplsX4), 8: erase(8, prodImplsX8),
	}
}

// labImpls returns, per nr, the lab table (zvariants_amd64.go): every
// generated variant. Only RegisterVariants calls it, so only the lab
// links them all.
func labImpls() map[int][]*impl {
	return map[int][]*impl{
		1: erase(1, implsX1()), 2: erase(2, implsX2()),
		4: erase(4, implsX4()), 8: erase(8, implsX8()),
	}
}

// prodAbsorbImpls returns the production absorb variants
// (zprod_amd64.go): those the compiled dispatch table names for sha3.256,
// then those named like a keccak.x1 choice, each once.
func prodAbsorbImpls() []*absorber { return absorbersOf(prodAbsorbs, prodAbsorbsX1) }

// labAbsorbImpls returns every generated absorb variant
// (zvariants_amd64.go).
func labAbsorbImpls() []*absorber { return absorbersOf(absorbs()) }
