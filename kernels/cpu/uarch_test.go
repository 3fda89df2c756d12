package cpu

import "testing"

func TestMicroarch(t *testing.T) {
	tests := []struct {
		vendor                  string
		family, model, stepping int
		name, codename          string
	}{
		{VendorIntel, 6, 0x3c, 3, "Haswell", ""},
		{VendorIntel, 6, 0x3f, 2, "Haswell (server)", "Haswell-E/EP"},
		{VendorIntel, 6, 0x3d, 4, "Broadwell", ""},
		{VendorIntel, 6, 0x4f, 1, "Broadwell (server)", "Broadwell-E/EP"},
		{VendorIntel, 6, 0x5e, 3, "Skylake", "Skylake-S/H"},
		{VendorIntel, 6, 0x55, 4, "Skylake-SP", ""},
		{VendorIntel, 6, 0x55, 7, "Cascade Lake", ""},
		{VendorIntel, 6, 0x55, 11, "Cooper Lake", ""},
		{VendorIntel, 6, 0x7e, 5, "Ice Lake", "Ice Lake-U/Y"},
		{VendorIntel, 6, 0x6a, 6, "Ice Lake-SP", ""},
		{VendorIntel, 6, 0x8c, 1, "Tiger Lake", "Tiger Lake-U"},
		{VendorIntel, 6, 0x97, 2, "Alder Lake", "Alder Lake-S"},
		{VendorIntel, 6, 0xbe, 0, "Gracemont", "Alder Lake-N"},
		{VendorIntel, 6, 0x9e, 10, "Skylake", "Kaby/Coffee Lake"},
		{VendorIntel, 6, 0x6c, 1, "Ice Lake-SP", "Ice Lake-D"},
		{VendorIntel, 6, 0xb7, 1, "Raptor Lake", "Raptor Lake-S"},
		{VendorIntel, 6, 0x8f, 8, "Sapphire Rapids", ""},
		{VendorIntel, 6, 0xcf, 2, "Emerald Rapids", ""},
		{VendorIntel, 6, 0xad, 1, "Granite Rapids", "Granite Rapids-X"},
		{VendorIntel, 6, 0xaa, 4, "Meteor Lake", "Meteor Lake-U/H"},
		{VendorIntel, 6, 0xc6, 2, "Arrow Lake", "Arrow Lake-S"},
		{VendorIntel, 6, 0xbd, 1, "Lunar Lake", ""},
		{VendorAMD, 0x17, 0x01, 2, "Zen", "Naples/Summit Ridge"},
		{VendorAMD, 0x17, 0x08, 2, "Zen+", "Pinnacle Ridge"},
		{VendorAMD, 0x17, 0x18, 1, "Zen+", "Picasso"},
		{VendorAMD, 0x17, 0x31, 0, "Zen 2", "Rome/Castle Peak"},
		{VendorAMD, 0x17, 0x71, 0, "Zen 2", "Matisse"},
		{VendorAMD, 0x19, 0x01, 1, "Zen 3", "Milan"},
		{VendorAMD, 0x19, 0x21, 0, "Zen 3", "Vermeer"},
		{VendorAMD, 0x19, 0x11, 1, "Zen 4", "Genoa"},
		{VendorAMD, 0x19, 0x61, 2, "Zen 4", "Raphael"},
		{VendorAMD, 0x19, 0x1f, 0, "Zen 4", ""},
		{VendorAMD, 0x1a, 0x02, 1, "Zen 5", "Turin"},
		{VendorAMD, 0x1a, 0x44, 0, "Zen 5", "Granite Ridge"},
		{VendorHygon, 0x18, 0x00, 1, "Zen", "Dhyana"},
		// Unknown models are never guessed.
		{VendorIntel, 6, 0x55, 9, "unknown (GenuineIntel family 0x06 model 0x55)", ""},
		{VendorIntel, 6, 0x01, 0, "unknown (GenuineIntel family 0x06 model 0x01)", ""},
		{VendorAMD, 0x19, 0xb0, 0, "unknown (AuthenticAMD family 0x19 model 0xb0)", ""},
		{VendorAMD, 0x1b, 0x05, 0, "unknown (AuthenticAMD family 0x1b model 0x05)", ""},
		{VendorIntel, 0x19, 0x11, 1, "unknown (GenuineIntel family 0x19 model 0x11)", ""},
	}
	for _, tt := range tests {
		name, code := Microarch(tt.vendor, tt.family, tt.model, tt.stepping)
		if name != tt.name || code != tt.codename {
			t.Errorf("Microarch(%s, %#x, %#x, %d) = %q, %q; want %q, %q",
				tt.vendor, tt.family, tt.model, tt.stepping, name, code, tt.name, tt.codename)
		}
	}
}

// TestUarchTableNoDeadRows checks that every row is the first match for
// at least one model and stepping, so no row is shadowed by earlier ones.
func TestUarchTableNoDeadRows(t *testing.T) {
	for i, r := range uarchTable {
		if r.lo > r.hi || r.stepLo > r.stepHi {
			t.Errorf("row %d (%s): empty range", i, r.name)
		}
		if !rowLive(i) {
			t.Errorf("row %d (%s %#x models %#x-%#x %s) never matches first", i, r.vendor, r.family, r.lo, r.hi, r.name)
		}
	}
}

func rowLive(i int) bool {
	r := uarchTable[i]
	for model := r.lo; model <= r.hi; model++ {
		for step := 0; step < 16; step++ {
			if first := firstRow(r.vendor, r.family, model, step); first == i {
				return true
			}
		}
	}
	return false
}

func firstRow(vendor string, family, model, stepping int) int {
	for j, s := range uarchTable {
		if s.matches(vendor, family, model, stepping) {
			return j
		}
	}
	return -1
}

func TestDispatchKey(t *testing.T) {
	c := &CPU{Vendor: VendorAMD, Family: 0x19, Model: 0x11}
	if got, want := c.Key(), "AuthenticAMD/0x19/0x11"; got != want {
		t.Errorf("Key() = %q, want %q", got, want)
	}
	if got, want := DispatchKey(VendorIntel, 6, 0xcf), "GenuineIntel/0x06/0xcf"; got != want {
		t.Errorf("DispatchKey = %q, want %q", got, want)
	}
}
