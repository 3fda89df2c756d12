package cpu

import "testing"

// TestIdentityGrammarAcceptsWhatTunelabWrites checks that every name the
// microarchitecture table and Microarch's fallback produce, and every
// known vendor's dispatch key, pass the grammar result-file readers and
// the table writer apply.
func TestIdentityGrammarAcceptsWhatTunelabWrites(t *testing.T) {
	for _, r := range uarchTable {
		if err := CheckUarch(r.name); err != nil {
			t.Errorf("uarch table row %s %#x..%#x: %v", r.vendor, r.lo, r.hi, err)
		}
	}
	for _, v := range []string{VendorIntel, VendorAMD, VendorHygon, "  Shanghai  ", "CentaurHauls"} {
		if err := CheckVendor(v); err != nil {
			t.Errorf("CheckVendor(%q): %v", v, err)
		}
		name, _ := Microarch(v, 0x10f, 0xff, 0)
		if err := CheckUarch(name); err != nil {
			t.Errorf("fallback name of vendor %q: %v", v, err)
		}
		key := DispatchKey(v, 0x10f, 0xff)
		gv, f, m, err := ParseKey(key)
		if err != nil || gv != v || f != 0x10f || m != 0xff {
			t.Errorf("ParseKey(%q) = %q, %#x, %#x, %v; want the vendor, 0x10f, 0xff", key, gv, f, m, err)
		}
	}
}

// TestIdentityGrammarRefusesHostileText feeds the text a hostile result
// file could carry: bidirectional controls, comment terminators, quotes,
// backticks, a byte-order mark, line breaks, over-long and malformed keys.
func TestIdentityGrammarRefusesHostileText(t *testing.T) {
	for _, s := range []string{
		"", " ", "Rocket Lake\u202e }; var x = 1 //\u2066", "*/ ANY TEXT", "Zen\"4", "Zen`4", "\ufeffZen 4",
		"Zen 4\n", "Zen/4", "(Zen 4)", "Zen 4 with a name far longer than any microarchitecture name would ever be, really",
	} {
		if CheckUarch(s) == nil {
			t.Errorf("CheckUarch(%q) accepted it", s)
		}
	}
	for _, s := range []string{"", "   ", "Evil\"Vendor`", "AuthenticAMD1", "Genuine\u202eIntel", "a*/b", "Auth\x00AMD"} {
		if CheckVendor(s) == nil {
			t.Errorf("CheckVendor(%q) accepted it", s)
		}
	}
	for _, k := range []string{
		"AuthenticAMD/0x19", "AuthenticAMD/25/0x11", "AuthenticAMD/0x19/-0x1", "AuthenticAMD/0x19/0x1111",
		"AuthenticAMD/0x19/0x11/x", "Evil\"Vendor`/0x19/0x11", "AuthenticAMD/0x/0x11", "AuthenticAMD/0X19/0x11",
		"AuthenticAMD/0x19/0x1g", "AuthenticAMD/0xfff/0x11",
	} {
		if _, _, _, err := ParseKey(k); err == nil {
			t.Errorf("ParseKey(%q) accepted it", k)
		}
	}
}
