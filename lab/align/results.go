package align

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/perf/benchfmt"

	"github.com/tunelab/tunelab/harness/resultfile"
)

// WriteResults writes every sample of m in the result-file format
// (resultfile.Writer): the host config lines, each result's pkg, kernel,
// events and align-entry, then one line per sample named
// <Bench>/<variant>[/size=N] with ns/op, tsc-cycles/op,
// tsc-cycles/<unit> and <event>/op values. Harness lines record each
// arm's achieved placement and exclusions after the unit lines. Values and samples the
// result-file readers would refuse (a NaN or zero count, a zero time)
// are left out, so that every line written is read.
func WriteResults(w io.Writer, host [][2]string, m *Measurement) error {
	rw := resultfile.NewWriter(w, host)
	if err := rw.DeclareUnits(m.units()...); err != nil {
		return err
	}
	if err := writePlacements(rw, m); err != nil {
		return err
	}
	cfg := resultConfig(m)
	for i, arm := range m.Set.Arms {
		name := resultfile.BenchName(m.Set.Kernel.Bench, arm.Variant.Name, m.sizeOf())
		s := m.Samples[i]
		for j := range s.Ns {
			err := rw.Write(resultfile.Sample{Name: name, Config: cfg, Iters: s.Iters[j], Values: m.values(s, j)})
			if err != nil && !errors.Is(err, resultfile.ErrInvalid) {
				return err
			}
		}
	}
	return nil
}

// sizeOf returns the measured size of a kernel with sizes, else 0.
func (m *Measurement) sizeOf() int {
	if len(m.Set.Kernel.Sizes) == 0 {
		return 0
	}
	return m.Size
}

// resultConfig returns the config of m's results beyond the host's.
func resultConfig(m *Measurement) [][2]string {
	events := "none"
	if len(m.Events) > 0 {
		events = strings.Join(m.Events, ",")
	}
	return [][2]string{{"pkg", "github.com/tunelab/tunelab/kernels/" + m.Set.Kernel.Family},
		{"kernel", m.Set.Kernel.Name}, {"events", events}, {"align-entry", m.Entry}}
}

// values returns the values of sample j.
func (m *Measurement) values(s Samples, j int) []benchfmt.Value {
	k := m.Set.Kernel
	vals := []benchfmt.Value{{Value: s.Ns[j], Unit: "ns/op"}, {Value: s.TSC[j], Unit: "tsc-cycles/op"}}
	if k.Unit != "" && k.UnitsPerOp != nil {
		if u := k.UnitsPerOp(m.Size); u > 0 {
			vals = append(vals, benchfmt.Value{Value: s.TSC[j] / u, Unit: "tsc-cycles/" + k.Unit})
		}
	}
	if j < len(s.Events) {
		for e, c := range s.Events[j] {
			vals = append(vals, benchfmt.Value{Value: c, Unit: m.Events[e] + "/op"})
		}
	}
	return vals
}

// units returns the units of m's values.
func (m *Measurement) units() []string {
	units := []string{"ns/op", "tsc-cycles/op"}
	if k := m.Set.Kernel; k.Unit != "" && k.UnitsPerOp != nil {
		units = append(units, "tsc-cycles/"+k.Unit)
	}
	for _, e := range m.Events {
		units = append(units, e+"/op")
	}
	return units
}

// writePlacements writes one line per arm with its placement, and one
// per arm excluded with why.
func writePlacements(rw *resultfile.Writer, m *Measurement) error {
	for i, a := range m.Set.Arms {
		text := fmt.Sprintf("requested=%s head=%#x head%%64=%d body=%d lines-crossed=%d",
			a.Align, a.Place.Head, a.Place.Offset, a.Place.Size, a.Place.LinesCrossed)
		if a.Place.Err != "" {
			text = fmt.Sprintf("requested=%s unknown: %s", a.Align, a.Place.Err)
		}
		if err := rw.AlignPlacement(a.Variant.Name, text); err != nil {
			return err
		}
		if m.Excluded[i] == "" {
			continue
		}
		if err := rw.AlignExcluded(a.Variant.Name, m.Excluded[i]); err != nil {
			return err
		}
	}
	return nil
}

// WriteFileAtomic writes a file by calling write on a temporary file in
// the same directory, syncing it and renaming it to path, so a reader
// never sees a partial file. The directory is created if needed.
func WriteFileAtomic(path string, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating directory for %s: %w", path, err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("creating temporary file for %s: %w", path, err)
	}
	defer os.Remove(f.Name()) // no-op after a successful rename
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("syncing %s: %w", f.Name(), err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("closing %s: %w", f.Name(), err)
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		return fmt.Errorf("setting mode of %s: %w", f.Name(), err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("renaming %s to %s: %w", f.Name(), path, err)
	}
	return nil
}
