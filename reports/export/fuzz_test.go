package export

import (
	"bytes"
	"go/format"
	"go/parser"
	"go/token"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/harness"
	"github.com/tunelab/tunelab/harness/resultfile"
	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/reports"
)

// FuzzRead feeds arbitrary result files to every reader (reports.Read,
// harness.ReadResume) and, where a file is accepted, to the analysis and
// both table encodings. Nothing may panic; what is read holds only
// checked values and identity text; warnings are bounded; a table that
// encodes is JSON and Go that parses, is gofmt'd and is printable ASCII.
// CI runs it briefly (.ci/run: go test -run='^$' -fuzz='^FuzzRead$').
func FuzzRead(f *testing.F) {
	for _, name := range []string{"zen4.txt", "spr.txt", "bad.txt", "sweep.txt", "fleet/zen4-vm-1.txt"} {
		data, err := os.ReadFile(fixture(name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, h := range hostileIdentities {
		data, _ := os.ReadFile(fixture("zen4.txt"))
		f.Add(bytes.Replace(data, []byte(h.old), []byte(h.new), 1))
	}
	f.Add([]byte("BenchmarkFoo 1 NaN ns/op\nBenchmarkFoo 1 5 ns/op\n"))
	f.Add([]byte("dispatch-key: AuthenticAMD/0x19/0x11\nrun-id: r\nkernel: test.sized\n# tunelab: segment r 1\nBenchmarkTestSized/isa=avx2/size=-1 -1 1e-320 ns/op\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "r.txt")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		harness.ReadResume(path, nil) // must not panic; refusals are fine
		set, warnings, err := reports.Read([]string{path})
		if len(warnings) > resultfile.MaxWarnings+8 {
			t.Errorf("%d warnings for one file, want them capped", len(warnings))
		}
		if err != nil {
			return
		}
		checkSet(t, set)
		checkTable(t, FromReport(reports.Analyze(set, reports.DefaultOptions())))
	})
}

// checkSet checks that a set read from any file holds only checked
// values and identity text.
func checkSet(t *testing.T, set *reports.Set) {
	for _, m := range set.Models {
		if m.Unknown {
			continue
		}
		if _, _, _, err := cpu.ParseKey(m.Key); err != nil {
			t.Errorf("model key: %v", err)
		}
		if m.Uarch != "" && cpu.CheckUarch(m.Uarch) != nil {
			t.Errorf("model uarch %q reached the set", m.Uarch)
		}
	}
	for _, p := range set.Points {
		if p.Size < 0 || p.Size > resultfile.MaxSize {
			t.Errorf("point %s: size %d", p.FullName, p.Size)
		}
		for _, ns := range p.NS {
			if math.IsNaN(ns) || ns < resultfile.MinNsPerOp*(1-1e-9) || ns > resultfile.MaxNsPerOp*(1+1e-9) {
				t.Errorf("point %s: ns/op %v reached the set", p.FullName, ns)
			}
		}
	}
}

// checkTable checks that whatever encodes is clean JSON and Go.
func checkTable(t *testing.T, tab *Table) {
	if js, err := tab.JSON(); err == nil {
		checkASCII(t, "JSON", js)
	}
	src, err := tab.GoSource()
	if err != nil {
		return
	}
	checkASCII(t, "Go", src)
	if _, err := parser.ParseFile(token.NewFileSet(), "ztable.go", src, parser.ParseComments); err != nil {
		t.Errorf("exported Go does not parse: %v\n%s", err, src)
	}
	if f, err := format.Source(src); err != nil || !bytes.Equal(f, src) {
		t.Errorf("exported Go is not gofmt'd (%v)", err)
	}
}

// checkASCII checks that out is printable ASCII, newlines and tabs.
func checkASCII(t *testing.T, what string, out []byte) {
	if i := bytes.IndexFunc(out, func(r rune) bool { return (r < ' ' || r > '~') && r != '\n' && r != '\t' }); i >= 0 {
		t.Errorf("%s output has %q at byte %d", what, out[i:min(i+8, len(out))], i)
	}
	if strings.Contains(string(out), "*/") {
		t.Errorf("%s output contains a comment terminator", what)
	}
}
