//go:build unix

package fstools

import (
	"io"
	"io/fs"
	"os"
	"syscall"
)

// openFlags opens without blocking: opening a FIFO (swapped in after a
// stat, or behind a symlink) must not wait for a writer.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK

// readFile is a regular file read by its descriptor alone: a regular file
// is never pollable, so an *os.File's registration with the poller (a
// refused epoll_ctl on every open), its finalizer and its locking buy
// nothing on read's path, which opens one file per call.
type readFile struct {
	fd   int
	name string
}

// openReadFile is openRegular for read: the file and its size, decided on
// the opened file; errors are the *fs.PathError os.Open gives.
func openReadFile(name string) (*readFile, int64, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(name, openFlags|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, 0, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	var st syscall.Stat_t
	for {
		if err = syscall.Fstat(fd, &st); err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		syscall.Close(fd)
		return nil, 0, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		syscall.Close(fd)
		return nil, 0, errNotRegular
	}
	return &readFile{fd: fd, name: name}, st.Size, nil
}

func (f *readFile) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		n, err := syscall.Read(f.fd, p)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, &fs.PathError{Op: "read", Path: f.name, Err: err}
		case n == 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

func (f *readFile) Seek(offset int64, whence int) (int64, error) {
	off, err := syscall.Seek(f.fd, offset, whence)
	if err != nil {
		return 0, &fs.PathError{Op: "seek", Path: f.name, Err: err}
	}
	return off, nil
}

func (f *readFile) Close() error { return syscall.Close(f.fd) }
