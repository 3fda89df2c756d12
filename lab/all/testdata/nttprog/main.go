// Command nttprog calls only mldsa.NTT: lab/all's TestNTTProgramLinks
// counts the generated functions it links.
package main

import (
	"fmt"

	"github.com/tunelab/tunelab/kernels/mldsa"
)

func main() {
	var f [256]int32
	f[1] = 1
	mldsa.NTT(&f)
	fmt.Println(f[0])
}
