package leaks

// Available reports whether the fixtures are built: they are assembly,
// generated for amd64 and left out of purego builds.
func Available() bool { return available }

// TableSize is the size of LookupTable's table: a page per byte value.
const TableSize = 1 << 20

// LookupTable returns the XOR of table[key[i]·4096] over the 16 key
// bytes: a table lookup indexed by a secret byte.
func LookupTable(key *[16]byte, table *[TableSize]byte) uint64 { return lookupTableFn(key, table) }

// EarlyExit returns 1 if a == b, else 0, returning at the first differing
// byte.
func EarlyExit(a, b *[256]byte) uint64 { return earlyExitFn(a, b) }

// SecretDivide returns the sum of the dependent chain of divisions
// q_i = (x[i] XOR sum) / d[i]: divisions by secret divisors.
func SecretDivide(x, d *[8]uint64) uint64 { return secretDivideFn(x, d) }

// CTCompare returns 1 if a == b, else 0, in constant time: the control.
func CTCompare(a, b *[256]byte) uint64 { return ctCompareFn(a, b) }
