package main

import (
	"bytes"
	"fmt"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Issue 28's examples, at the command line: result files are untrusted
// input.

// writeTemp writes data to name in a fresh directory.
func writeTemp(t *testing.T, name, data string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// withLine returns the text of file with line inserted after its first
// line starting with after, and the 1-based number of the inserted line.
func withLine(t *testing.T, file, after, line string) (string, int) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, after) {
			out := strings.Join(lines[:i+1], "") + line + "\n" + strings.Join(lines[i+1:], "")
			return out, i + 2
		}
	}
	t.Fatalf("%s has no line starting with %q", file, after)
	return "", 0
}

// TestNaNIsSkippedEverywhere covers the NaN that sent moremath's
// MannWhitneyUTest into unbounded memory in compare, report, export,
// dispatch --results and sweep --resume.
func TestNaNIsSkippedEverywhere(t *testing.T) {
	a := writeTemp(t, "a.txt", "BenchmarkFoo 1 NaN ns/op\n")
	b := writeTemp(t, "b.txt", "BenchmarkFoo 1 5 ns/op\n")
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, stderr, code := runCLI(t, "compare", a, b)
		if code != 2 || !strings.Contains(stderr, a+":1: expected a finite ns/op value, got NaN") {
			t.Errorf("compare NaN-file: exit %d, stderr %q; want exit 2 naming %s:1", code, stderr, a)
		}
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("compare of a NaN file did not finish in 30 s")
	}
	data, line := withLine(t, fixtures+"zen4.txt", "BenchmarkTestSized/", "BenchmarkTestSized/isa=avx2/size=64 100 NaN ns/op")
	nan := writeTemp(t, "nan.txt", data)
	want := fmt.Sprintf("%s:%d: expected a finite ns/op value, got NaN", nan, line)
	for _, args := range [][]string{
		{"report", nan}, {"export", "--format", "json", nan}, {"dispatch", "--results", nan}, {"compare", nan, fixtures + "zen4.txt"},
	} {
		_, stderr, code := runCLI(t, args...)
		if code != 0 || !strings.Contains(stderr, "warning: "+want) {
			t.Errorf("tunelab %q: exit %d, stderr %q; want exit 0 and the warning %q", args, code, stderr, want)
		}
	}
	wantUsage(t, []string{"sweep", "--kernel", "calib", "--resume", nan}, want, "unchanged")
}

// TestImpossibleValuesAreSkipped covers ns/op of -5, 1e308 and 1e-320,
// iterations of -1 and /size=-1 or /size=0: each line is a warning with
// file:line and what was expected, and no report or comparison shows
// what they used to ("-5ns ±-0.0%", "1e+299s", "≤0 B", "-200.00%").
func TestImpossibleValuesAreSkipped(t *testing.T) {
	bad := []struct{ line, want string }{
		{"BenchmarkTestSized/isa=avx2/size=64 100 -5 ns/op", "expected ns/op between 1e-06 and 1e+14, got -5"},
		{"BenchmarkTestSized/isa=avx2/size=64 100 1e308 ns/op", "got 1e+308"},
		{"BenchmarkTestSized/isa=avx2/size=64 100 1e-320 ns/op", "got 1e-320"},
		{"BenchmarkTestSized/isa=avx2/size=64 -1 50 ns/op", "expected an iteration count between 1 and"},
		{"BenchmarkTestSized/isa=avx2/size=-1 100 50 ns/op", "got size=-1"},
		{"BenchmarkTestSized/isa=avx2/size=0 100 50 ns/op", "got size=0"},
	}
	data, err := os.ReadFile(fixtures + "zen4.txt")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	first := strings.Count(text, "\n") + 1
	for _, b := range bad {
		text += b.line + "\n"
	}
	path := writeTemp(t, "bad.txt", text)
	out, stderr, code := runCLI(t, "report", path)
	if code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	for i, b := range bad {
		if !hasWarning(stderr, fmt.Sprintf("%s:%d: ", path, first+i), b.want) {
			t.Errorf("report: no warning %s:%d: ...%s... in:\n%s", path, first+i, b.want, stderr)
		}
	}
	cmp, _, _ := runCLI(t, "compare", fixtures+"zen4.txt", path)
	for _, s := range []string{"-5ns", "±-", "e+29", "e+30", "≤0 B", "size=0", "size=-1", "-200.00%"} {
		if strings.Contains(out, s) || strings.Contains(cmp, s) {
			t.Errorf("report or compare shows %q from an impossible value", s)
		}
	}
}

