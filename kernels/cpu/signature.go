package cpu

// Vendor strings as CPUID leaf 0 reports them.
const (
	VendorIntel = "GenuineIntel"
	VendorAMD   = "AuthenticAMD"
	VendorHygon = "HygonGenuine"
)

// DecodeSignature decodes the processor signature (EAX of CPUID leaf 1)
// into display family, model and stepping by the vendor's rules:
//
//   - family = base family, plus extended family when base family is 0xF
//     (all vendors);
//   - Intel: model = base model + extended model<<4 when base family is
//     0x6 or 0xF (Intel SDM, CPUID leaf 1);
//   - AMD and Hygon: the extended model counts only when base family is
//     0xF (AMD APM, CPUID Fn0000_0001_EAX);
//   - other vendors (Centaur, Zhaoxin, ...): extended model counts when base
//     family is 0x6 or higher, as Linux decodes it.
//
// cpuid/v2 applies the extended model for base families 0x6 and 0xF only,
// which misreads family 0x7 parts (Zhaoxin); hence this decoder.
func DecodeSignature(vendor string, eax uint32) (family, model, stepping int) {
	base := int(eax>>8) & 0xf
	family = base
	if base == 0xf {
		family += int(eax>>20) & 0xff
	}
	model = int(eax>>4) & 0xf
	if usesExtModel(vendor, base) {
		model += (int(eax>>16) & 0xf) << 4
	}
	return family, model, int(eax & 0xf)
}

func usesExtModel(vendor string, base int) bool {
	switch vendor {
	case VendorIntel:
		return base == 0x6 || base == 0xf
	case VendorAMD, VendorHygon:
		return base == 0xf
	}
	return base >= 0x6
}
