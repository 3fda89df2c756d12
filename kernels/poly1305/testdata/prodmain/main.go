// Command prodmain is a production program that calls only poly1305.Sum
// and the streaming MAC; the package's tests build it and check which
// variants it links.
package main

import "github.com/tunelab/tunelab/kernels/poly1305"

func main() {
	var key [32]byte
	key[0] = 1
	m := make([]byte, 5000)
	var tag [poly1305.TagSize]byte
	poly1305.Sum(&tag, m, &key)
	mac := poly1305.New(&key)
	mac.Write(m)
	println(tag[0], mac.Sum(nil)[0])
}
