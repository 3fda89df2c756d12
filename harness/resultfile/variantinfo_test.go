package resultfile

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
)

// TestVariantLinesRoundTrip writes variant lines (each once per writer,
// however often it is described) and reads back what was written.
func TestVariantLinesRoundTrip(t *testing.T) {
	infos := []VariantInfo{
		{Kernel: "keccak.x4", Label: "isa=avx2/unroll=2/align=64", Features: []string{"avx2", "avx"}, CodeBytes: 4321},
		{Kernel: "keccak.x4", Label: "ext=circl", External: true},
		{Kernel: "aes128.enc", Label: "isa=aesni/align=64+8", Features: []string{"aes"}, CodeBytes: 700, OffsetSweep: true},
		{Kernel: "mlkem768.keygen", Label: "ntt=avx2/poly=avx2", Features: []string{"avx2"}, Operation: true},
	}
	var b strings.Builder
	w := NewWriter(&b, testConfig)
	for _, v := range append(infos, infos...) {
		if err := w.Variant(v); err != nil {
			t.Fatalf("Variant(%+v): %v", v, err)
		}
	}
	if n := strings.Count(b.String(), CommentPrefix+KindVariant+" "); n != len(infos) {
		t.Errorf("%d variant lines for %d variants described twice, want one each:\n%s", n, len(infos), b.String())
	}
	r := NewReader(strings.NewReader(b.String()), "v.txt")
	var got []VariantInfo
	for r.Scan() {
		if m := r.Mark(); m != nil && m.Variant != nil {
			if m.Err != nil {
				t.Errorf("variant line read with error %v", m.Err)
			}
			got = append(got, *m.Variant)
		}
	}
	infos[0].Features = []string{"avx", "avx2"} // written sorted
	if !reflect.DeepEqual(got, infos) {
		t.Errorf("read back %+v\nwant %+v", got, infos)
	}
}

// TestMalformedVariantLines: a variant line a writer does not write
// carries Err and no info.
func TestMalformedVariantLines(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"variant k", `expected "variant <kernel> <label>`},
		{"variant k isa=x features=avx2", "expected features= and code-bytes="},
		{"variant k isa=x code-bytes=12", "expected features= and code-bytes="},
		{"variant k isa=x features=- code-bytes=-1", "expected code-bytes between 0 and"},
		{"variant k isa=x features=- code-bytes=99999999999", "expected code-bytes between 0 and"},
		{"variant k isa=x features=AVX2 code-bytes=1", "expected comma-separated feature names"},
		{"variant k isa=x features=- code-bytes=1 sideways", `expected a flag (external, offset-sweep, operation), got "sideways"`},
	} {
		r := NewReader(strings.NewReader(CommentPrefix+c.line+"\n"), "v.txt")
		if !r.Scan() || r.Mark() == nil {
			t.Fatalf("%q: no harness line read", c.line)
		}
		m := r.Mark()
		if m.Err == nil || !strings.Contains(m.Err.Error(), c.want) || m.Variant != nil {
			t.Errorf("%q: err %v, info %+v; want an error saying %q and no info", c.line, m.Err, m.Variant, c.want)
		}
	}
	var b strings.Builder
	if err := NewWriter(&b, nil).Variant(VariantInfo{Kernel: "k", Label: "has space"}); err == nil || b.Len() > 0 {
		t.Errorf("Variant with a space in its label: err %v, wrote %q; want an error and nothing written", err, b.String())
	}
}

// TestCompressedFilesReadAsPlain: a gzip copy of a result file reads
// record for record as the file does, under its name, with the same
// digest; a corrupt stream is an error naming the file.
func TestCompressedFilesReadAsPlain(t *testing.T) {
	var plain strings.Builder
	w := NewWriter(&plain, testConfig)
	w.StartSegment("00000000000000aa", 1)
	w.Variant(VariantInfo{Kernel: "poly1305", Label: "isa=avx2", Features: []string{"avx2"}, CodeBytes: 9})
	for i := 1; i <= 3; i++ {
		w.Write(Sample{Name: BenchName("Poly1305", "isa=avx2", 64), Iters: 100, Values: []benchfmt.Value{{Value: float64(i), Unit: "ns/op"}}})
	}
	dir := t.TempDir()
	txt, gz := filepath.Join(dir, "r.txt"), filepath.Join(dir, "r.txt.gz")
	os.WriteFile(txt, []byte(plain.String()), 0o644)
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte(plain.String()))
	zw.Close()
	os.WriteFile(gz, z.Bytes(), 0o644)
	a, b := readFile(t, txt), readFile(t, gz)
	if !reflect.DeepEqual(a.records, b.records) || a.digest != b.digest || len(a.records) != 5 {
		t.Errorf("plain %q (%s)\ncompressed %q (%s)\nwant the same 5 records and digest", a.records, a.digest, b.records, b.digest)
	}
	if !IsCompressed(gz) || IsCompressed(txt) {
		t.Errorf("IsCompressed: %v for %s, %v for %s", IsCompressed(gz), gz, IsCompressed(txt), txt)
	}
	corrupt := z.Bytes()
	corrupt[len(corrupt)-6] ^= 0xff // the CRC
	bad := filepath.Join(dir, "bad.txt.gz")
	os.WriteFile(bad, corrupt, 0o644)
	r, err := Open(bad)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for r.Scan() {
	}
	if err := r.Err(); err == nil || !strings.Contains(err.Error(), "decompressing "+bad) {
		t.Errorf("corrupt gzip stream: Err %v, want an error naming %s", err, bad)
	}
}

