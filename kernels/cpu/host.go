package cpu

import (
	"fmt"
	"io"
	"os"
	"sync"
)

// EnvCPU is the environment variable whose feature mask Host applies
// (see the package comment).
const EnvCPU = "TUNELAB_CPU"

var (
	hostOnce sync.Once
	hostCPU  *CPU

	// warnOut receives the warnings about ignored TUNELAB_CPU entries (a
	// variable for tests).
	warnOut io.Writer = os.Stderr
)

// host identifies the host and applies the TUNELAB_CPU mask once; a
// warning about each ignored entry goes to stderr, once.
func host() *CPU {
	hostOnce.Do(func() {
		var warnings []string
		hostCPU, warnings = Identify(os.Getenv(EnvCPU))
		seen := map[string]bool{}
		for _, w := range warnings {
			if !seen[w] {
				seen[w] = true
				fmt.Fprintf(warnOut, "cpu: %s\n", w)
			}
		}
	})
	return hostCPU
}

// Host returns a copy of the identity of the CPU this process runs on, with
// the TUNELAB_CPU mask applied.
func Host() *CPU {
	c := *host()
	return &c
}

// Has reports whether the host has every named feature, masks applied.
// Unknown names are never present.
func Has(features ...string) bool { return host().Has(features...) }
