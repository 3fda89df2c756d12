//go:build !amd64 || purego

package keccak

import "github.com/tunelab/tunelab/kernels/variant"

// prodTables is empty without assembly: only the generic code runs.
func prodTables() tables { return tables{} }

// labTables is empty without assembly: RegisterVariants registers nothing.
func labTables() tables { return tables{} }

// prodAbsorbImpls is empty without assembly: AbsorbBlocks runs Go code.
func prodAbsorbImpls() []variant.Impl[absorbFunc] { return nil }

// labAbsorbImpls is empty without assembly.
func labAbsorbImpls() []variant.Impl[absorbFunc] { return nil }
