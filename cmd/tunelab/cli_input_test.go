package main

import (
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tunelab/tunelab/kernels/variant"
)

// wantUsage runs tunelab with args and checks it exits 2 with every one
// of wants in its stderr.
func wantUsage(t *testing.T, args []string, wants ...string) {
	t.Helper()
	_, stderr, code := runCLI(t, args...)
	if code != 2 {
		t.Errorf("tunelab %q: exit %d, want 2 (stderr %q)", args, code, stderr)
	}
	for _, w := range wants {
		if !strings.Contains(stderr, w) {
			t.Errorf("tunelab %q: stderr %q lacks %q", args, stderr, w)
		}
	}
}

func TestParseSize(t *testing.T) {
	for s, want := range map[string]int{"0": 0, "16": 16, "1024": 1024, "67108864": maxSize} {
		if n, err := parseSize(s); err != nil || n != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", s, n, err, want)
		}
	}
	for _, s := range []string{"", "016", "0x10", "1e3", "16x", "16 32", " 16", "-1", "+16", "1KiB", "67108865", "99999999999", "99999999999999999999999"} {
		if n, err := parseSize(s); err == nil {
			t.Errorf("parseSize(%q) = %d, want an error", s, n)
		}
	}
}

// sizeCommands are the commands that take --size, with the flags they
// need to get as far as checking it.
var sizeCommands = [][]string{
	{"sweep", "--kernel", "aes128.enc"},
	{"verify", "--kernel", "aes128.enc"},
	{"align", "--kernel", "aes128.enc"},
	{"profile", "--kernel", "aes128.enc", "--top"},
	{"mca", "--kernel", "aes128.enc"},
}

func TestSizeRejectsNonDecimal(t *testing.T) {
	for _, c := range sizeCommands {
		for _, bad := range []string{"016", "1e3", "16x", "16 32", "99999999999"} {
			wantUsage(t, append(c[:len(c):len(c)], "--size", bad), "size", `"`+bad+`"`)
		}
	}
	wantUsage(t, []string{"verify", "--kernel", "aes128.enc", "--size", "16,016"}, "--size", `"016"`)
}

func TestSizeKernelCannotRun(t *testing.T) {
	// mca selects variants with a generated loop first: under purego it
	// finds none and says so before looking at the size.
	asm := variant.Lookup("calib", "isa=amd64/eps=0/align=64") != nil
	for _, c := range sizeCommands {
		if c[0] == "mca" && !asm {
			continue
		}
		wantUsage(t, append(c[:len(c):len(c)], "--size", "17"), "--size 17", "aes128.enc", "multiple of 16")
	}
	wantUsage(t, []string{"verify", "--kernel", "poly1305,aes256.dec", "--size", "64,100"}, "aes256.dec", "multiple of 16")
	if _, err := selection("poly1305", "", "17", false); err != nil {
		t.Errorf("poly1305 at 17 bytes: %v", err)
	}
}

func TestSweepBudgetMustBePositive(t *testing.T) {
	for _, b := range []string{"-5s", "0s"} {
		wantUsage(t, []string{"sweep", "--kernel", "calib", "--budget", b}, "--budget "+b, "positive")
	}
	wantUsage(t, []string{"selftest", "--budget", "-5s"}, "--budget -5s")
}

func TestPatternMatchingNothing(t *testing.T) {
	for _, c := range [][]string{
		{"sweep", "--kernel", "aes128.enc", "--variant", "isa=nomatch*"},
		{"sweep", "--variant", "isa=nomatch*"},
		{"verify", "--kernel", "aes128.enc", "--variant", "isa=nomatch*"},
		{"align", "--kernel", "aes128.enc", "--variant", "isa=nomatch*"},
		{"profile", "--kernel", "aes128.enc", "--variant", "isa=nomatch*", "--top"},
		{"mca", "--kernel", "aes128.enc", "--variant", "isa=nomatch*"},
	} {
		wantUsage(t, c, "isa=nomatch*")
	}
	for _, name := range []string{"sweep", "verify", "list", "align", "profile", "mca"} {
		args := []string{name, "--kernel", "no.such.kernel"}
		if name == "profile" {
			args = append(args, "--top")
		}
		wantUsage(t, args, "no.such.kernel")
	}
}

func TestUnknownFlagIsOneLine(t *testing.T) {
	for name, c := range commands {
		if c.hidden {
			continue
		}
		_, stderr, code := runCLI(t, name, "--no-such-flag")
		if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "-no-such-flag") ||
			!strings.Contains(stderr, "tunelab "+name+" -h") {
			t.Errorf("tunelab %s --no-such-flag: exit %d, stderr %q; want exit 2 and one line naming the flag and -h", name, code, stderr)
		}
	}
	_, stderr, code := runCLI(t, "sweep", "-h")
	if code != 0 || !strings.Contains(stderr, "Usage: tunelab sweep") || !strings.Contains(stderr, "-budget duration") {
		t.Errorf("tunelab sweep -h: exit %d, stderr %q; want the full flag documentation", code, stderr)
	}
}

