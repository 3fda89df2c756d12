package resultfile

import (
	"encoding/hex"
	"fmt"
	"io"
	"math"

	"golang.org/x/perf/benchfmt"
)

// MaxWarnings is how many warnings a Reader keeps per file; the rest are
// counted in one summary warning.
const MaxWarnings = 100

// A Reader reads a result file record by record in line order: result
// lines that passed every check, and tunelab's harness lines. Its API
// follows bufio.Scanner: call Scan until it returns false, then Err.
// A bad line is skipped with a warning ("file:line: what was expected")
// and does not stop the read; binary data, an over-long line or an I/O
// error does (Err).
type Reader struct {
	name     string
	closer   io.Closer
	feed     *feeder
	br       *benchfmt.Reader
	held     benchfmt.Record // the next benchfmt record, not yet returned
	eof      bool
	ids      identityState
	sizes    sizeCache
	res      *benchfmt.Result
	mark     *Mark
	line     int
	err      error
	warnings []string
	dropped  int // warnings beyond MaxWarnings
	// version counts the changes of the results' config (see
	// ConfigVersion).
	version uint64
	skipped int // bad result and syntax lines (see Skipped)
}

// NewReader returns a Reader of r; name (a path) prefixes messages.
// Open is the way to read a file: it refuses what is not a regular file.
func NewReader(r io.Reader, name string) *Reader {
	rd := &Reader{name: name, ids: newIdentityState(), sizes: sizeCache{}}
	rd.feed = newFeeder(r, name, rd.Warnf)
	rd.br = benchfmt.NewReader(rd.feed, name)
	return rd
}

// Scan advances to the next result or harness line and reports whether
// there is one.
func (r *Reader) Scan() bool {
	r.res, r.mark = nil, nil
	for r.err == nil {
		if r.held == nil && !r.eof {
			r.fill()
			continue
		}
		if c, ok := r.feed.nextComment(r.heldLine()); ok {
			r.mark, r.line = parseMark(c.fields), c.line
			return true
		}
		if r.held == nil {
			return false
		}
		rec := r.held
		r.held = nil
		if r.accept(rec) {
			return true
		}
	}
	return false
}

// fill reads the next benchfmt record into held, or notes the end.
func (r *Reader) fill() {
	if r.br.Scan() {
		r.held = r.br.Result()
		return
	}
	r.eof = true
	if r.feed.err != nil && r.feed.err != io.EOF {
		r.err = r.feed.err
	} else if err := r.br.Err(); err != nil {
		r.err = fmt.Errorf("reading %s: %w", r.name, err)
	}
}

// heldLine is the line of the held record (after every line at EOF).
func (r *Reader) heldLine() int {
	if r.held == nil {
		return math.MaxInt
	}
	_, line := r.held.Pos()
	return line
}

// accept checks a benchfmt record and makes it current if it is a
// usable result.
func (r *Reader) accept(rec benchfmt.Record) bool {
	_, line := rec.Pos()
	switch rec := rec.(type) {
	case *benchfmt.SyntaxError:
		r.skipped++
		r.Warnf(line, "%s (expected \"BenchmarkName iters value unit [value unit...]\")", rec.Msg)
	case *benchfmt.Result:
		if r.feed.passConfig(line) {
			r.version++
		}
		if err := r.check(rec); err != nil {
			r.skipped++
			r.Warnf(line, "%v: result skipped", err)
			return false
		}
		if !r.ids.check(rec, line, r.version, r.Warnf) {
			r.skipped++
			return false
		}
		r.res, r.line = rec, line
		return true
	}
	return false
}

// check is CheckResult with the names already checked cached.
func (r *Reader) check(res *benchfmt.Result) error {
	if err := checkValues(res); err != nil {
		return err
	}
	return r.sizes.check(res.Name)
}

// Result returns the result Scan read, or nil if it read a harness line.
// The result is valid until the next Scan (see benchfmt.Reader.Result):
// copy what you keep.
func (r *Reader) Result() *benchfmt.Result { return r.res }

// Mark returns the harness line Scan read, or nil if it read a result.
func (r *Reader) Mark() *Mark { return r.mark }

// Line returns the 1-based line number of what Scan read.
func (r *Reader) Line() int { return r.line }

// ConfigVersion returns a number that changes whenever the config of
// the results may have changed since the previous result Scan read (a
// config line came between them, or the reader left out a value):
// callers cache what they derive from a result's config per version.
func (r *Reader) ConfigVersion() uint64 { return r.version + r.ids.drops }

// Name returns the name (path) the reader reports lines with.
func (r *Reader) Name() string { return r.name }

// Warnf records a warning about line ("name:line: message"); callers
// report the lines they skip for their own reasons through it, so that
// all of a file's warnings share the cap.
func (r *Reader) Warnf(line int, format string, a ...any) {
	if len(r.warnings) >= MaxWarnings {
		r.dropped++
		return
	}
	r.warnings = append(r.warnings, fmt.Sprintf("%s:%d: %s", r.name, line, fmt.Sprintf(format, a...)))
}

// Warnings returns the warnings so far: at most MaxWarnings, then a
// summary of the ones left out and of the results skipped silently for
// an identity value already warned about.
func (r *Reader) Warnings() []string {
	out := r.warnings
	if r.dropped > 0 {
		out = append(out[:len(out):len(out)], fmt.Sprintf("%s: %d more warnings not shown (at most %d per file)", r.name, r.dropped, MaxWarnings))
	}
	if r.ids.skipped > 0 {
		out = append(out[:len(out):len(out)], fmt.Sprintf("%s: %d more results skipped for the identity values warned about above", r.name, r.ids.skipped))
	}
	return out
}

// Err returns the error that ended the read early: binary data, a line
// longer than MaxLineBytes, or an I/O error; nil at the end of the file.
func (r *Reader) Err() error { return r.err }

// Digest returns "sha256:<hex>" of the bytes read so far: the file's
// digest once Scan returned false and Err is nil.
func (r *Reader) Digest() string { return "sha256:" + hex.EncodeToString(r.feed.hash.Sum(nil)) }

// EndsMidLine reports whether the last line read had no newline (a
// record cut off while being written), once Scan returned false.
func (r *Reader) EndsMidLine() bool { return r.feed.midLine }

// Skipped returns how many result lines were skipped so far: malformed,
// with values out of range, or with an identity of the wrong shape
// (lines skipped for control characters are not counted: they need not
// be result lines).
func (r *Reader) Skipped() int { return r.skipped }

// Lines returns the number of lines read so far.
func (r *Reader) Lines() int { return r.feed.line }

// Close closes the file Open opened.
func (r *Reader) Close() error {
	if r.closer == nil {
		return nil
	}
	return r.closer.Close()
}
