//go:build !amd64 || purego

package keccak

import "github.com/tunelab/tunelab/kernels/variant"

// The production tables are empty without assembly: only the generic
// code runs.
var (
	prodImplsX1 []variant.Impl[func(*[25]uint64)]
	prodImplsX2 []variant.Impl[func(*[2][25]uint64)]
	prodImplsX4 []variant.Impl[func(*[4][25]uint64)]
	prodImplsX8 []variant.Impl[func(*[8][25]uint64)]
)

// prodTables is empty without assembly: only the generic code runs.
func prodTables() tables { return tables{} }

// labTables is empty without assembly: RegisterVariants registers nothing.
func labTables() tables { return tables{} }

// prodAbsorbImpls is empty without assembly: AbsorbBlocks runs Go code.
func prodAbsorbImpls() []variant.Impl[absorbFunc] { return nil }

// labAbsorbImpls is empty without assembly.
func labAbsorbImpls() []variant.Impl[absorbFunc] { return nil }
