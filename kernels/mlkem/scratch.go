package mlkem

// The temporaries of the operations live on the stack of each operation:
// nothing is allocated per operation but the key a key generation or
// parse returns. The kernels are called through the noescape wrappers of
// poly.go, so polynomials passed to them stay where they are.

// A matrixScratch holds the SHAKE128 streams of Â being sampled: the
// seeds ρ || j || i, the index of the first stream in its batch, the
// index in Â of that stream's polynomial and the number of coefficients
// sampled from each.
type matrixScratch struct {
	in        [maxK * maxK][34]byte
	count     [maxK * maxK]int
	first, x0 int
}

// A noiseScratch holds the PRF outputs of the noise polynomials and the
// polynomials of K-PKE.KeyGen and K-PKE.Encrypt: s, e (key generation);
// y, e1, e2 (encryption). All of it is secret; wipe clears it.
type noiseScratch struct {
	noise    [2*maxK + 1]poly
	acc, tmp poly
	cache    [maxK]mulCache // of ŝ or ŷ, see matvec.go
	prf      [2*maxK + 1][prfMax]byte
	prfIn    [2*maxK + 1][33]byte // seed || N
}

// wipe clears sc.
func (sc *noiseScratch) wipe() { *sc = noiseScratch{} }
