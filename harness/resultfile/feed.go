package resultfile

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxLineBytes bounds the length of one line of a result file (a
// sweep's longest lines are a few hundred bytes).
const MaxLineBytes = 64 << 10

// CommentPrefix starts tunelab's harness lines in a result file; benchfmt
// readers (and benchstat) ignore them.
const CommentPrefix = "# tunelab: "

// bom is the UTF-8 byte-order mark an editor may put before line 1.
const bom = "\ufeff"

// A harnessLine is a "# tunelab: " line: its line number and its fields
// after the prefix (split on spaces into at most 4).
type harnessLine struct {
	line   int
	fields []string
}

// A feeder reads a file line by line, checks each line, and hands the
// lines benchfmt should parse to a benchfmt.Reader through Read
// (harness lines and skipped lines become empty lines, so that benchfmt's
// line numbers stay the file's). Harness lines are queued in order.
type feeder struct {
	name     string
	src      *bufio.Reader
	hash     hash.Hash
	line     int    // lines read so far
	pending  []byte // bytes of the current line not yet handed out
	comments []harnessLine
	// configLines are the numbers of the lines handed to benchfmt that
	// are not result lines (config, unit and other lines), not yet
	// passed by the reader: they may change the results' config.
	configLines []int
	err         error // io.EOF at the end; a fatal error otherwise
	midLine     bool  // the last line had no newline
	warn        func(line int, format string, a ...any)
}

func newFeeder(r io.Reader, name string, warn func(int, string, ...any)) *feeder {
	return &feeder{name: name, src: bufio.NewReaderSize(r, MaxLineBytes), hash: sha256.New(), warn: warn}
}

var newline = []byte("\n")

// Read hands out the checked lines; it returns the fatal error (or
// io.EOF) once every line before it was handed out.
func (f *feeder) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(f.pending) == 0 {
			if f.err != nil {
				break
			}
			f.next()
			continue
		}
		c := copy(p[n:], f.pending)
		f.pending, n = f.pending[c:], n+c
	}
	if n == 0 && f.err != nil {
		return 0, f.err
	}
	return n, nil
}

// next reads one line and sets pending to what benchfmt should see of it.
func (f *feeder) next() {
	raw, err := f.src.ReadSlice('\n')
	switch {
	case errors.Is(err, bufio.ErrBufferFull):
		f.fail(f.line+1, raw, fmt.Errorf("%s:%d: line longer than %d bytes: expected a result file in the Go benchmark format", f.name, f.line+1, MaxLineBytes))
		return
	case err == io.EOF && len(raw) == 0:
		f.err = io.EOF
		return
	case err != nil && err != io.EOF:
		f.err = fmt.Errorf("reading %s: %w", f.name, err)
		return
	}
	f.line++
	f.hash.Write(raw)
	f.midLine = err == io.EOF
	f.pending = f.check(raw)
}

// fail records a fatal error at line, preferring the binary-data error
// when the partial line already shows binary data.
func (f *feeder) fail(line int, partial []byte, err error) {
	if isBinary(partial) {
		err = binaryError(f.name, line)
	}
	f.err = err
}

// check returns what benchfmt should see of one raw line: the line, or
// an empty line for a harness line (queued) or a skipped line.
func (f *feeder) check(raw []byte) []byte {
	text := bytes.TrimSuffix(bytes.TrimSuffix(raw, newline), []byte("\r"))
	if f.line == 1 && bytes.HasPrefix(text, []byte(bom)) {
		text = text[len(bom):]
		raw = append(append([]byte{}, text...), '\n')
	}
	if isBinary(text) {
		f.err = binaryError(f.name, f.line)
		return nil
	}
	if r, ok := firstUnprintable(text); ok {
		f.warn(f.line, "control or formatting character %U in the line: line skipped (expected printable text; bidirectional controls, byte-order marks and the like could disguise what a line says)", r)
		return newline
	}
	if c, ok := bytes.CutPrefix(text, []byte(CommentPrefix)); ok {
		f.comments = append(f.comments, harnessLine{f.line, strings.SplitN(string(c), " ", 4)})
		return newline
	}
	if len(text) > 0 && !bytes.HasPrefix(text, []byte("Benchmark")) {
		f.configLines = append(f.configLines, f.line)
	}
	return raw
}

// passConfig drops the queued config lines before line and reports
// whether there were any.
func (f *feeder) passConfig(line int) bool {
	n := 0
	for n < len(f.configLines) && f.configLines[n] < line {
		n++
	}
	f.configLines = f.configLines[n:]
	return n > 0
}

// nextComment pops the first queued harness line if it comes before
// line before.
func (f *feeder) nextComment(before int) (harnessLine, bool) {
	if len(f.comments) == 0 || f.comments[0].line >= before {
		return harnessLine{}, false
	}
	c := f.comments[0]
	f.comments = f.comments[1:]
	return c, true
}

// isBinary reports whether b holds a NUL byte or invalid UTF-8 (a cut
// multi-byte sequence at the end of a partial line counts too).
func isBinary(b []byte) bool {
	return bytes.IndexByte(b, 0) >= 0 || !utf8.Valid(b)
}

func binaryError(name string, line int) error {
	return fmt.Errorf("%s:%d: found binary data (a NUL byte or invalid UTF-8): expected a text file in the Go benchmark format", name, line)
}

// firstUnprintable returns the first rune of text that is a control
// character other than tab, or a Unicode format or line/paragraph
// separator character (category Cf, Zl, Zp: bidirectional controls,
// byte-order marks, zero-width characters).
func firstUnprintable(text []byte) (rune, bool) {
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if c < ' ' && c != '\t' || c == 0x7f {
				return rune(c), true
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(text[i:])
		if unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp) {
			return r, true
		}
		i += n
	}
	return 0, false
}
