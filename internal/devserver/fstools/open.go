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
	data, err = io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, false, err
	}
	if int64(len(data)) > max {
		return nil, false, nil
	}
	return data, true, nil
}
