package perfcounters

import "github.com/tunelab/tunelab/kernels/cpu"

// HostUarch returns the host's microarchitecture name as kernels/cpu
// identifies it ("Zen 4", "Sapphire Rapids", ...); named front-end events
// are resolved for it.
func HostUarch() string {
	return cpu.Host().Uarch()
}
