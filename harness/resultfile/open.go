package resultfile

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// Open opens the result file at path for reading. Only regular files
// (or symbolic links to them) are read: a directory, named pipe, socket
// or device is refused before anything is read from it, with an error
// saying what the path is. A gzip-compressed file (by its magic bytes,
// whatever its name: the fleet's files are .txt.gz) is decompressed as
// it is read, under the same bounds as a plain file (one line at a time,
// at most MaxLineBytes); its Digest is that of the text it holds, so a
// file and its compressed copy have one digest.
func Open(path string) (*Reader, error) {
	f, _, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	src, err := decompressed(f, path)
	if err != nil {
		f.Close()
		return nil, err
	}
	r := NewReader(src, path)
	r.closer = f
	return r, nil
}

// gzipMagic starts every gzip stream (RFC 1952).
var gzipMagic = []byte{0x1f, 0x8b}

// decompressed returns f's text: f itself, or its gzip stream
// decompressed.
func decompressed(f *os.File, path string) (io.Reader, error) {
	br := bufio.NewReader(f)
	head, err := br.Peek(len(gzipMagic))
	if err != nil || !bytes.Equal(head, gzipMagic) {
		return br, nil // short or plain: the feeder reads it as text
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return gzipErrors{zr, path}, nil
}

// gzipErrors names the file in a decompression error.
type gzipErrors struct {
	r    io.Reader
	path string
}

func (g gzipErrors) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("decompressing %s: %w", g.path, err)
	}
	return n, err
}

// IsCompressed reports whether the file at path is a regular file that
// starts like a gzip stream (sweep --resume appends to plain files
// only); false for anything it cannot open without blocking.
func IsCompressed(path string) bool {
	f, _, err := openRegular(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(gzipMagic))
	n, _ := io.ReadFull(f, head)
	return n == len(head) && bytes.Equal(head, gzipMagic)
}

// ReadSmall reads all of a small input file that is not a result file
// (a dispatch table to merge): a regular file of at most limit bytes,
// else an error saying what it is.
func ReadSmall(path string, limit int64) ([]byte, error) {
	f, fi, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() > limit {
		return nil, fmt.Errorf("%s: %d bytes, expected at most %d", path, fi.Size(), limit)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(data)) > limit {
		err = fmt.Errorf("%s: more than %d bytes", path, limit)
	}
	return data, err
}

// openRegular opens path for reading if it is a regular file.
func openRegular(path string) (*os.File, fs.FileInfo, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, nil, fmt.Errorf("opening %s: %w", path, err)
	}
	if err := checkRegular(path, fi); err != nil {
		return nil, nil, err
	}
	// O_NONBLOCK: should path have become a FIFO since the Stat, opening
	// it must not wait for a writer; the Stat below refuses it.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("opening %s: %w", path, err)
	}
	if fi, err = f.Stat(); err == nil {
		err = checkRegular(path, fi)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// checkRegular refuses anything but a regular file.
func checkRegular(path string, fi fs.FileInfo) error {
	if fi.Mode().IsRegular() {
		return nil
	}
	return fmt.Errorf("%s: %s, not a regular file", path, fileKind(fi.Mode()))
}

// fileKind names the type of a file that is not regular.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	}
	return "a special file"
}
