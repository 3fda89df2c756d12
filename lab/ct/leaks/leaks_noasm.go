//go:build !amd64 || purego

package leaks

const available = false

func unavailable() uint64 {
	panic("leaks: the assembly fixtures are not built (amd64 without purego only)")
}

func lookupTableFn(*[16]byte, *[TableSize]byte) uint64 { return unavailable() }
func earlyExitFn(a, b *[256]byte) uint64               { return unavailable() }
func secretDivideFn(x, d *[8]uint64) uint64            { return unavailable() }
func ctCompareFn(a, b *[256]byte) uint64               { return unavailable() }
