package resultfile

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// header is the identity a sweep writes before its results.
const header = `cpu: AMD EPYC
cpu-vendor: AuthenticAMD
cpu-family: 0x19
cpu-model: 0x11
uarch: Zen 4
dispatch-key: AuthenticAMD/0x19/0x11
features: sse41,avx,avx2
feature-level: x86-64-v3
run-id: 00000000000000aa
tsc-hz: 2600000000
kernel: poly1305
`

// scanned is what a read returned: results by name with their line,
// harness lines, warnings and the error.
type scanned struct {
	results  []string // "line name ns/op"
	comments []string // "line field field..."
	warnings []string
	err      error
}

func scanString(t *testing.T, data string) (*Reader, scanned) {
	t.Helper()
	r := NewReader(strings.NewReader(data), "r.txt")
	var s scanned
	for r.Scan() {
		if m := r.Mark(); m != nil {
			s.comments = append(s.comments, fmt.Sprint(r.Line(), " ", strings.Join(m.Fields, " ")))
			continue
		}
		ns, _ := r.Result().Value("sec/op")
		s.results = append(s.results, fmt.Sprintf("%d %s %.6g", r.Line(), r.Result().Name, ns*1e9))
	}
	s.warnings, s.err = r.Warnings(), r.Err()
	return r, s
}

// warningAt returns the warning of line n, or "".
func (s scanned) warningAt(n int) string {
	for _, w := range s.warnings {
		if strings.HasPrefix(w, fmt.Sprintf("r.txt:%d: ", n)) {
			return w
		}
	}
	return ""
}

// TestImpossibleValuesAreSkipped covers issue 28's "impossible values
// pass" and the NaN that sent moremath into unbounded memory: each bad
// line is a warning naming file:line and what was expected, and never a
// result.
func TestImpossibleValuesAreSkipped(t *testing.T) {
	bad := []struct{ line, want string }{
		{"BenchmarkPoly1305/isa=generic/size=64 100 NaN ns/op", "expected a finite ns/op value, got NaN"},
		{"BenchmarkPoly1305/isa=generic/size=64 100 +Inf ns/op", "expected a finite ns/op value, got +Inf"},
		{"BenchmarkPoly1305/isa=generic/size=64 100 -5 ns/op", "expected ns/op between 1e-06 and 1e+14, got -5"},
		{"BenchmarkPoly1305/isa=generic/size=64 100 1e308 ns/op", "expected ns/op between 1e-06 and 1e+14, got 1e+308"},
		{"BenchmarkPoly1305/isa=generic/size=64 100 1e-320 ns/op", "expected ns/op between 1e-06 and 1e+14, got 1e-320"},
		{"BenchmarkPoly1305/isa=generic/size=64 100 0 ns/op", "expected ns/op between"},
		{"BenchmarkPoly1305/isa=generic/size=64 -1 5 ns/op", "expected an iteration count between 1 and 1000000000000, got -1"},
		{"BenchmarkPoly1305/isa=generic/size=64 0 5 ns/op", "expected an iteration count"},
		{"BenchmarkPoly1305/isa=generic/size=-1 100 5 ns/op", "expected /size=N with N between 1 and 1073741824 bytes, got size=-1"},
		{"BenchmarkPoly1305/isa=generic/size=0 100 5 ns/op", "got size=0"},
		{"BenchmarkPoly1305/isa=generic/size=99999999999 100 5 ns/op", "got size=99999999999"},
		{"BenchmarkPoly1305/isa=generic/size=64 100 5 ns/op NaN tsc-cycles/op", "expected a finite tsc-cycles/op value"},
		{"BenchmarkPoly1305/isa=generic/size=64 100 5 ns/op -3 tsc-cycles/op", "expected tsc-cycles/op between"},
		{"BenchmarkPoly1305/isa=generic/size=64 100 5 ns/op -1 instructions/op", "expected instructions/op between 0 and 1e+18, got -1"},
		{"BenchmarkPoly1305/isa=generic/size=64 100 5 ns/op 1e300 est-core-cycles/op", "expected est-core-cycles/op between"},
		{"BenchmarkPoly1305/isa=generic/size=64 100 5 tsc-cycles/op", "expected a ns/op value"},
		{"BenchmarkPoly1305/isa=generic/size=64 100 abc ns/op", "parsing measurement"},
	}
	var b strings.Builder
	b.WriteString(header)
	first := strings.Count(header, "\n") + 1
	for _, c := range bad {
		b.WriteString(c.line + "\n")
	}
	b.WriteString("BenchmarkPoly1305/isa=generic/size=64 100 5 ns/op 13 tsc-cycles/op 0 cache-misses/op\n")
	b.WriteString("BenchmarkPoly1305/isa=generic/size=1kB 100 7 ns/op\n") // a foreign size: a name, not a size
	_, s := scanString(t, b.String())
	if s.err != nil {
		t.Fatal(s.err)
	}
	for i, c := range bad {
		if w := s.warningAt(first + i); !strings.Contains(w, c.want) {
			t.Errorf("line %d %q: warning %q, want r.txt:%d: ...%s...", first+i, c.line, w, first+i, c.want)
		}
	}
	want := []string{
		fmt.Sprintf("%d Poly1305/isa=generic/size=64 5", first+len(bad)),
		fmt.Sprintf("%d Poly1305/isa=generic/size=1kB 7", first+len(bad)+1),
	}
	if fmt.Sprint(s.results) != fmt.Sprint(want) {
		t.Errorf("results %q, want only the good lines %q", s.results, want)
	}
}

