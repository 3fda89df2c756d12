package export

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/tunelab/tunelab/kernels/dispatch"
)

func dispatchChoices(cs []Choice) []dispatch.Choice {
	out := make([]dispatch.Choice, len(cs))
	for i, c := range cs {
		out[i] = dispatch.Choice{MaxSize: c.MaxSize, Variant: c.Variant}
	}
	return out
}

// beyondLevel returns the features of fs that level does not need.
func beyondLevel(level string, fs []string) []string {
	for _, l := range levels {
		if l.name == level {
			return missing(fs, l.features)
		}
	}
	return fs
}

// WriteFileAtomic writes data to path through a temporary file in the same
// directory and a rename, so that path is never left half-written.
func WriteFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
