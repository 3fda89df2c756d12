package cpu

import (
	"fmt"
	"runtime"

	"github.com/klauspost/cpuid/v2"
)

// A CPU is the identity of a processor as tunelab sees it: what result
// files record and what kernels/dispatch selects by.
type CPU struct {
	// Arch is the GOARCH the identity was taken on ("amd64").
	Arch string
	// Vendor is the CPUID vendor string, e.g. "AuthenticAMD".
	Vendor string
	// Family, Model and Stepping are decoded by DecodeSignature.
	Family, Model, Stepping int
	// Signature is EAX of CPUID leaf 1, 0 when not read.
	Signature uint32
	// Brand is the processor brand string.
	Brand string
	// LogicalCores, PhysicalCores and ThreadsPerCore as cpuid/v2 reports
	// them; 0 when unknown.
	LogicalCores, PhysicalCores, ThreadsPerCore int
	// Cache holds cache sizes in bytes.
	Cache Cache
	// Hypervisor is the hypervisor vendor string, "" on bare metal.
	Hypervisor string

	have FeatureSet // features the hardware reports
	mask FeatureSet // features hidden by masks
}

// Cache holds cache sizes in bytes (per core or shared, as CPUID reports
// them); -1 means unknown.
type Cache struct {
	L1I, L1D, L2, L3 int
}

// Identify reads the identity of the CPU this process runs on and applies
// mask, a feature mask in TUNELAB_CPU syntax ("" for none). It returns the
// CPU and a warning for every mask entry it ignored.
func Identify(mask string) (*CPU, []string) {
	c := &CPU{
		Arch:           runtime.GOARCH,
		Vendor:         cpuid.CPU.VendorString,
		Family:         cpuid.CPU.Family,
		Model:          cpuid.CPU.Model,
		Stepping:       cpuid.CPU.Stepping,
		Brand:          cpuid.CPU.BrandName,
		LogicalCores:   cpuid.CPU.LogicalCores,
		PhysicalCores:  cpuid.CPU.PhysicalCores,
		ThreadsPerCore: cpuid.CPU.ThreadsPerCore,
		Cache: Cache{cpuid.CPU.Cache.L1I, cpuid.CPU.Cache.L1D,
			cpuid.CPU.Cache.L2, cpuid.CPU.Cache.L3},
		have: hostFeatures(),
	}
	if sig, ok := rawSignature(); ok {
		c.Signature = sig
		c.Family, c.Model, c.Stepping = DecodeSignature(c.Vendor, sig)
	}
	if cpuid.CPU.Supports(cpuid.HYPERVISOR) {
		c.Hypervisor = cpuid.CPU.HypervisorVendorString
	}
	return c, c.Mask(mask)
}

// SetFeatures sets the features the hardware reports, replacing any
// previous set and clearing masks; for synthetic CPUs in tests and
// previews. Unknown names are an error and leave c unchanged.
func (c *CPU) SetFeatures(names ...string) error {
	s, ok := SetOf(names...)
	if !ok {
		for _, n := range names {
			if _, known := featureIndex[n]; !known {
				return fmt.Errorf("setting features of synthetic cpu: unknown feature %q", n)
			}
		}
	}
	c.have, c.mask = s, 0
	return nil
}

// Mask hides features as described by spec (TUNELAB_CPU syntax, see the
// package comment), in addition to masks already applied. It returns a
// warning for every entry it ignored.
func (c *CPU) Mask(spec string) []string {
	m, warnings := parseMask(spec)
	c.mask |= m
	return warnings
}

// Features returns the usable feature set (masks applied).
func (c *CPU) Features() FeatureSet { return c.have &^ c.mask }

// Has reports whether c has every named feature, masks applied. Unknown
// names are never present.
func (c *CPU) Has(features ...string) bool {
	s, ok := SetOf(features...)
	return ok && c.Features()&s == s
}

// Missing lists the named features c lacks (or has masked), in the order
// given, unknown names included.
func (c *CPU) Missing(features ...string) []string {
	var out []string
	for _, f := range features {
		if !c.Has(f) {
			out = append(out, f)
		}
	}
	return out
}

// FeatureList lists c's usable features (masks applied) in canonical
// order: the level features and the kernel-relevant ones of the package
// comment.
func (c *CPU) FeatureList() []string { return c.Features().Names() }

// MaskedList lists the features the hardware has but masks hide (a
// masked feature hides every feature that requires it).
func (c *CPU) MaskedList() []string { return (c.have & c.mask).Names() }

// Level returns the x86-64 feature level with masks applied
// ("x86-64-v4"), or "" when Arch is not amd64.
func (c *CPU) Level() string {
	if c.Arch != "amd64" {
		return ""
	}
	return levelOf(c.Features())
}

// Extras lists the kernel-relevant features c has beyond its level.
func (c *CPU) Extras() []string { return extrasOf(c.Features(), c.Level()) }

// Key returns the dispatch key "vendor/0xFF/0xMM" that tables are keyed by.
func (c *CPU) Key() string { return DispatchKey(c.Vendor, c.Family, c.Model) }

// Uarch returns the microarchitecture name (see Microarch).
func (c *CPU) Uarch() string {
	name, _ := Microarch(c.Vendor, c.Family, c.Model, c.Stepping)
	return name
}

// Codename returns the model's code name ("Genoa"), "" if not known.
func (c *CPU) Codename() string {
	_, code := Microarch(c.Vendor, c.Family, c.Model, c.Stepping)
	return code
}

// DispatchKey formats the key of a CPU model, e.g. "AuthenticAMD/0x19/0x11".
func DispatchKey(vendor string, family, model int) string {
	return fmt.Sprintf("%s/0x%02x/0x%02x", vendor, family, model)
}