// TestHarnessLinesInLineOrder checks that harness lines come between the
// results they were written between, with their line numbers, also
// beyond benchfmt's read-ahead.
func TestHarnessLinesInLineOrder(t *testing.T) {
	var b strings.Builder
	b.WriteString(CommentPrefix + "segment 00000000000000aa 1\n" + header)
	for i := range 3000 {
		fmt.Fprintf(&b, "BenchmarkPoly1305/isa=generic/size=64 100 %d ns/op\n", i+1)
		if i%1000 == 999 {
			fmt.Fprintf(&b, "%sdone poly1305/size=%d\n", CommentPrefix, i)
		}
	}
	_, s := scanString(t, b.String())
	if s.err != nil || len(s.warnings) > 0 || len(s.results) != 3000 {
		t.Fatalf("err %v, warnings %q, %d results; want 3000 results", s.err, s.warnings, len(s.results))
	}
	base := 1 + strings.Count(header, "\n")
	want := []string{"1 segment 00000000000000aa 1"}
	for k := 1; k <= 3; k++ {
		want = append(want, fmt.Sprintf("%d done poly1305/size=%d", base+1001*k, 1000*k-1))
	}
	if fmt.Sprint(s.comments) != fmt.Sprint(want) {
		t.Errorf("harness lines %q, want %q", s.comments, want)
	}
	if got, want := s.results[1000], fmt.Sprintf("%d Poly1305/isa=generic/size=64 1001", base+1002); got != want {
		t.Errorf("result after the first done line: %q, want %q", got, want)
	}
}

// TestHostileTextIsSkippedOrLeftOut feeds identity lines a hostile fleet
// node could write: bidirectional controls (Trojan Source), a comment
// terminator, quotes and backticks, a byte-order mark; none may reach a
// result's config.
func TestHostileTextIsSkippedOrLeftOut(t *testing.T) {
	cases := []struct {
		name, insert, want, key string
		kept                    bool
	}{
		{"bidi uarch", "uarch: Rocket Lake\u202e }; var x = 1 //\u2066\n", "control or formatting character U+202E", "uarch", true},
		{"isolate", "uarch: Zen\u2066 4\n", "U+2066", "uarch", true},
		{"comment terminator", "uarch: */ ANY TEXT\n", "uarch: expected a microarchitecture name", "uarch", true},
		{"quote in vendor", "dispatch-key: Evil\"Vendor`/0x19/0x11\n", "dispatch-key: dispatch key", "dispatch-key", false},
		{"BOM inside", "uarch: \ufeffZen 4\n", "U+FEFF", "uarch", true},
		{"escape", "cpu: \x1b[31mred\n", "U+001B", "cpu", true},
		{"bad feature", "features: avx2,\"x\n", "features: expected comma-separated feature names", "features", false},
		{"bad family", "cpu-family: 25\n", "cpu-family: expected 0x", "cpu-family", false},
		{"bad run-id", "run-id: a b\n", "run-id: expected a run-id", "run-id", false},
		{"bad level", "feature-level: v9\n", "feature-level: expected a feature level", "feature-level", true},
	}
	for _, c := range cases {
		data := header + c.insert + "BenchmarkPoly1305/isa=generic/size=64 100 5 ns/op\nBenchmarkPoly1305/isa=generic/size=64 100 6 ns/op\n"
		r := NewReader(strings.NewReader(data), "r.txt")
		var values []string
		n := 0
		for r.Scan() {
			n++
			values = append(values, r.Result().GetConfig(c.key))
		}
		line := strings.Count(header, "\n") + 1
		w := r.Warnings()
		if len(w) == 0 || !strings.HasPrefix(w[0], fmt.Sprintf("r.txt:%d: ", line)) && !strings.HasPrefix(w[0], fmt.Sprintf("r.txt:%d: ", line+1)) || !strings.Contains(w[0], c.want) {
			t.Errorf("%s: warnings %q, want r.txt:%d: ...%s...", c.name, w, line, c.want)
		}
		if len(w) > 2 {
			t.Errorf("%s: %d warnings %q, want the one (and a count of skipped results)", c.name, len(w), w)
		}
		if c.kept && n != 2 || !c.kept && n != 0 {
			t.Errorf("%s: %d results read, want %d", c.name, n, map[bool]int{true: 2, false: 0}[c.kept])
		}
		for _, v := range values {
			if strings.ContainsAny(v, "\u202e\u2066\ufeff\x1b*`\"") || strings.Contains(v, "ANY TEXT") || v == "v9" {
				t.Errorf("%s: %s config %q reached a result", c.name, c.key, v)
			}
		}
	}
}

