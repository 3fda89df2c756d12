package reports

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/tunelab/tunelab/kernels/dispatch"
)

// Go returns the table as the Go source of kernels/dispatch/ztable.go,
// formatted by dispatch.FormatTable. A default's Features there are only
// the features beyond its level.
func (t *Table) Go() ([]byte, error) {
	var entries []dispatch.Entry
	for _, e := range t.Entries {
		entries = append(entries, dispatch.Entry{Vendor: e.CPU.Vendor, Family: e.CPU.Family, Model: e.CPU.Model,
			Uarch: e.Uarch, Kernel: e.Kernel, Choices: dispatchChoices(e.Choices)})
	}
	var defaults []dispatch.Default
	for _, d := range t.Defaults {
		defaults = append(defaults, dispatch.Default{Level: d.Level, Features: beyondLevel(d.Level, d.Features),
			Kernel: d.Kernel, Choices: dispatchChoices(d.Choices)})
	}
	src, err := dispatch.FormatTable(entries, defaults, t.GeneratedFrom)
	if err != nil {
		return nil, fmt.Errorf("generating dispatch table: %w", err)
	}
	return src, nil
}

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
