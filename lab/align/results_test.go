package align

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
)

var testHost = [][2]string{{"goos", "linux"}, {"pkg", ""}, {"cpu", "Test CPU"}, {"uarch", "Zen 4"}, {"run-id", "00000000000000ff"}}

func TestWriteResultsReadable(t *testing.T) {
	m := synthetic([]int{0, 4}, func(o int) float64 { return 100 + float64(o) }, 110, 3, 0.01, 1)
	m.Events = []string{"opcache-misses"}
	for i := range m.Samples {
		for range m.Samples[i].Ns {
			m.Samples[i].Events = append(m.Samples[i].Events, []float64{float64(i)})
		}
	}
	var b bytes.Buffer
	if err := WriteResults(&b, testHost, m); err != nil {
		t.Fatal(err)
	}
	r := benchfmt.NewReader(bytes.NewReader(b.Bytes()), "test")
	names := map[string]int{}
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok {
			if se, isErr := r.Result().(*benchfmt.SyntaxError); isErr {
				t.Errorf("syntax error: %v", se)
			}
			continue
		}
		names[res.Name.String()]++
		for key, want := range map[string]string{"align-entry": "warm", "kernel": "keccak.x4", "events": "opcache-misses",
			"pkg": "github.com/tunelab/tunelab/kernels/keccak", "cpu": "Test CPU"} {
			if got := res.GetConfig(key); got != want {
				t.Errorf("%s: config %s = %q, want %q", res.Name, key, got, want)
			}
		}
		if _, ok := res.Value("tsc-cycles/perm"); !ok {
			t.Errorf("%s: no tsc-cycles/perm value", res.Name)
		}
		if _, ok := res.Value("opcache-misses/op"); !ok {
			t.Errorf("%s: no opcache-misses/op value", res.Name)
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	for _, arm := range m.Set.Arms {
		name := "KeccakX4/" + arm.Variant.Name
		if names[name] != 3 {
			t.Errorf("%d results named %s, want 3 (names: %v)", names[name], name, names)
		}
	}
	if !strings.Contains(b.String(), "# tunelab: align-placement "+testBase+"/align=64+4 requested=64+4 head=0x1004 head%64=4 body=100") {
		t.Errorf("no placement comment for align=64+4 in:\n%s", b.String())
	}
}

func TestWriteResultsSizedName(t *testing.T) {
	m := synthetic([]int{0}, func(int) float64 { return 10 }, 0, 1, 0, 1)
	k := *m.Set.Kernel
	k.Sizes, k.Bench = []int{16, 1024}, "AES128Enc"
	m.Set.Kernel, m.Size, m.Entry = &k, 1024, Cold
	var b bytes.Buffer
	if err := WriteResults(&b, testHost, m); err != nil {
		t.Fatal(err)
	}
	want := "BenchmarkAES128Enc/" + testBase + "/align=64/size=1024 1000 "
	if !strings.Contains(b.String(), want) || !strings.Contains(b.String(), "align-entry: cold") {
		t.Errorf("results lack %q or align-entry: cold:\n%s", want, b.String())
	}
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "out.txt")
	if err := WriteFileAtomic(path, func(w io.Writer) error { _, err := io.WriteString(w, "first"); return err }); err != nil {
		t.Fatal(err)
	}
	failing := func(w io.Writer) error { io.WriteString(w, "partial"); return errors.New("measurement failed") }
	if err := WriteFileAtomic(path, failing); err == nil {
		t.Error("WriteFileAtomic returned nil for a failing writer")
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != "first" {
		t.Errorf("after a failed rewrite the file holds %q (%v), want the first version", got, err)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only out.txt (temporary file left behind?)", len(entries))
	}
}
