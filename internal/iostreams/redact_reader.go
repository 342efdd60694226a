package iostreams

import (
	"bytes"
	"io"
)

// RedactReader is a reader that replaces every occurrence of the secrets in
// what it reads with "***", also when a secret is split across reads: a
// tail that could begin a secret is held back until more arrives or the
// underlying reader ends. Secrets shorter than 4 bytes are ignored, as
// Redactor does. The underlying reader's error (io.EOF or another) is
// returned unchanged once everything before it has been read.
type RedactReader struct {
	r       io.Reader
	secrets [][]byte
	buf     []byte // scratch for reads from r
	out     []byte // redacted bytes ready to be read
	held    []byte // a tail that could begin a secret
	err     error
}

// NewRedactReader wraps r. With no usable secret it reads r unchanged.
func NewRedactReader(r io.Reader, secrets ...string) *RedactReader {
	return &RedactReader{r: r, secrets: usable(secrets)}
}

// Read implements io.Reader.
func (r *RedactReader) Read(p []byte) (int, error) {
	if len(r.secrets) == 0 {
		return r.r.Read(p)
	}
	for len(r.out) == 0 {
		if r.err != nil {
			if len(r.held) == 0 {
				return 0, r.err
			}
			r.out, r.held = r.held, nil
			break
		}
		if r.buf == nil {
			r.buf = make([]byte, 32<<10)
		}
		n, err := r.r.Read(r.buf)
		r.err = err
		data := append(r.held, r.buf[:n]...)
		r.held = nil
		for _, s := range r.secrets {
			if bytes.Contains(data, s) {
				data = bytes.ReplaceAll(data, s, mask)
			}
		}
		keep := 0
		if err == nil {
			keep = partialTail(r.secrets, data)
		}
		if keep > 0 {
			r.held = append([]byte(nil), data[len(data)-keep:]...)
		}
		r.out = data[:len(data)-keep]
	}
	n := copy(p, r.out)
	r.out = r.out[n:]
	return n, nil
}