// TestReportRefusesWhatIsNotAFile covers `report /dev/zero` (8 GB in 10
// s) and a FIFO (blocked forever): refused at once, exit 2.
func TestReportRefusesWhatIsNotAFile(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{"/dev/zero": "a character device, not a regular file", fifo: "a named pipe (FIFO), not a regular file"} {
		for _, args := range [][]string{{"report", path}, {"export", path}, {"compare", path, path}, {"dispatch", "--results", path}, {"sweep", "--kernel", "calib", "--resume", path}} {
			done := make(chan struct{})
			go func() {
				defer close(done)
				wantUsage(t, args, want)
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatalf("tunelab %q did not return in 10 s", args)
			}
		}
		_, stderr, code := runCLI(t, "export", "--base", path, "--format", "json")
		if code == 0 || !strings.Contains(stderr, want) {
			t.Errorf("export --base %s: exit %d, stderr %q; want a refusal saying %q", path, code, stderr, want)
		}
	}
}

// TestExportRefusesUnregisteredVariantsInBothFormats covers JSON export
// writing variants Go export refused: neither writes anything.
func TestExportRefusesUnregisteredVariantsInBothFormats(t *testing.T) {
	data, err := os.ReadFile(fixtures + "zen4.txt")
	if err != nil {
		t.Fatal(err)
	}
	// Rename test.fixed's fastest variant to a name nobody registered.
	s := strings.ReplaceAll(string(data), "BenchmarkTestFixed/isa=avx512vl/unroll=2/align=64 ", "BenchmarkTestFixed/isa=avx512vl/unroll=3/align=64 ")
	in := writeTemp(t, "unreg.txt", s)
	for _, format := range []string{"json", "go"} {
		out := filepath.Join(t.TempDir(), "table")
		stdout, stderr, code := runCLI(t, "export", "--format", format, "-o", out, in)
		if code != 1 || !strings.Contains(stderr, `variant "isa=avx512vl/unroll=3/align=64" is not registered`) {
			t.Errorf("export --format %s: exit %d, stderr %q; want a refusal naming the unregistered variant", format, code, stderr)
		}
		if _, err := os.Stat(out); err == nil || stdout != "" {
			t.Errorf("export --format %s wrote a table despite refusing", format)
		}
	}
}

// TestExportGoOfHostileIdentityCompiles covers identity text reaching
// ztable.go: the exported Go parses, is gofmt'd and holds none of the
// file's hostile text.
func TestExportGoOfHostileIdentityCompiles(t *testing.T) {
	for _, uarch := range []string{"Rocket Lake\u202e }; var x = 1 //\u2066", "*/ ANY TEXT", "Evil\"Vendor`"} {
		data, _ := withLine(t, fixtures+"zen4.txt", "uarch: ", "uarch: "+uarch)
		in := writeTemp(t, "hostile.txt", data)
		out := filepath.Join(t.TempDir(), "ztable.go")
		if _, stderr, code := runCLI(t, "export", "--format", "go", "-o", out, in); code != 0 {
			t.Fatalf("export of uarch %q: exit %d: %s", uarch, code, stderr)
		}
		src, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		checkGoSource(t, src)
		for _, s := range []string{"\u202e", "\u2066", "var x", "ANY TEXT", "Evil", "*/"} {
			if strings.Contains(string(src), s) {
				t.Errorf("ztable.go exported from uarch %q contains %q", uarch, s)
			}
		}
	}
}

// checkGoSource checks that src parses as Go, is gofmt'd and is
// printable ASCII.
func checkGoSource(t *testing.T, src []byte) {
	t.Helper()
	if _, err := parser.ParseFile(token.NewFileSet(), "ztable.go", src, parser.ParseComments); err != nil {
		t.Errorf("exported table does not parse: %v", err)
	}
	if f, err := format.Source(src); err != nil || !bytes.Equal(f, src) {
		t.Errorf("exported table is not gofmt'd (%v)", err)
	}
	for i, c := range src {
		if (c < ' ' || c > '~') && c != '\n' && c != '\t' {
			t.Fatalf("exported table byte %d is %#x, want printable ASCII", i, c)
		}
	}
}

// hasWarning reports whether stderr has a warning line starting with
// prefix (file:line: ) and containing want.
func hasWarning(stderr, prefix, want string) bool {
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "warning: "+prefix) && strings.Contains(l, want) {
			return true
		}
	}
	return false
}
