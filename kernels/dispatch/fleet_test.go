package dispatch

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// moduleRoot is the module's root, from this package's folder.
const moduleRoot = "../.."

// sourceLine is a "Generated from:" line of ztable.go naming a file.
var sourceLine = regexp.MustCompile(`^//\t(sha256:[0-9a-f]{64}) (results/fleet/[^ ]+)( \(legacy base\))?$`)

// TestTableIsTheFleet checks that ztable.go names exactly the files of
// results/fleet, each with the digest of its text (a gzip file's
// decompressed text): the table is a function of the committed fleet,
// and go generate ./kernels/dispatch (run by CI, which then requires a
// clean tree) rebuilds it from them.
func TestTableIsTheFleet(t *testing.T) {
	src, err := os.ReadFile("ztable.go")
	if err != nil {
		t.Fatal(err)
	}
	named := map[string]string{}
	for _, line := range strings.Split(string(src), "\n") {
		if m := sourceLine.FindStringSubmatch(line); m != nil {
			named[m[2]] = m[1]
		} else if strings.HasPrefix(line, "//\tsha256:") {
			t.Errorf("ztable.go source %q does not name a file of results/fleet", line)
		}
	}
	fleet, err := filepath.Glob(filepath.Join(moduleRoot, "results/fleet/*"))
	if err != nil || len(fleet) == 0 {
		t.Fatalf("no files in results/fleet (%v)", err)
	}
	var files []string
	for _, path := range fleet {
		name := "results/fleet/" + filepath.Base(path)
		if !strings.HasSuffix(name, ".txt") && !strings.HasSuffix(name, ".txt.gz") && !strings.HasSuffix(name, ".json") {
			continue
		}
		files = append(files, name)
		want, ok := named[name]
		if !ok {
			t.Errorf("%s is in the fleet but ztable.go was not generated from it (go generate ./kernels/dispatch)", name)
			continue
		}
		if got := textDigest(t, path); got != want {
			t.Errorf("%s has digest %s, ztable.go names %s (go generate ./kernels/dispatch)", name, got, want)
		}
	}
	for name := range named {
		if !slices.Contains(files, name) {
			t.Errorf("ztable.go names %s, which the fleet does not hold", name)
		}
	}
}

// textDigest returns "sha256:<hex>" of a file's text, decompressing a
// gzip file.
func textDigest(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}
