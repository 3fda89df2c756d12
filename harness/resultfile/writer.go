package resultfile

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"golang.org/x/perf/benchfmt"
)

// A Writer writes a result file: results in the Go benchmark format,
// each unit declared once before its first use (lower is better, no
// distributional assumption), and harness lines. It writes only what the
// Reader reads back: a sample whose values a reader would refuse is not
// written (ErrInvalid).
type Writer struct {
	w       io.Writer
	bw      *benchfmt.Writer
	config  []benchfmt.Config
	units   map[string]bool
	pending string // a segment line, written before anything else
	// described holds the kernel and label of the variants described
	// (Variant) in this writer's segment.
	described map[[2]string]bool
}

// ErrInvalid is the error (wrapped) of a sample Write refused because a
// reader would skip it (see CheckResult).
var ErrInvalid = errors.New("the readers would skip it")

// NewWriter returns a Writer of w whose results carry config (key,
// value: HostConfig's lines, say) before their own.
func NewWriter(w io.Writer, config [][2]string) *Writer {
	wr := &Writer{w: w, bw: benchfmt.NewWriter(w), units: map[string]bool{}, described: map[[2]string]bool{}}
	for _, kv := range config {
		wr.config = append(wr.config, benchfmt.Config{Key: kv[0], Value: []byte(kv[1]), File: true})
	}
	return wr
}

// StartSegment makes "segment run n" the first line w writes.
func (w *Writer) StartSegment(run string, n int) {
	w.pending = fmt.Sprintf("%s%s %s %d\n", CommentPrefix, KindSegment, run, n)
}

// A Sample is one result line to write.
type Sample struct {
	// Name is the benchmark name without "Benchmark" (BenchName).
	Name string
	// Config is the result's own config (key, value) after the
	// writer's: a key the writer has (such as "pkg") takes the new value
	// in its place, others follow in order.
	Config [][2]string
	Iters  int
	// Values are the sample's values, ns/op first. A later value a
	// reader would refuse (a NaN or zero count) is left out.
	Values []benchfmt.Value
}

// Write writes one result line. A sample a reader would skip (see
// CheckResult: a time out of range, no ns/op) is an error wrapping
// ErrInvalid, and nothing is written.
func (w *Writer) Write(s Sample) error {
	res := &benchfmt.Result{Name: benchfmt.Name(s.Name), Iters: s.Iters, Config: w.resultConfig(s.Config),
		Values: DropInvalid(s.Values)}
	if err := CheckResult(res); err != nil {
		return fmt.Errorf("writing results: %s: sample not written: %w", res.Name, invalidError{err})
	}
	if err := w.start(); err != nil {
		return err
	}
	if err := w.declareUnits(res.Values); err != nil {
		return err
	}
	return w.write(res)
}

// invalidError is a CheckResult error that Is ErrInvalid.
type invalidError struct{ err error }

func (e invalidError) Error() string        { return e.err.Error() }
func (e invalidError) Unwrap() error        { return e.err }
func (e invalidError) Is(target error) bool { return target == ErrInvalid }

// resultConfig returns the writer's config with own's applied.
func (w *Writer) resultConfig(own [][2]string) []benchfmt.Config {
	cfg := make([]benchfmt.Config, len(w.config), len(w.config)+len(own))
	copy(cfg, w.config)
	for _, kv := range own {
		c := benchfmt.Config{Key: kv[0], Value: []byte(kv[1]), File: true}
		if i := configIndex(cfg, kv[0]); i >= 0 {
			cfg[i] = c
		} else {
			cfg = append(cfg, c)
		}
	}
	return cfg
}

func configIndex(cfg []benchfmt.Config, key string) int {
	for i, c := range cfg {
		if c.Key == key {
			return i
		}
	}
	return -1
}

// declareUnits declares each unit of vals not declared yet.
func (w *Writer) declareUnits(vals []benchfmt.Value) error {
	units := make([]string, len(vals))
	for i, v := range vals {
		units[i] = v.Unit
	}
	return w.DeclareUnits(units...)
}

// DeclareUnits declares units not declared yet (lower is better, no
// distributional assumption) now; Write declares a sample's units before
// its line otherwise.
func (w *Writer) DeclareUnits(units ...string) error {
	for _, u := range units {
		if w.units[u] {
			continue
		}
		w.units[u] = true
		for _, kv := range [][2]string{{"better", "lower"}, {"assume", "nothing"}} {
			md := &benchfmt.UnitMetadata{UnitMetadataKey: benchfmt.UnitMetadataKey{Unit: u, Key: kv[0]}, OrigUnit: u, Value: kv[1]}
			if err := w.write(md); err != nil {
				return err
			}
		}
	}
	return nil
}

func (w *Writer) write(rec benchfmt.Record) error {
	if err := w.bw.Write(rec); err != nil {
		return fmt.Errorf("writing results: %w", err)
	}
	return nil
}

// start writes the pending segment line.
func (w *Writer) start() error {
	if w.pending == "" {
		return nil
	}
	_, err := io.WriteString(w.w, w.pending)
	w.pending = ""
	if err != nil {
		return fmt.Errorf("writing results: %w", err)
	}
	return nil
}

// Round writes "round group n".
func (w *Writer) Round(group string, n int) error {
	return w.mark(KindRound, group, fmt.Sprint(n))
}

// Done writes "done group".
func (w *Writer) Done(group string) error { return w.mark(KindDone, group) }

// Eliminated writes "eliminated group label n=N why".
func (w *Writer) Eliminated(group, label string, n int, why string) error {
	return w.mark(KindEliminated, group, label, fmt.Sprintf("n=%d", n), why)
}

// Excluded writes "excluded group label why".
func (w *Writer) Excluded(group, label, why string) error {
	return w.mark(KindExcluded, group, label, why)
}

// Variant writes the variant line of v (KindVariant) unless this writer
// wrote one for v's kernel and label already: a sweep calls it before
// each result, so that every segment describes the variants it measured.
func (w *Writer) Variant(v VariantInfo) error {
	key := [2]string{v.Kernel, v.Label}
	if w.described[key] {
		return nil
	}
	v.Features = slices.Sorted(slices.Values(v.Features))
	if err := v.check(); err != nil {
		return fmt.Errorf("writing results: variant line of %s %s: %w", v.Kernel, v.Label, err)
	}
	w.described[key] = true
	return w.mark(KindVariant, v.args()...)
}

// Quality writes the quality line of a finished group (KindQuality).
func (w *Writer) Quality(q Quality) error { return w.mark(KindQuality, q.args()...) }

// AlignPlacement writes "align-placement label text".
func (w *Writer) AlignPlacement(label, text string) error {
	return w.mark(KindAlignPlacement, label, text)
}

// AlignExcluded writes "align-excluded label why".
func (w *Writer) AlignExcluded(label, why string) error {
	return w.mark(KindAlignExcluded, label, why)
}

// mark writes a harness line of kind with args, space-separated.
func (w *Writer) mark(kind string, args ...string) error {
	if err := w.start(); err != nil {
		return err
	}
	line := CommentPrefix + kind
	for _, a := range args {
		line += " " + a
	}
	if _, err := io.WriteString(w.w, line+"\n"); err != nil {
		return fmt.Errorf("writing results: %w", err)
	}
	return nil
}

// Sync makes what was written durable when the sink is a file.
func (w *Writer) Sync() error {
	if f, ok := w.w.(interface{ Sync() error }); ok {
		return f.Sync()
	}
	return nil
}
