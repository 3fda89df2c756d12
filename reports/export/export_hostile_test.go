package export

import (
	"bytes"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/reports"
)

// hostileIdentities are identity lines a hostile fleet node could write
// into a result file (issue 28): Trojan Source bidirectional controls, a
// comment terminator, quotes and backticks, byte-order marks, escape
// sequences, HTML.
var hostileIdentities = []struct{ name, old, new string }{
	{"bidi uarch", "uarch: Zen 4\n", "uarch: Rocket Lake\u202e }; var x = 1 //\u2066\n"},
	{"isolates", "uarch: Zen 4\n", "uarch: Zen\u2066 4\u2069\n"},
	{"comment terminator", "uarch: Zen 4\n", "uarch: */ ANY TEXT\n"},
	{"quote in uarch", "uarch: Zen 4\n", "uarch: Zen\" 4`\n"},
	{"script uarch", "uarch: Zen 4\n", "uarch: <script>alert(1)</script>\n"},
	{"vendor quote", "dispatch-key: AuthenticAMD/0x19/0x11\n", "dispatch-key: Evil\"Vendor`/0x19/0x11\n"},
	{"vendor bidi", "dispatch-key: AuthenticAMD/0x19/0x11\n", "dispatch-key: Auth\u202eAMD/0x19/0x11\n"},
	{"vendor comment", "dispatch-key: AuthenticAMD/0x19/0x11\n", "dispatch-key: */AMD/0x19/0x11\n"},
	{"key shape", "dispatch-key: AuthenticAMD/0x19/0x11\n", "dispatch-key: AuthenticAMD/25/0x11 ANY TEXT\n"},
	{"BOM in value", "uarch: Zen 4\n", "uarch: \ufeffZen 4\n"},
	{"BOM first", "goos: linux\n", "\ufeffgoos: linux\n"},
	{"escape", "uarch: Zen 4\n", "uarch: Zen 4\x1b]0;pwned\x07\n"},
	{"feature quote", "features: ", "features: x\"y,"},
	{"brand script", "cpu: fabricated Zen 4\n", "cpu: <script>alert(1)</script>\u202e\n"},
}

// TestExportCarriesNoTextFromInputs exports result files carrying hostile
// identity lines and checks that whatever is exported is Go that parses
// and is gofmt'd, is printable ASCII, and holds none of the hostile text;
// a file whose identity is unusable is refused (no table).
func TestExportCarriesNoTextFromInputs(t *testing.T) {
	base, err := os.ReadFile(fixture("zen4.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hostileIdentities {
		if !bytes.Contains(base, []byte(h.old)) {
			t.Fatalf("%s: fixture has no %q", h.name, h.old)
		}
		data := strings.Replace(string(base), h.old, h.new, 1)
		path := filepath.Join(t.TempDir(), "hostile.txt")
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		tab, warnings, err := ExportFiles([]string{path}, reports.DefaultOptions())
		if err != nil {
			if !strings.Contains(err.Error(), "no usable benchmark results") {
				t.Errorf("%s: export refused with %v, want a refusal for no usable results", h.name, err)
			}
			continue
		}
		if h.name != "BOM first" && len(warnings) == 0 {
			t.Errorf("%s: no warning about the hostile line", h.name)
		}
		for _, enc := range []func() ([]byte, error){tab.GoSource, tab.JSON} {
			out, err := enc()
			if err != nil {
				t.Errorf("%s: encoding: %v", h.name, err)
				continue
			}
			checkNoInputText(t, h.name, out, h.new)
		}
		src, _ := tab.GoSource()
		checkGo(t, h.name, src)
	}
}

// checkNoInputText checks that out is printable ASCII (plus newline and
// tab) and holds no distinctive part of the hostile line.
func checkNoInputText(t *testing.T, name string, out []byte, hostile string) {
	t.Helper()
	for i, c := range out {
		if (c < ' ' || c > '~') && c != '\n' && c != '\t' {
			t.Errorf("%s: output byte %d is %#x, want printable ASCII", name, i, c)
			return
		}
	}
	for _, s := range []string{"var x", "ANY TEXT", "Evil", "script", "pwned", `Zen\" 4`, "Zen` 4", "*/"} {
		if strings.Contains(hostile, s) && bytes.Contains(out, []byte(s)) {
			t.Errorf("%s: output contains %q from the input:\n%s", name, s, out)
		}
	}
}

// checkGo checks that src parses as Go and is gofmt'd.
func checkGo(t *testing.T, name string, src []byte) {
	t.Helper()
	if _, err := parser.ParseFile(token.NewFileSet(), "ztable.go", src, parser.ParseComments); err != nil {
		t.Errorf("%s: generated table does not parse: %v", name, err)
	}
	if f, err := format.Source(src); err != nil || !bytes.Equal(f, src) {
		t.Errorf("%s: generated table is not gofmt'd (%v)", name, err)
	}
}

// TestBaseTableCarriesNoTextIntoOutput merges a base table (JSON) whose
// entry carries hostile text: both encodings refuse it.
func TestBaseTableCarriesNoTextIntoOutput(t *testing.T) {
	tab, _, err := ExportFiles([]string{fixture("zen4.txt")}, reports.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []struct{ vendor, uarch string }{
		{"AuthenticAMD", "Rocket Lake\u202e }; var x = 1 //\u2066"},
		{"AuthenticAMD", "*/ ANY TEXT"},
		{"Evil\"Vendor`", "Zen 4"},
	} {
		b := *tab
		b.Entries = append([]Entry{}, tab.Entries...)
		b.Entries[0].CPU.Vendor, b.Entries[0].Uarch, b.Entries[0].CPU.Model = bad.vendor, bad.uarch, 0x99
		for what, enc := range map[string]func() ([]byte, error){"go": b.GoSource, "json": b.JSON} {
			if out, err := enc(); err == nil || out != nil {
				t.Errorf("%s with uarch %q vendor %q: %d bytes, err %v; want a refusal", what, bad.uarch, bad.vendor, len(out), err)
			}
		}
	}
}

// TestJSONAndGoRefuseUnregisteredVariants checks that --format json
// applies the registry check --format go does (issue 28).
func TestJSONAndGoRefuseUnregisteredVariants(t *testing.T) {
	tab, _, err := ExportFiles([]string{fixture("zen4.txt")}, reports.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	b := *tab
	b.Entries = append([]Entry{}, tab.Entries...)
	b.Entries[0].Choices = []Choice{{MaxSize: 0, Variant: "isa=evil"}}
	for what, enc := range map[string]func() ([]byte, error){"go": b.GoSource, "json": b.JSON} {
		out, err := enc()
		if err == nil || out != nil || !strings.Contains(err.Error(), `variant "isa=evil" is not registered`) {
			t.Errorf("%s: %d bytes, err %v; want a refusal naming the unregistered variant", what, len(out), err)
		}
	}
}
