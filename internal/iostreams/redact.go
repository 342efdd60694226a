package iostreams

import (
	"bytes"
	"io"
	"sort"
)

// Redactor is a writer that replaces every occurrence of the secrets with
// "***" before passing bytes on, also when a secret is split across writes:
// a tail that could begin a secret is held back until the next Write or
// Flush. Secrets shorter than 4 bytes are ignored (they would mangle
// ordinary output without protecting anything).
type Redactor struct {
	w       io.Writer
	secrets [][]byte
	held    []byte
}

// NewRedactor wraps w. With no usable secret it still works, as a plain
// pass-through.
func NewRedactor(w io.Writer, secrets ...string) *Redactor {
	return &Redactor{w: w, secrets: usable(secrets)}
}

// usable are the secrets worth masking (4 bytes or more), longest first:
// a secret that begins another must not be masked first, which would leave
// the longer one's tail in the clear.
func usable(secrets []string) [][]byte {
	var out [][]byte
	for _, s := range secrets {
		if len(s) >= 4 {
			out = append(out, []byte(s))
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

var mask = []byte("***")

// redactChunk is how much of one Write is redacted at a time: a big write
// (a whole answer) is not copied whole.
const redactChunk = 64 << 10

// Write redacts p (joined with any held tail) and writes it on.
func (r *Redactor) Write(p []byte) (int, error) {
	if len(r.secrets) == 0 {
		return r.w.Write(p)
	}
	for off := 0; off < len(p); off += redactChunk {
		if err := r.write(p[off:min(len(p), off+redactChunk)]); err != nil {
			return off, err
		}
	}
	return len(p), nil
}

// write redacts one chunk of a Write. Without a held tail the chunk is
// read where it is: it is copied only when a secret is replaced.
func (r *Redactor) write(p []byte) error {
	buf := p
	if len(r.held) > 0 {
		buf = append(r.held, p...)
	}
	r.held = nil
	for _, s := range r.secrets {
		if bytes.Contains(buf, s) {
			buf = bytes.ReplaceAll(buf, s, mask)
		}
	}
	keep := r.partialTail(buf)
	out := buf[:len(buf)-keep]
	if keep > 0 {
		r.held = append([]byte(nil), buf[len(buf)-keep:]...)
	}
	if len(out) > 0 {
		if _, err := r.w.Write(out); err != nil {
			return err
		}
	}
	return nil
}

// partialTail is the length of the longest suffix of b that is a proper
// prefix of a secret.
func (r *Redactor) partialTail(b []byte) int { return partialTail(r.secrets, b) }

func partialTail(secrets [][]byte, b []byte) int {
	best := 0
	for _, s := range secrets {
		n := len(s) - 1
		if n > len(b) {
			n = len(b)
		}
		for ; n > best; n-- {
			if bytes.HasSuffix(b, s[:n]) {
				best = n
				break
			}
		}
	}
	return best
}

// Flush writes any held tail (it was not a secret after all).
func (r *Redactor) Flush() error {
	if len(r.held) == 0 {
		return nil
	}
	b := r.held
	r.held = nil
	_, err := r.w.Write(b)
	return err
}

// Redact returns s with every secret replaced by "***".
func Redact(s string, secrets ...string) string {
	for _, sec := range usable(secrets) {
		s = string(bytes.ReplaceAll([]byte(s), sec, mask))
	}
	return s
}
