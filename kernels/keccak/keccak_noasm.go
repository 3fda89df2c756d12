//go:build !amd64 || purego

package keccak

// prodImpls is empty without assembly: only the generic code runs.
func prodImpls() map[int][]*impl { return nil }

// labImpls is empty without assembly: RegisterVariants registers nothing.
func labImpls() map[int][]*impl { return nil }

// prodAbsorbImpls is empty without assembly: AbsorbBlocks runs Go code.
func prodAbsorbImpls() []*absorber { return nil }

// labAbsorbImpls is empty without assembly.
func labAbsorbImpls() []*absorber { return nil }
