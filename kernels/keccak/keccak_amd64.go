//go:build !purego

package keccak

import "github.com/tunelab/tunelab/kernels/variant"

//go:generate go run ../../variants/keccak -out keccak_amd64.s -stubs zstubs_amd64.go -pkg keccak -table zvariants_amd64.go -prod zprod_amd64.go -lab ../../lab/variants/keccak -ct ../../lab/ct/zstatic_keccak.go

// prodTables returns the production tables (zprod_amd64.go): the
// generated variants the compiled dispatch table can select.
func prodTables() tables { return tables{prodImplsX1, prodImplsX2, prodImplsX4, prodImplsX8} }

// labTables returns the lab tables (zvariants_amd64.go): every generated
// variant. Only RegisterVariants calls it, so only the lab links them
// all.
func labTables() tables { return tables{implsX1(), implsX2(), implsX4(), implsX8()} }

// prodAbsorbImpls returns the production absorb variants
// (zprod_amd64.go): those the compiled dispatch table names for sha3.256,
// then those named like a keccak.x1 choice, each once.
func prodAbsorbImpls() []variant.Impl[absorbFunc] { return mergeTables(prodAbsorbs, prodAbsorbsX1) }

// labAbsorbImpls returns every generated absorb variant
// (zvariants_amd64.go).
func labAbsorbImpls() []variant.Impl[absorbFunc] { return mergeTables(absorbs()) }
