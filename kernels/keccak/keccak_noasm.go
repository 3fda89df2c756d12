//go:build !amd64 || purego

package keccak

// prodTables is empty without assembly: only the generic code runs.
func prodTables() tables { return tables{} }

// labTables is empty without assembly: RegisterVariants registers nothing.
func labTables() tables { return tables{} }

// prodAbsorbImpls is empty without assembly: AbsorbBlocks runs Go code.
func prodAbsorbImpls() []*absorber { return nil }

// labAbsorbImpls is empty without assembly.
func labAbsorbImpls() []*absorber { return nil }
