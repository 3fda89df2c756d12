package cpu

import (
	"fmt"
	"strconv"
	"strings"
)

// Identity text (vendor strings, microarchitecture names, dispatch keys)
// travels in result files and ends up in generated Go source
// (ztable.go). CheckVendor, CheckUarch and ParseKey define the shapes
// tunelab accepts from a file; anything else is refused or replaced by
// the reader, and refused by the table writer.

const (
	// maxVendorLen is the length of a CPUID vendor string.
	maxVendorLen = 12
	// maxUarchLen bounds a microarchitecture name.
	maxUarchLen = 64
	// maxFamilyModel bounds a decoded family or model number (extended
	// family 0xff plus base family 0xf).
	maxFamilyModel = 0x10f
)

// CheckVendor returns an error unless s has the shape of a CPUID vendor
// string: 1 to 12 ASCII letters, digits and spaces, not all spaces
// ("AuthenticAMD", "GenuineIntel", "  Shanghai  ").
func CheckVendor(s string) error {
	if len(s) == 0 || len(s) > maxVendorLen || strings.TrimSpace(s) == "" || !only(s, isVendorByte) {
		return fmt.Errorf("expected a CPU vendor of 1 to %d ASCII letters, digits and spaces, got %q", maxVendorLen, s)
	}
	return nil
}

// CheckUarch returns an error unless s has the shape of a
// microarchitecture name as Microarch writes it: 1 to 64 ASCII letters,
// digits, spaces and ( ) + - . , _ starting with a letter or digit
// ("Zen 4", "Sandy Bridge (server)", "unknown (AuthenticAMD family 0x19
// model 0x11)").
func CheckUarch(s string) error {
	if len(s) == 0 || len(s) > maxUarchLen || !isAlnum(s[0]) || !only(s, isUarchByte) {
		return fmt.Errorf("expected a microarchitecture name of 1 to %d ASCII letters, digits, spaces and ()+-.,_, got %q", maxUarchLen, s)
	}
	return nil
}

// ParseKey parses a dispatch key as DispatchKey writes it,
// "vendor/0xFF/0xMM", with a vendor CheckVendor accepts and hexadecimal
// family and model of at most 0x10f.
func ParseKey(key string) (vendor string, family, model int, err error) {
	parts := strings.Split(key, "/")
	if len(parts) != 3 {
		return "", 0, 0, fmt.Errorf("expected a dispatch key vendor/0xFAMILY/0xMODEL, got %q", key)
	}
	if err := CheckVendor(parts[0]); err != nil {
		return "", 0, 0, fmt.Errorf("dispatch key %q: %w", key, err)
	}
	family, err1 := ParseHexNumber(parts[1])
	model, err2 := ParseHexNumber(parts[2])
	if err1 != nil || err2 != nil {
		return "", 0, 0, fmt.Errorf("expected a dispatch key vendor/0xFAMILY/0xMODEL with hexadecimal family and model up to %#x, got %q", maxFamilyModel, key)
	}
	return parts[0], family, model, nil
}

// ParseHexNumber parses a family or model number as result files write
// it: "0x" and 1 to 3 hexadecimal digits, at most 0x10f.
func ParseHexNumber(s string) (int, error) {
	digits, ok := strings.CutPrefix(s, "0x")
	if !ok || len(digits) == 0 || len(digits) > 3 {
		return 0, fmt.Errorf("expected 0x and 1 to 3 hexadecimal digits, got %q", s)
	}
	n, err := strconv.ParseUint(digits, 16, 16)
	if err != nil || n > maxFamilyModel {
		return 0, fmt.Errorf("expected a hexadecimal number up to %#x, got %q", maxFamilyModel, s)
	}
	return int(n), nil
}

// only reports whether every byte of s satisfies ok.
func only(s string, ok func(byte) bool) bool {
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func isVendorByte(c byte) bool { return isAlnum(c) || c == ' ' }

func isUarchByte(c byte) bool { return isAlnum(c) || strings.IndexByte(" ()+-.,_", c) >= 0 }
