package resultfile

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// Open opens the result file at path for reading. Only regular files
// (or symbolic links to them) are read: a directory, named pipe, socket
// or device is refused before anything is read from it, with an error
// saying what the path is.
func Open(path string) (*Reader, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("opening result file: %w", err)
	}
	if err := checkRegular(path, fi); err != nil {
		return nil, err
	}
	// O_NONBLOCK: should path have become a FIFO since the Stat, opening
	// it must not wait for a writer; the Stat below refuses it.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("opening result file: %w", err)
	}
	if fi, err = f.Stat(); err == nil {
		err = checkRegular(path, fi)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	r := NewReader(f, path)
	r.closer = f
	return r, nil
}

// checkRegular refuses anything but a regular file.
func checkRegular(path string, fi fs.FileInfo) error {
	if fi.Mode().IsRegular() {
		return nil
	}
	return fmt.Errorf("%s: %s, not a regular file: expected a result file in the Go benchmark format", path, fileKind(fi.Mode()))
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
