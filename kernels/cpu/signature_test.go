package cpu

import (
	"testing"

	"github.com/klauspost/cpuid/v2"
)

func TestDecodeSignature(t *testing.T) {
	tests := []struct {
		vendor                  string
		eax                     uint32
		family, model, stepping int
		what                    string
	}{
		{VendorAMD, 0x00a10f11, 0x19, 0x11, 1, "Zen 4 Genoa"},
		{VendorAMD, 0x00a00f11, 0x19, 0x01, 1, "Zen 3 Milan"},
		{VendorAMD, 0x00830f10, 0x17, 0x31, 0, "Zen 2 Rome"},
		{VendorAMD, 0x00800f12, 0x17, 0x01, 2, "Zen Naples"},
		{VendorAMD, 0x00b00f21, 0x1a, 0x02, 1, "Zen 5 Turin"},
		{VendorAMD, 0x00020f32, 0x0f, 0x23, 2, "K8 (ext family 0)"},
		{VendorAMD, 0x00010662, 0x06, 0x06, 2, "K7: ext model ignored below family 0xF"},
		{VendorHygon, 0x00900f01, 0x18, 0x00, 1, "Hygon Dhyana"},
		{VendorIntel, 0x000306c3, 0x06, 0x3c, 3, "Haswell"},
		{VendorIntel, 0x00050654, 0x06, 0x55, 4, "Skylake-SP"},
		{VendorIntel, 0x00050657, 0x06, 0x55, 7, "Cascade Lake"},
		{VendorIntel, 0x000806f8, 0x06, 0x8f, 8, "Sapphire Rapids"},
		{VendorIntel, 0x000c06f2, 0x06, 0xcf, 2, "Emerald Rapids"},
		{VendorIntel, 0x00000f29, 0x0f, 0x02, 9, "Pentium 4"},
		{VendorIntel, 0x00010f41, 0x0f, 0x14, 1, "family 0xF uses ext model"},
		{"CentaurHauls", 0x000107b5, 0x07, 0x1b, 5, "Zhaoxin family 7 uses ext model"},
		{VendorIntel, 0x000107b5, 0x07, 0x0b, 5, "Intel family 7 ignores ext model"},
	}
	for _, tt := range tests {
		f, m, s := DecodeSignature(tt.vendor, tt.eax)
		if f != tt.family || m != tt.model || s != tt.stepping {
			t.Errorf("DecodeSignature(%s, %#08x) [%s] = family %#x model %#x stepping %d, want %#x %#x %d",
				tt.vendor, tt.eax, tt.what, f, m, s, tt.family, tt.model, tt.stepping)
		}
	}
}

// TestHostSignatureAgreesWithCpuid checks the raw signature path against
// cpuid/v2 on Intel and AMD hosts, where both decoders agree.
func TestHostSignatureAgreesWithCpuid(t *testing.T) {
	sig, ok := rawSignature()
	if !ok {
		t.Skip("no raw CPUID on this platform")
	}
	v := cpuid.CPU.VendorString
	if v != VendorIntel && v != VendorAMD {
		t.Skipf("vendor %q: decoders may legitimately differ", v)
	}
	f, m, s := DecodeSignature(v, sig)
	if f != cpuid.CPU.Family || m != cpuid.CPU.Model || s != cpuid.CPU.Stepping {
		t.Errorf("signature %#08x decodes to %#x/%#x/%d, cpuid/v2 says %#x/%#x/%d",
			sig, f, m, s, cpuid.CPU.Family, cpuid.CPU.Model, cpuid.CPU.Stepping)
	}
}
