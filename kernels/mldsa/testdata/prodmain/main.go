// Command prodmain is a production program that calls only mldsa.NTT; the
// package's tests build it and check which variants it links.
package main

import "github.com/tunelab/tunelab/kernels/mldsa"

func main() {
	var f [256]int32
	f[1] = 1
	mldsa.NTT(&f)
	println(f[0])
}