func TestLeadingByteOrderMarkIsDropped(t *testing.T) {
	_, s := scanString(t, "\ufeff"+header+"BenchmarkPoly1305/isa=generic/size=64 100 5 ns/op\n")
	if s.err != nil || len(s.warnings) != 0 || len(s.results) != 1 {
		t.Errorf("file starting with a BOM: err %v, warnings %q, results %q; want its one result", s.err, s.warnings, s.results)
	}
}

func TestBinaryAndOverlongLinesStopTheRead(t *testing.T) {
	for _, c := range []struct{ name, data, want string }{
		{"zeros", strings.Repeat("\x00", 1<<20), "r.txt:1: found binary data"},
		{"invalid utf-8", header + "BenchmarkX 1 1 ns/op\n\xff\xfe\n", "r.txt:13: found binary data"},
		{"no newline", strings.Repeat("a", 3<<20), "r.txt:1: line longer than 65536 bytes"},
	} {
		_, s := scanString(t, c.data)
		if s.err == nil || !strings.Contains(s.err.Error(), c.want) {
			t.Errorf("%s: error %v, want %s", c.name, s.err, c.want)
		}
	}
}

func TestWarningsAreCapped(t *testing.T) {
	data := header + strings.Repeat("BenchmarkPoly1305/isa=generic/size=64 100 NaN ns/op\n", 5000)
	_, s := scanString(t, data)
	if len(s.warnings) != MaxWarnings+1 || !strings.Contains(s.warnings[MaxWarnings], "4900 more warnings not shown") {
		t.Errorf("%d warnings, last %q; want %d and a count of the rest", len(s.warnings), s.warnings[len(s.warnings)-1], MaxWarnings+1)
	}
}

func TestDigestAndCutOffEnd(t *testing.T) {
	data := header + "BenchmarkPoly1305/isa=generic/size=64 100 5 ns/op\nBenchmarkPoly1305/isa=gen"
	r, s := scanString(t, data)
	sum := sha256.Sum256([]byte(data))
	if got := r.Digest(); got != "sha256:"+hex.EncodeToString(sum[:]) {
		t.Errorf("Digest = %s, want the file's sha256", got)
	}
	if !r.EndsMidLine() || len(s.results) != 1 {
		t.Errorf("EndsMidLine %v with %d results, want true and 1", r.EndsMidLine(), len(s.results))
	}
}

// TestOpenRefusesWhatIsNotAFile covers "report /dev/zero" (8 GB in 10 s)
// and a FIFO (blocked forever): both are refused before any read.
func TestOpenRefusesWhatIsNotAFile(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		"/dev/zero":                           "a character device, not a regular file",
		fifo:                                  "a named pipe (FIFO), not a regular file",
		t.TempDir():                           "a directory, not a regular file",
		filepath.Join(t.TempDir(), "missing"): "no such file",
	} {
		done := make(chan error, 1)
		go func() {
			r, err := Open(path)
			if err == nil {
				r.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("Open(%s): %v, want an error saying %q", path, err, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("Open(%s) blocked", path)
		}
	}
	path := filepath.Join(t.TempDir(), "r.txt")
	os.WriteFile(path, []byte(header+"BenchmarkPoly1305/isa=generic/size=64 100 5 ns/op\n"), 0o644)
	link := path + ".link"
	os.Symlink(path, link)
	r, err := Open(link)
	if err != nil {
		t.Fatalf("Open(symlink to a file): %v", err)
	}
	defer r.Close()
	if !r.Scan() || r.Result() == nil {
		t.Errorf("no result read through a symlink: %v", r.Err())
	}
}
