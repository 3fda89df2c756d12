package gofile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWrite checks that Write formats what it writes and refuses source
// that does not parse, naming the file.
func TestWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "z.go")
	if err := Write(path, []byte("package z\nvar  x=1\n"), "table"); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := "package z\n\nvar x = 1\n"; string(got) != want {
		t.Errorf("wrote %q, want %q", got, want)
	}
	err = Write(path, []byte("package z\nvar x =\n"), "table")
	if err == nil || !strings.Contains(err.Error(), "formatting table "+path) {
		t.Errorf("unparsable source: error %v", err)
	}
}
