//go:build !purego

package leaks

const available = true

var (
	lookupTableFn  = lookupTable
	earlyExitFn    = earlyExit
	secretDivideFn = secretDivide
	ctCompareFn    = ctCompare
)
