package tablesrc

import (
	"bytes"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/dispatch"
)

// sampleEntries has, in FormatTable's order: a legacy entry, two of one
// model and kernel with different feature sets (the larger set first),
// and one of another vendor.
var sampleEntries = []dispatch.Entry{
	{Vendor: cpu.VendorIntel, Family: 6, Model: 0xcf, Uarch: "Emerald Rapids", Kernel: "poly1305", Features: zen4Canonical(),
		Choices: []dispatch.Choice{ch(256, "isa=scalar"), ch(0, "isa=avx512/radix=44")}},
	{Vendor: cpu.VendorAMD, Family: 0x19, Model: 0x11, Uarch: "Zen 4", Kernel: "keccak.x4",
		Choices: []dispatch.Choice{ch(0, "isa=avx512vl/rot=prol/chi=ternlog")}},
	{Vendor: cpu.VendorAMD, Family: 0x19, Model: 0x11, Uarch: "Zen 4", Kernel: "poly1305", Features: canonical(haswellAll),
		Choices: []dispatch.Choice{ch(0, "isa=avx2")}},
	{Vendor: cpu.VendorAMD, Family: 0x19, Model: 0x11, Uarch: "Zen 4", Kernel: "poly1305", Features: zen4Canonical(),
		Choices: []dispatch.Choice{ch(0, "isa=avx512/radix=44")}},
	{Vendor: cpu.VendorAMD, Family: 0x19, Model: 0x01, Uarch: "Zen 3", Kernel: "poly1305", Features: canonical(haswellAll),
		Choices: []dispatch.Choice{ch(0, "isa=avx2")}, LegacyBase: true},
}

// Feature sets of the samples: a Haswell-class AVX2 host with AES, and
// this project's Zen 4 with AVX-512.
var (
	haswellAll = []string{"sse3", "ssse3", "sse41", "sse42", "popcnt", "cx16", "lahf", "avx", "avx2", "fma", "f16c",
		"lzcnt", "movbe", "osxsave", "bmi1", "bmi2", "aes", "pclmulqdq"}
	zen4All = append(append([]string{}, haswellAll...), "adx", "sha", "avx512f", "avx512bw", "avx512vl", "avx512dq",
		"avx512cd", "avx512vbmi", "avx512vbmi2", "avx512ifma", "avx512vnni", "avx512bitalg", "avx512vpopcntdq",
		"avx512bf16", "vaes", "vpclmulqdq", "gfni")
)

// canonical returns features in kernels/dispatch's canonical order.
func canonical(features []string) []string {
	known, _ := cpu.CanonicalFeatures(features)
	return known
}

func zen4Canonical() []string { return canonical(zen4All) }

func ch(max int, v string) dispatch.Choice { return dispatch.Choice{MaxSize: max, Variant: v} }

var sampleDefaults = []dispatch.Default{
	{Level: cpu.LevelV3, Features: []string{"avx2"}, Kernel: "keccak.x4", Choices: []dispatch.Choice{ch(0, "isa=avx2")}},
	{Kernel: "keccak.x4", Choices: []dispatch.Choice{ch(0, "isa=generic")}},
	{Level: cpu.LevelV4, Features: []string{"avx512f", "avx512vl"}, Kernel: "keccak.x4", Choices: []dispatch.Choice{ch(0, "isa=avx512vl")}},
}