// TestParseNoArgs checks that parseNoArgs parses flags and refuses a
// positional argument as a usage error; cpu and list, cheap to run if
// they did not, show that commands use it.
func TestParseNoArgs(t *testing.T) {
	e := &env{stdout: io.Discard, stderr: io.Discard}
	fs := newFlags(e, "x", "x [--n N]")
	n := fs.Int("n", 0, "a number")
	if err := parseNoArgs(fs, []string{"--n", "3"}); err != nil || *n != 3 {
		t.Errorf("parseNoArgs(--n 3) = %v, n %d; want nil, 3", err, *n)
	}
	var u *usageError
	if err := parseNoArgs(fs, []string{"--n", "4", "extra"}); !errors.As(err, &u) || !strings.Contains(err.Error(), `x: unexpected argument "extra"`) {
		t.Errorf("parseNoArgs(--n 4 extra) = %v, want a usage error naming the argument", err)
	}
	for _, name := range []string{"cpu", "list"} {
		wantUsage(t, []string{name, "extra"}, name+": unexpected argument", `"extra"`)
	}
}

// TestDecisionFlags checks that report and export take the winner rule's
// --alpha and --threshold.
func TestDecisionFlags(t *testing.T) {
	for _, name := range []string{"report", "export"} {
		wantUsage(t, []string{name, "--alpha", "0.01", "--threshold", "0.02"}, name+": no result files")
		wantUsage(t, []string{name, "--alpha", "x"}, "-alpha")
	}
}

func TestReportMCANull(t *testing.T) {
	for _, js := range []string{`{"Results":[null]}`, `{"MCPUs":["znver4"],"Results":[{"Kernel":"test.fixed","Variant":"x","Predictions":[null]}]}`} {
		path := filepath.Join(t.TempDir(), "mca.json")
		if err := os.WriteFile(path, []byte(js), 0o644); err != nil {
			t.Fatal(err)
		}
		html := filepath.Join(t.TempDir(), "r.html")
		wantUsage(t, []string{"report", "--mca", path, "--html", html, fixtures + "zen4.txt"}, path, "is null", "want a")
	}
}

func TestResumeFlags(t *testing.T) {
	fs := flag.NewFlagSet("sweep", flag.ContinueOnError)
	fs.String("kernel", "", "")
	fs.String("variant", "", "")
	fs.String("size", "", "")
	fs.Duration("budget", time.Minute, "")
	fs.Bool("offset-sweep", false, "")
	fs.String("o", "", "")
	fs.String("resume", "", "")
	args := []string{"--kernel", "aes128.enc,poly1305", "--variant", "isa=avx512*/align=64", "--size", "16, 64", "--budget", "90s",
		"--offset-sweep", "-o", "r.txt", "--resume", "r.txt"}
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(resumeFlags(fs), " ")
	want := `--budget 1m30s --kernel aes128.enc,poly1305 --offset-sweep=true --size '16, 64' --variant 'isa=avx512*/align=64'`
	if got != want {
		t.Errorf("resumeFlags = %s\nwant          %s", got, want)
	}
	if q := shellQuote("it's"); q != `'it'\''s'` {
		t.Errorf("shellQuote(it's) = %s", q)
	}
}

// TestResumeRefusesForeignFiles checks that --resume onto a file the
// sweep cannot extend is a usage error naming the file, and that the file
// is left byte for byte as it was.
func TestResumeRefusesForeignFiles(t *testing.T) {
	dir := t.TempDir()
	foreign := "goos: linux\nBenchmarkEncode/format=json-48 690848 1726 ns/op\n"
	recordedData, err := os.ReadFile(recorded)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"binary.txt":  "\x00\x01\x02 not text\n",
		"foreign.txt": foreign,
		"cut.txt":     string(recordedData[:len(recordedData)-5]),
		"twice.txt":   string(recordedData) + string(recordedData),
	}
	for name, data := range files {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		_, stderr, code := runCLI(t, "sweep", "--kernel", "calib", "--budget", "1s", "--resume", path)
		if code != 2 || !strings.Contains(stderr, path+":") || !strings.Contains(stderr, "unchanged") {
			t.Errorf("sweep --resume %s: exit %d, stderr %q; want exit 2 naming %s:LINE", name, code, stderr, path)
		}
		if after, _ := os.ReadFile(path); string(after) != data {
			t.Errorf("sweep --resume %s changed the file", name)
		}
	}
}
