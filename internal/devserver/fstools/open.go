package fstools

import (
	"errors"
	"io"
	"os"
)

// errNotRegular is openRegular's refusal of a FIFO, a device, a socket or a
// directory.
var errNotRegular = errors.New("not a regular file")

// openRegular opens name for reading only if it is a regular file, decided
// on the opened file (no window for a swap between a stat and the open).
func openRegular(name string) (*os.File, os.FileInfo, error) {
	f, err := os.OpenFile(name, openFlags, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, errNotRegular
	}
	return f, fi, nil
}

// readRegular reads a regular file of at most max bytes; ok is false (and
// nothing read) when it is larger.
func readRegular(name string, max int64) (data []byte, ok bool, err error) {
	f, fi, err := openRegular(name)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	if fi.Size() > max {
		return nil, false, nil
	}
	return readSized(f, fi.Size(), max)
}

// readSized reads the rest of f, whose stat said size bytes, in one read
// into a buffer of that size (and one byte more, so that the end shows
// without growing it); a file that grew since is read on, up to max bytes.
// ok is false when it holds more than max.
func readSized(f io.Reader, size, max int64) (data []byte, ok bool, err error) {
	return readSizedInto(make([]byte, 0, min(size, max)+1), f, size, max)
}

// readSizedInto is readSized into buf (room for more than size bytes); f
// is a regular file whose stat said size.
func readSizedInto(buf []byte, f io.Reader, size, max int64) (data []byte, ok bool, err error) {
	for {
		if len(buf) == cap(buf) {
			if int64(len(buf)) > max {
				return nil, false, nil
			}
			buf = append(buf, 0)[:len(buf)]
		}
		room := cap(buf) - len(buf)
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, false, err
		}
		if n > 0 && n < room && size > 0 && int64(len(buf)) == size {
			// The size the stat said, and a read short of the room: the
			// file's end, so its read of nothing is spared. (A file whose
			// stat says 0, as /proc's do, is read to its end of file.)
			break
		}
	}
	if int64(len(buf)) > max {
		return nil, false, nil
	}
	return buf, true, nil
}
