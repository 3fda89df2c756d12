package cpu

import "fmt"

// A uarchRow names the microarchitecture of the CPU models
// (vendor, family, model in [lo, hi], stepping in [stepLo, stepHi]).
// Rows are matched in order; specific rows precede range rows.
type uarchRow struct {
	vendor         string
	family         int
	lo, hi         int
	stepLo, stepHi int
	name, codename string
}

const anyStep = -1

// one is a row for a single model, any stepping.
func one(vendor string, family, model int, name, codename string) uarchRow {
	return uarchRow{vendor, family, model, model, anyStep, anyStep, name, codename}
}

// span is a row for models lo..hi, any stepping.
func span(vendor string, family, lo, hi int, name string) uarchRow {
	return uarchRow{vendor, family, lo, hi, anyStep, anyStep, name, ""}
}

// steps is a row for one model and steppings lo..hi.
func steps(vendor string, family, model, lo, hi int, name, codename string) uarchRow {
	return uarchRow{vendor, family, model, model, lo, hi, name, codename}
}

// uarchTable: Intel family 6 models from the Intel SDM (vol. 4, table 2-1)
// and Linux arch/x86/include/asm/intel-family.h; AMD family/model ranges
// from Linux arch/x86/kernel/cpu/amd.c (bsp_init_amd) and AMD's revision
// guides. Intel model 0x55 is split by stepping (Skylake-SP 0-4, Cascade
// Lake 5-7, Cooper Lake 10-11); they share one dispatch key. Names follow
// the core, not the product: Skylake-derived clients (Kaby, Coffee, Comet
// Lake) are "Skylake" with the product as code name, an E-core-only
// Alder Lake-N is "Gracemont". Other packages (mca, perfcounters) match
// a name exactly or by prefix, so server cores get names of their own
// ("Skylake-SP", "Ice Lake-SP"), never "Skylake (server)".
var uarchTable = []uarchRow{
	one(VendorIntel, 6, 0x2a, "Sandy Bridge", ""),
	one(VendorIntel, 6, 0x2d, "Sandy Bridge (server)", "Sandy Bridge-E/EP"),
	one(VendorIntel, 6, 0x3a, "Ivy Bridge", ""),
	one(VendorIntel, 6, 0x3e, "Ivy Bridge (server)", "Ivy Bridge-E/EP"),
	one(VendorIntel, 6, 0x3c, "Haswell", ""),
	one(VendorIntel, 6, 0x45, "Haswell", "Haswell-ULT"),
	one(VendorIntel, 6, 0x46, "Haswell", "Crystal Well"),
	one(VendorIntel, 6, 0x3f, "Haswell (server)", "Haswell-E/EP"),
	one(VendorIntel, 6, 0x3d, "Broadwell", ""),
	one(VendorIntel, 6, 0x47, "Broadwell", "Broadwell-H"),
	one(VendorIntel, 6, 0x4f, "Broadwell (server)", "Broadwell-E/EP"),
	one(VendorIntel, 6, 0x56, "Broadwell (server)", "Broadwell-DE"),
	one(VendorIntel, 6, 0x4e, "Skylake", "Skylake-U/Y"),
	one(VendorIntel, 6, 0x5e, "Skylake", "Skylake-S/H"),
	steps(VendorIntel, 6, 0x55, 0, 4, "Skylake-SP", ""),
	steps(VendorIntel, 6, 0x55, 5, 7, "Cascade Lake", ""),
	steps(VendorIntel, 6, 0x55, 10, 11, "Cooper Lake", ""),
	one(VendorIntel, 6, 0x8e, "Skylake", "Kaby/Amber/Whiskey/Comet Lake-U/Y"),
	one(VendorIntel, 6, 0x9e, "Skylake", "Kaby/Coffee Lake"),
	one(VendorIntel, 6, 0xa5, "Skylake", "Comet Lake"),
	one(VendorIntel, 6, 0xa6, "Skylake", "Comet Lake-U"),
	one(VendorIntel, 6, 0x7d, "Ice Lake", ""),
	one(VendorIntel, 6, 0x7e, "Ice Lake", "Ice Lake-U/Y"),
	one(VendorIntel, 6, 0x6a, "Ice Lake-SP", ""),
	one(VendorIntel, 6, 0x6c, "Ice Lake-SP", "Ice Lake-D"),
	one(VendorIntel, 6, 0x8c, "Tiger Lake", "Tiger Lake-U"),
	one(VendorIntel, 6, 0x8d, "Tiger Lake", "Tiger Lake-H"),
	one(VendorIntel, 6, 0xa7, "Rocket Lake", ""),
	one(VendorIntel, 6, 0x97, "Alder Lake", "Alder Lake-S"),
	one(VendorIntel, 6, 0x9a, "Alder Lake", "Alder Lake-P"),
	one(VendorIntel, 6, 0xbe, "Gracemont", "Alder Lake-N"),
	one(VendorIntel, 6, 0xb7, "Raptor Lake", "Raptor Lake-S"),
	one(VendorIntel, 6, 0xba, "Raptor Lake", "Raptor Lake-P"),
	one(VendorIntel, 6, 0xbf, "Raptor Lake", "Raptor Lake-S"),
	one(VendorIntel, 6, 0x8f, "Sapphire Rapids", ""),
	one(VendorIntel, 6, 0xcf, "Emerald Rapids", ""),
	one(VendorIntel, 6, 0xad, "Granite Rapids", "Granite Rapids-X"),
	one(VendorIntel, 6, 0xae, "Granite Rapids", "Granite Rapids-D"),
	one(VendorIntel, 6, 0xaf, "Sierra Forest", ""),
	one(VendorIntel, 6, 0xaa, "Meteor Lake", "Meteor Lake-U/H"),
	one(VendorIntel, 6, 0xac, "Meteor Lake", ""),
	one(VendorIntel, 6, 0xb5, "Arrow Lake", "Arrow Lake-U"),
	one(VendorIntel, 6, 0xc5, "Arrow Lake", "Arrow Lake-H"),
	one(VendorIntel, 6, 0xc6, "Arrow Lake", "Arrow Lake-S"),
	one(VendorIntel, 6, 0xbd, "Lunar Lake", ""),
	one(VendorIntel, 6, 0xcc, "Panther Lake", ""),

	one(VendorAMD, 0x17, 0x01, "Zen", "Naples/Summit Ridge"),
	one(VendorAMD, 0x17, 0x08, "Zen+", "Pinnacle Ridge"),
	one(VendorAMD, 0x17, 0x11, "Zen", "Raven Ridge"),
	one(VendorAMD, 0x17, 0x18, "Zen+", "Picasso"),
	one(VendorAMD, 0x17, 0x20, "Zen", "Dali"),
	span(VendorAMD, 0x17, 0x00, 0x2f, "Zen"),
	span(VendorAMD, 0x17, 0x50, 0x5f, "Zen"),
	one(VendorAMD, 0x17, 0x31, "Zen 2", "Rome/Castle Peak"),
	one(VendorAMD, 0x17, 0x60, "Zen 2", "Renoir"),
	one(VendorAMD, 0x17, 0x68, "Zen 2", "Lucienne"),
	one(VendorAMD, 0x17, 0x71, "Zen 2", "Matisse"),
	one(VendorAMD, 0x17, 0x90, "Zen 2", "Van Gogh"),
	one(VendorAMD, 0x17, 0xa0, "Zen 2", "Mendocino"),
	span(VendorAMD, 0x17, 0x30, 0x4f, "Zen 2"),
	span(VendorAMD, 0x17, 0x60, 0x7f, "Zen 2"),
	span(VendorAMD, 0x17, 0x90, 0x91, "Zen 2"),
	span(VendorAMD, 0x17, 0xa0, 0xaf, "Zen 2"),

	one(VendorAMD, 0x19, 0x01, "Zen 3", "Milan"),
	one(VendorAMD, 0x19, 0x08, "Zen 3", "Chagall"),
	one(VendorAMD, 0x19, 0x21, "Zen 3", "Vermeer"),
	one(VendorAMD, 0x19, 0x44, "Zen 3", "Rembrandt (Zen 3+)"),
	one(VendorAMD, 0x19, 0x50, "Zen 3", "Cezanne"),
	span(VendorAMD, 0x19, 0x00, 0x0f, "Zen 3"),
	span(VendorAMD, 0x19, 0x20, 0x5f, "Zen 3"),
	one(VendorAMD, 0x19, 0x11, "Zen 4", "Genoa"),
	one(VendorAMD, 0x19, 0x18, "Zen 4", "Storm Peak"),
	one(VendorAMD, 0x19, 0x61, "Zen 4", "Raphael"),
	one(VendorAMD, 0x19, 0x74, "Zen 4", "Phoenix"),
	one(VendorAMD, 0x19, 0x75, "Zen 4", "Phoenix"),
	one(VendorAMD, 0x19, 0x78, "Zen 4", "Phoenix 2"),
	one(VendorAMD, 0x19, 0x7c, "Zen 4", "Hawk Point"),
	one(VendorAMD, 0x19, 0xa0, "Zen 4", "Bergamo/Siena"),
	span(VendorAMD, 0x19, 0x10, 0x1f, "Zen 4"),
	span(VendorAMD, 0x19, 0x60, 0xaf, "Zen 4"),

	one(VendorAMD, 0x1a, 0x02, "Zen 5", "Turin"),
	one(VendorAMD, 0x1a, 0x11, "Zen 5", "Turin Dense"),
	one(VendorAMD, 0x1a, 0x24, "Zen 5", "Strix Point"),
	one(VendorAMD, 0x1a, 0x44, "Zen 5", "Granite Ridge"),
	one(VendorAMD, 0x1a, 0x70, "Zen 5", "Strix Halo"),
	span(VendorAMD, 0x1a, 0x00, 0x2f, "Zen 5"),
	span(VendorAMD, 0x1a, 0x40, 0x4f, "Zen 5"),
	span(VendorAMD, 0x1a, 0x60, 0x7f, "Zen 5"),

	{VendorHygon, 0x18, 0x00, 0x0f, anyStep, anyStep, "Zen", "Dhyana"},
}

// Microarch names the microarchitecture of a CPU model, and its code name
// where the table knows one. A model not in the table gets
// "unknown (<vendor> family 0x.. model 0x..)" and codename "".
func Microarch(vendor string, family, model, stepping int) (name, codename string) {
	for _, r := range uarchTable {
		if r.matches(vendor, family, model, stepping) {
			return r.name, r.codename
		}
	}
	return fmt.Sprintf("unknown (%s family 0x%02x model 0x%02x)", vendor, family, model), ""
}

func (r *uarchRow) matches(vendor string, family, model, stepping int) bool {
	if r.vendor != vendor || r.family != family || model < r.lo || model > r.hi {
		return false
	}
	return r.stepLo == anyStep || stepping >= r.stepLo && stepping <= r.stepHi
}
