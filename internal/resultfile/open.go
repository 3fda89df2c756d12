package resultfile

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// Open opens the result file at path for reading. Only regular files
// (or symbolic links to them) are read: a directory, named pipe, socket
// or device is refused before anything is read from it, with an error
// saying what the path is.
func Open(path string) (*Reader, error) {
	f, _, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	r := NewReader(f, path)
	r.closer = f
	return r, nil
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
