package perfcounters

// rdtsc returns the time-stamp counter (RDTSC; not serializing).
//
//go:noescape
func rdtsc() uint64

// rdtscp returns the time-stamp counter after all earlier instructions have
// executed, and IA32_TSC_AUX (Linux: the CPU number in bits 0-11, the NUMA
// node above).
//
//go:noescape
func rdtscp() (tsc uint64, aux uint32)

// lfenceRDTSC returns the time-stamp counter after LFENCE: ordered like
// RDTSCP, for CPUs without it. aux is always 0.
//
//go:noescape
func lfenceRDTSC() (tsc uint64, aux uint32)

// cpuid executes CPUID for leaf and subleaf.
//
//go:noescape
func cpuid(leaf, sub uint32) (a, b, c, d uint32)

// cpuidRDTSCP reports whether CPUID enumerates RDTSCP (leaf 0x80000001,
// EDX bit 27). Executing RDTSCP where it is absent raises #UD (SIGILL).
func cpuidRDTSCP() bool {
	if maxExt, _, _, _ := cpuid(0x80000000, 0); maxExt < 0x80000001 {
		return false
	}
	_, _, _, edx := cpuid(0x80000001, 0)
	return edx&(1<<27) != 0
}

// haveTSC reports whether RDTSC reads a hardware counter.
const haveTSC = true

// cpuidTSCHz returns the TSC frequency that CPUID enumerates: leaf 0x15
// (TSC/crystal ratio times crystal clock) or, without a crystal clock,
// leaf 0x16's base frequency; then the hypervisor timing leaf 0x40000010
// (KVM/VMware: TSC kHz). ok is false when CPUID says nothing.
func cpuidTSCHz() (hz float64, source string, ok bool) {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf >= 0x15 {
		den, num, crystal, _ := cpuid(0x15, 0)
		if den != 0 && num != 0 && crystal != 0 {
			return float64(crystal) * float64(num) / float64(den), "cpuid leaf 0x15 (crystal clock x TSC ratio)", true
		}
	}
	if maxLeaf >= 0x16 {
		if base, _, _, _ := cpuid(0x16, 0); base != 0 {
			return float64(base) * 1e6, "cpuid leaf 0x16 (base frequency)", true
		}
	}
	_, _, ecx, _ := cpuid(1, 0)
	if ecx&(1<<31) != 0 { // hypervisor present
		if maxHV, _, _, _ := cpuid(0x40000000, 0); maxHV >= 0x40000010 {
			if khz, _, _, _ := cpuid(0x40000010, 0); khz != 0 {
				return float64(khz) * 1e3, "cpuid hypervisor leaf 0x40000010 (TSC kHz)", true
			}
		}
	}
	return 0, "", false
}