func TestFormatTableRoundTrip(t *testing.T) {
	src, err := FormatTable(sampleEntries, sampleDefaults, []string{"sha256:abcd results/zen4.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(src, []byte(TableHeader+"\n")) {
		t.Errorf("output does not start with %q:\n%s", TableHeader, src)
	}
	tab, sources := parseTable(t, src)
	// Measured entries sorted by key, kernel, features; then the legacy base's.
	wantEntries := []dispatch.Entry{sampleEntries[1], sampleEntries[3], sampleEntries[2], sampleEntries[0], sampleEntries[4]}
	wantDefaults := []dispatch.Default{sampleDefaults[2], sampleDefaults[0], sampleDefaults[1]}
	if !reflect.DeepEqual(tab.Entries, wantEntries) {
		t.Errorf("entries round trip:\n got %+v\nwant %+v\nsource:\n%s", tab.Entries, wantEntries, src)
	}
	if !reflect.DeepEqual(tab.Defaults, wantDefaults) {
		t.Errorf("defaults round trip:\n got %+v\nwant %+v\nsource:\n%s", tab.Defaults, wantDefaults, src)
	}
	if want := []string{"sha256:abcd results/zen4.txt"}; !reflect.DeepEqual(sources, want) {
		t.Errorf("sources round trip: got %q, want %q", sources, want)
	}
	if n := strings.Count(string(src), "\nvar entryFeatures"); n != 2 {
		t.Errorf("%d feature set variables, want 2 (one per distinct set):\n%s", n, src)
	}
	again, _ := FormatTable(wantEntries, wantDefaults, []string{"sha256:abcd results/zen4.txt"})
	if !bytes.Equal(src, again) {
		t.Error("output depends on input order")
	}
}

// TestFormatTableCanonicalFeatures checks that entry features are written
// in canonical order, whatever order they are given in.
func TestFormatTableCanonicalFeatures(t *testing.T) {
	e := sampleEntries[2]
	e.Features = []string{"avx2", "aes", "sse3", "avx"}
	src, err := FormatTable([]dispatch.Entry{e}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	tab, _ := parseTable(t, src)
	if got, want := tab.Entries[0].Features, []string{"sse3", "avx", "avx2", "aes"}; !slices.Equal(got, want) {
		t.Errorf("features written as %q, want %q", got, want)
	}
}

// parseTable is ParseTable failing the test on error.
func parseTable(t *testing.T, src []byte) (dispatch.Table, []string) {
	t.Helper()
	tab, sources, err := ParseTable(src)
	if err != nil {
		t.Fatalf("generated table does not parse: %v\n%s", err, src)
	}
	return tab, sources
}

func TestFormatTableEmptyMatchesShape(t *testing.T) {
	src, err := FormatTable(nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := TableHeader + "\n\npackage dispatch\n\nvar tableEntries = []Entry{}\n\n" +
		"// legacyBaseEntries are the entries of the fleet's legacy base\n" +
		"// (results/fleet/legacy-base.json): measured by result files the fleet\n" +
		"// does not hold, each kept until a fleet file measures its CPU again.\n" +
		"var legacyBaseEntries = []Entry{}\n\nvar tableDefaults = []Default{}\n"
	if string(src) != want {
		t.Errorf("empty table:\n%s\nwant:\n%s", src, want)
	}
}

// TestCompiledTableIsExporterOutput checks that ztable.go is what
// FormatTable writes for its own contents, and that ParseTable reads the
// compiled table back from it.
func TestCompiledTableIsExporterOutput(t *testing.T) {
	file, err := os.ReadFile("../../kernels/dispatch/ztable.go")
	if err != nil {
		t.Fatal(err)
	}
	tab, sources := parseTable(t, file)
	if !reflect.DeepEqual(tab, dispatch.Compiled()) {
		t.Errorf("ParseTable(ztable.go) differs from the compiled table")
	}
	src, err := FormatTable(dispatch.Compiled().Entries, dispatch.Compiled().Defaults, sources)
	if err != nil {
		t.Fatalf("compiled table does not validate: %v", err)
	}
	if !bytes.Equal(src, file) {
		t.Errorf("ztable.go differs from FormatTable of its contents:\n%s", src)
	}
}

func TestFormatTableRejects(t *testing.T) {
	good := sampleEntries[0]
	with := func(f func(*dispatch.Entry)) []dispatch.Entry {
		e := good
		e.Choices = append([]dispatch.Choice{}, good.Choices...)
		f(&e)
		return []dispatch.Entry{e}
	}
	tests := []struct {
		name     string
		entries  []dispatch.Entry
		defaults []dispatch.Default
		sources  []string
		want     string
	}{
		{"empty vendor", with(func(e *dispatch.Entry) { e.Vendor = "" }), nil, nil, "expected a CPU vendor"},
		{"empty kernel", with(func(e *dispatch.Entry) { e.Kernel = "" }), nil, nil, "expected a kernel name"},
		{"vendor quote", with(func(e *dispatch.Entry) { e.Vendor = "Evil\"Vendor`" }), nil, nil, "expected a CPU vendor"},
		{"uarch bidi", with(func(e *dispatch.Entry) { e.Uarch = "Rocket Lake\u202e }; var x = 1 //\u2066" }), nil, nil, "expected a microarchitecture name"},
		{"uarch comment end", with(func(e *dispatch.Entry) { e.Uarch = "*/ ANY TEXT" }), nil, nil, "expected a microarchitecture name"},
		{"uarch BOM", with(func(e *dispatch.Entry) { e.Uarch = "\ufeffZen 4" }), nil, nil, "expected a microarchitecture name"},
		{"kernel quote", with(func(e *dispatch.Entry) { e.Kernel = "poly1305\"" }), nil, nil, "expected a kernel name"},
		{"variant bidi", with(func(e *dispatch.Entry) { e.Choices[0].Variant = "isa=avx2\u2066" }), nil, nil, "expected a variant name"},
		{"default kernel backtick", nil, []dispatch.Default{{Level: "x86-64-v3", Kernel: "k`", Choices: []dispatch.Choice{ch(0, "a")}}}, nil, "expected a kernel name"},
		{"no choices", with(func(e *dispatch.Entry) { e.Choices = nil }), nil, nil, "no choices"},
		{"empty variant", with(func(e *dispatch.Entry) { e.Choices[0].Variant = "" }), nil, nil, "expected a variant name"},
		{"bounded last", with(func(e *dispatch.Entry) { e.Choices[1].MaxSize = 512 }), nil, nil, "last choice must be unbounded"},
		{"unsorted", with(func(e *dispatch.Entry) { e.Choices = []dispatch.Choice{ch(512, "a"), ch(256, "b"), ch(0, "c")} }), nil, nil, "not above"},
		{"negative", with(func(e *dispatch.Entry) { e.Choices[0].MaxSize = -1 }), nil, nil, "negative max size"},
		{"duplicate entry", []dispatch.Entry{good, good}, nil, nil, "duplicate entry"},
		{"duplicate entry, features reordered", append(with(func(*dispatch.Entry) {}), with(func(e *dispatch.Entry) { e.Features = append(zen4Canonical()[1:], "sse3") })...), nil, nil, "duplicate entry"},
		{"unknown entry feature", with(func(e *dispatch.Entry) { e.Features = []string{"avx2", "avx10"} }), nil, nil, `unknown feature "avx10"`},
		{"entry feature twice", with(func(e *dispatch.Entry) { e.Features = []string{"avx2", "avx2"} }), nil, nil, `feature "avx2" listed twice`},
		{"bad level", nil, []dispatch.Default{{Level: "v3", Kernel: "k", Choices: []dispatch.Choice{ch(0, "a")}}}, nil, `unknown level "v3"`},
		{"bad feature", nil, []dispatch.Default{{Features: []string{"avx-512"}, Kernel: "k", Choices: []dispatch.Choice{ch(0, "a")}}}, nil, `unknown feature "avx-512"`},
		{"duplicate default", nil, []dispatch.Default{sampleDefaults[0], sampleDefaults[0]}, nil, "duplicate default"},
		{"source newline", nil, nil, []string{"a\nvar x = 1"}, "expected printable ASCII"},
		{"source bidi", nil, nil, []string{"sha256:ab\u202e"}, "expected printable ASCII"},
	}
	for _, tt := range tests {
		src, err := FormatTable(tt.entries, tt.defaults, tt.sources)
		if err == nil || !strings.Contains(err.Error(), tt.want) || src != nil {
			t.Errorf("%s: err %v (output %d bytes), want error containing %q and no output", tt.name, err, len(src), tt.want)
		}
	}
}

func TestParseTableRejects(t *testing.T) {
	head := TableHeader + "\n\npackage dispatch\n\n"
	tests := []struct{ name, src, want string }{
		{"no header", "package dispatch\n", "does not start with"},
		{"syntax", head + "var tableEntries = []Entry{\n", "parsing dispatch table"},
		{"func", head + "func init() {}\n", "unexpected declaration"},
		{"other variable", head + "var x = 1\n", "x: unexpected variable"},
		{"unknown field", head + "var tableEntries = []Entry{{Vendor: \"v\", Bogus: 1}}\n", "unexpected field"},
		{"wrong literal", head + "var tableEntries = []Entry{{Family: \"six\"}}\n", "unexpected STRING literal"},
		{"unknown identifier", head + "var tableEntries = []Entry{{Features: allFeatures}}\n", "unexpected identifier allFeatures"},
		{"call", head + "var tableEntries = []Entry{{Vendor: string(\"x\")}}\n", "unexpected expression"},
	}
	for _, tt := range tests {
		_, _, err := ParseTable([]byte(tt.src))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}