// TestCompressedLinesHaveTheSameBounds: an over-long line is refused
// in a compressed file as in a plain one.
func TestCompressedLinesHaveTheSameBounds(t *testing.T) {
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(bytes.Repeat([]byte("a"), 3<<20))
	zw.Close()
	path := filepath.Join(t.TempDir(), "long.txt.gz")
	os.WriteFile(path, z.Bytes(), 0o644)
	if got := readFile(t, path); got.err == nil || !strings.Contains(got.err.Error(), "line longer than 65536 bytes") {
		t.Errorf("3 MiB line in a gzip file: %v, want the line-length error", got.err)
	}
}

type fileRead struct {
	records []string
	digest  string
	err     error
}

func readFile(t *testing.T, path string) fileRead {
	t.Helper()
	r, err := Open(path)
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	defer r.Close()
	var out fileRead
	for r.Scan() {
		if m := r.Mark(); m != nil {
			out.records = append(out.records, describe(m))
		} else {
			out.records = append(out.records, r.Result().Name.String())
		}
	}
	out.digest, out.err = r.Digest(), r.Err()
	return out
}

// TestVariantSetFingerprint: the same names in any order give one
// fingerprint, another name another.
func TestVariantSetFingerprint(t *testing.T) {
	a := VariantSetFingerprint([]string{"k isa=a", "k isa=b"})
	b := VariantSetFingerprint([]string{"k isa=b", "k isa=a"})
	c := VariantSetFingerprint([]string{"k isa=b", "k isa=c"})
	if a != b || a == c || !strings.HasSuffix(a, " n=2") || !strings.HasPrefix(a, "sha256:") {
		t.Errorf("fingerprints %q, %q (same names), %q (other): want equal, then different, with the count", a, b, c)
	}
}

// TestCheckoutRevision: in this checkout (tests run in the package
// folder, inside the module) the commit is found when git is there.
func TestCheckoutRevision(t *testing.T) {
	if _, err := os.Stat(filepath.Join("..", "..", ".git")); err != nil {
		t.Skip("not a git checkout: the commit cannot be found")
	}
	rev, _ := checkoutRevision("github.com/tunelab/tunelab")
	if len(rev) != 40 {
		t.Skipf("git gave no revision (%q): git missing?", rev)
	}
	if rev2, _ := checkoutRevision("example.com/other"); rev2 != "" {
		t.Errorf("checkoutRevision of another module = %q, want none", rev2)
	}
}

// TestQualityLines writes and reads back quality lines, and judges them.
func TestQualityLines(t *testing.T) {
	qs := []Quality{
		{Group: "poly1305/size=64", Attempts: 400, Discarded: 4, Stop: "settled"},
		{Group: "keccak.x4", Attempts: 100, Discarded: 15, KeptDisturbed: 10, Stop: "one arm left"},
		{Group: "aes128.enc/size=16", Attempts: 50, Stop: "budget"},
	}
	var b strings.Builder
	w := NewWriter(&b, testConfig)
	for _, q := range qs {
		if err := w.Quality(q); err != nil {
			t.Fatal(err)
		}
	}
	r := NewReader(strings.NewReader(b.String()), "q.txt")
	var got []Quality
	for r.Scan() {
		if m := r.Mark(); m != nil && m.Quality != nil {
			got = append(got, *m.Quality)
		}
	}
	if !reflect.DeepEqual(got, qs) {
		t.Errorf("read back %+v\nwant %+v\nfile:\n%s", got, qs, b.String())
	}
	for i, want := range [][2]bool{{false, false}, {true, false}, {false, true}} {
		if busy, short := qs[i].Busy(), qs[i].Short(); busy != want[0] || short != want[1] {
			t.Errorf("%+v: busy %v short %v, want %v %v", qs[i], busy, short, want[0], want[1])
		}
	}
	for _, bad := range []string{"quality g", "quality g attempts=1 discarded=2 kept-disturbed=0 stop=x", "quality g attempts=x discarded=0 kept-disturbed=0 stop=x", "quality g attempts=1 discarded=0 stop=x"} {
		r := NewReader(strings.NewReader(CommentPrefix+bad+"\n"), "q.txt")
		if !r.Scan() || r.Mark() == nil || r.Mark().Err == nil || r.Mark().Quality != nil {
			t.Errorf("%q: want an error and no quality", bad)
		}
	}
}
