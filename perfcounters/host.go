package perfcounters

import "github.com/tunelab/tunelab/kernels/dispatch"

// HostUarch returns the host's microarchitecture name as kernels/dispatch
// identifies it ("Zen 4", "Sapphire Rapids", ...); named front-end events
// are resolved for it.
func HostUarch() string {
	return dispatch.Host().Uarch()
}
