// Command kemprod runs one ML-KEM-768 key generation, encapsulation and
// decapsulation through kernels/mlkem and nothing else: the production
// program TestKEMProductionLinksOnlyTable inspects.
package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/tunelab/tunelab/kernels/mlkem"
)

func main() {
	dk, err := mlkem.GenerateKey768()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	key, c := dk.EncapsulationKey().Encapsulate()
	got, err := dk.Decapsulate(c)
	if err != nil || !bytes.Equal(got, key) {
		fmt.Fprintln(os.Stderr, "kemprod: decapsulation failed:", err)
		os.Exit(1)
	}
}
