package harness

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/harness/resultfile"
	"github.com/tunelab/tunelab/kernels/variant"
)

// interruptedFile runs a fake sweep that is interrupted in its second
// group, with mode=slow 30% slower than the others so that the race
// eliminates it, and returns the file's path and bytes.
func interruptedFile(t *testing.T) (string, []byte) {
	t.Helper()
	path := tempFile(t)
	means := map[string]float64{variant.GenericName: 100, "mode=fast/align=64": 100, "mode=slow/align=64": 130}
	fs := newFakeSweep(t, path, means)
	fs.cfg.Race.MinSamples = fs.cfg.Race.MaxSamples - 12 // one look, at 48 rounds: mode=slow is eliminated there
	fs.at = DefaultRaceParams.MaxSamples*3 + 10          // during group 2
	if rep := runFake(t, fs, testGroups(t, "")); !rep.Interrupted {
		t.Fatal("sweep not marked interrupted")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, data
}

func TestResumeRecordsEliminationsAndSegments(t *testing.T) {
	path, data := interruptedFile(t)
	if !bytes.Contains(data, []byte(resultfile.CommentPrefix+"segment 00000000000000aa 1\n")) {
		t.Errorf("no segment line for run 00000000000000aa #1 in:\n%s", firstLines(data, 30))
	}
	if n := bytes.Count(data, []byte(resultfile.CommentPrefix+resultfile.KindVariant+" ")); n == 0 {
		t.Errorf("no variant lines in:\n%s", firstLines(data, 30))
	}
	if !bytes.Contains(data, []byte(resultfile.CommentPrefix+resultfile.KindVariant+" "+testGroups(t, "")[0].Kernel.Name+" mode=fast/align=64 features=")) {
		t.Errorf("no variant line for mode=fast/align=64 in:\n%s", firstLines(data, 30))
	}
	res, err := ReadResume(path, resultfile.HostIdentityConfig("", ""))
	if err != nil {
		t.Fatal(err)
	}
	g1 := testGroups(t, "")[0].Key()
	if why, ok := res.Eliminated[g1]["mode=slow/align=64"]; !ok || !strings.Contains(why, "n=") {
		t.Errorf("Eliminated[%s] = %v, want mode=slow/align=64 with its sample count", g1, res.Eliminated[g1])
	}
	if res.Run.Segment != 2 {
		t.Errorf("resumed run's segment = %d, want 2 (one more than the file's)", res.Run.Segment)
	}
}

func TestResumeRefusesFilesItCannotExtend(t *testing.T) {
	_, data := interruptedFile(t)
	last := bytes.LastIndex(data[:len(data)-1], []byte("\nBenchmark"))
	changed := append(append(append([]byte{}, data[:last+1]...), "dispatch-key: GenuineIntel/0x06/0xcf\n"...), data[last+1:]...)
	reselected := append(append(append([]byte{}, data[:last+1]...), "sweep-budget: 1h0m0s\n"...), data[last+1:]...)
	nan := append(append(append([]byte{}, data[:last+1]...), "BenchmarkX/isa=generic 10 NaN ns/op\n"...), data[last+1:]...)
	foreign := "goos: linux\ngoarch: amd64\nBenchmarkEncode/format=json-48 690848 1726 ns/op\n"
	otherHost := [][2]string{{"features", "sse3,avx2"}}
	cases := []struct {
		name string
		data []byte
		want [][2]string
		err  string
	}{
		{"binary", append(append([]byte{}, data...), 0, 1, 2, '\n'), nil, "found binary data"},
		{"foreign", []byte(foreign), nil, "expected a run-id config line"},
		{"cut", data[:len(data)-3], nil, "ends mid-line"},
		{"other host", data, otherHost, "features is"},
		{"concatenated", append(append([]byte{}, data...), data...), nil, "repeats part of itself"},
		{"identity changed", changed, nil, "dispatch-key changed"},
		{"selection changed", reselected, nil, "sweep-budget changed"},
		{"NaN", nan, nil, "expected a finite ns/op value, got NaN"},
	}
	for _, c := range cases {
		path := filepath.Join(t.TempDir(), "r.txt")
		if err := os.WriteFile(path, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		want := c.want
		if want == nil {
			want = resultfile.HostIdentityConfig("", "")
		}
		_, err := ReadResume(path, want)
		if err == nil || !strings.Contains(err.Error(), c.err) || !strings.HasPrefix(err.Error(), path+":") {
			t.Errorf("%s: ReadResume error %v, want %s:LINE: ...%s...", c.name, err, path, c.err)
		}
	}
}

// TestResumeRefusesCompressedFiles: a sweep appends to plain files only.
func TestResumeRefusesCompressedFiles(t *testing.T) {
	_, data := interruptedFile(t)
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(data)
	zw.Close()
	path := filepath.Join(t.TempDir(), "r.txt.gz")
	if err := os.WriteFile(path, z.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadResume(path, resultfile.HostIdentityConfig("", "")); err == nil || !strings.Contains(err.Error(), path+" is compressed") {
		t.Errorf("ReadResume of a gzip file: %v, want it refused as compressed", err)
	}
}

func firstLines(data []byte, n int) string {
	lines := strings.SplitN(string(data), "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}

// TestResumeKeepsRounds checks that the sweep announces every round in
// the file and that a resumed sweep reads each sample's round back, so
// that the race pairs resumed samples as it paired them before.
func TestResumeKeepsRounds(t *testing.T) {
	path, data := interruptedFile(t)
	g1 := testGroups(t, "")[0].Key()
	if !bytes.Contains(data, []byte(resultfile.CommentPrefix+"round "+g1+" 1\n")) {
		t.Fatalf("no round line for %s round 1 in:\n%s", g1, firstLines(data, 40))
	}
	res, err := ReadResume(path, resultfile.HostIdentityConfig("", ""))
	if err != nil {
		t.Fatal(err)
	}
	fast, slow := res.Rounds[g1]["mode=fast/align=64"], res.Rounds[g1]["mode=slow/align=64"]
	if len(fast) != len(res.Samples[g1]["mode=fast/align=64"]) || len(slow) == 0 {
		t.Fatalf("rounds of %s: %d for %d samples (mode=fast), %d (mode=slow)", g1, len(fast), len(res.Samples[g1]["mode=fast/align=64"]), len(slow))
	}
	for k := range slow {
		if slow[k] != fast[k] || slow[k] != roundID(1, k+1) {
			t.Fatalf("sample %d: rounds %d (slow) and %d (fast), want both %d", k, slow[k], fast[k], roundID(1, k+1))
		}
	}
}
