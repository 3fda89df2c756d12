package harness

import (
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/tunelab/tunelab/kernels/dispatch"
)

// This file isolates what the harness needs from kernels/dispatch (feature
// checks with masks, CPU identity) so that it can switch to dispatch's
// identity API in one place.

// hostHas reports whether the host (with TUNELAB_CPU masks) has feature f.
func hostHas(f string) bool { return dispatch.Has(f) }

// An Identity describes the host for result file config lines.
type Identity struct {
	CPU, Vendor, Uarch, DispatchKey, FeatureLevel string
	Family, Model, Stepping                       int
	Features                                      []string
}

// HostIdentity returns the identity of the host the harness runs on.
func HostIdentity() Identity {
	c := dispatch.Host()
	return Identity{CPU: strings.TrimSpace(c.Brand), Vendor: c.Vendor, Family: c.Family, Model: c.Model,
		Stepping: c.Stepping, Uarch: c.Uarch(), DispatchKey: c.Key(), FeatureLevel: c.Level(), Features: c.FeatureList()}
}

// Version returns the tunelab version and VCS commit, as far as the build
// recorded them.
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	v := bi.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += "+" + s.Value[:12]
		}
		if s.Key == "vcs.modified" && s.Value == "true" {
			v += "-dirty"
		}
	}
	return v
}

// hostName returns the host name for default result file names.
func hostName() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return runtime.GOOS
	}
	return h
}
