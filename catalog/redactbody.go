package catalog

import (
	"io"
	"sort"
	"unicode/utf16"
	"unicode/utf8"
)

// minSecretBytes is the shortest secret an answer is scrubbed of (as
// minSecret for messages).
const minSecretBytes = minSecret

// secretMask replaces a secret in an answer.
var secretMask = []byte("***")

// redactReader masks every secret in what it reads with "***", in every
// spelling a JSON answer can give it: raw, or with any of its characters
// written as a JSON escape (`\u0074`, `\u00E9`, a surrogate pair, `\/`,
// `\\`, `\"`), so that no decoded string of the answer holds a secret. A
// secret split across reads is found too: a tail that could begin one is
// held back until more arrives or the reader ends. The underlying reader's
// error (io.EOF or another) is returned once everything before it was read.
type redactReader struct {
	r       io.Reader
	secrets []string
	first   [256]bool // bytes that can begin a spelled secret
	buf     []byte
	out     []byte
	held    []byte
	err     error
}

// newRedactReader wraps r; secrets shorter than minSecretBytes are ignored.
// With none left it returns r itself.
func newRedactReader(r io.Reader, secrets []string) io.Reader {
	rr := &redactReader{r: r}
	for _, s := range secrets {
		if len(s) >= minSecretBytes {
			rr.secrets = append(rr.secrets, s)
			rr.first[s[0]] = true
		}
	}
	if len(rr.secrets) == 0 {
		return r
	}
	// Longest first: a secret that begins another must not hide its tail.
	sort.SliceStable(rr.secrets, func(i, j int) bool { return len(rr.secrets[i]) > len(rr.secrets[j]) })
	rr.first['\\'] = true
	return rr
}

func (r *redactReader) Read(p []byte) (int, error) {
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
		// out is drained before the next read, so it may alias buf: what
		// was read is copied only when a held tail goes before it.
		data := r.buf[:n]
		if len(r.held) > 0 {
			data = append(r.held, data...)
		}
		r.held = nil
		var keep int
		r.out, keep = r.mask(data, err != nil)
		if keep > 0 {
			r.held = append([]byte(nil), data[len(data)-keep:]...)
		}
	}
	n := copy(p, r.out)
	r.out = r.out[n:]
	return n, nil
}

// mask returns data with every secret masked and how many bytes at its end
// could begin a secret (unless final: then none are held).
func (r *redactReader) mask(data []byte, final bool) ([]byte, int) {
	var out []byte
	copied := 0
	for i := 0; i < len(data); i++ {
		if !r.first[data[i]] {
			continue
		}
		for _, s := range r.secrets {
			end, st := spelled(data, i, s)
			if st == spellPartial && !final {
				if out == nil {
					return data[:i], len(data) - i
				}
				return append(out, data[copied:i]...), len(data) - i
			}
			if st == spellMatch {
				out = append(append(out, data[copied:i]...), secretMask...)
				copied = end
				i = end - 1
				break
			}
		}
	}
	if out == nil {
		return data, 0
	}
	return append(out, data[copied:]...), 0
}

// Results of spelled.
const (
	spellNo = iota
	spellMatch
	spellPartial // data ends inside what could still be the secret
)

// spelled reports whether data at i spells secret, each of its characters
// raw or JSON-escaped, and where the spelling ends.
func spelled(data []byte, i int, secret string) (int, int) {
	for j := 0; j < len(secret); {
		want, size := utf8.DecodeRuneInString(secret[j:])
		if i >= len(data) {
			return 0, spellPartial
		}
		if data[i] == '\\' {
			got, n, st := jsonEscape(data[i:])
			switch {
			case st == spellPartial:
				return 0, spellPartial
			case st == spellMatch && got == want:
				i += n
				j += size
				continue
			case want != '\\':
				return 0, spellNo
			}
			// A raw backslash of the secret (outside JSON text).
		}
		for k := 0; k < size; k++ {
			if i+k >= len(data) {
				return 0, spellPartial
			}
			if data[i+k] != secret[j+k] {
				return 0, spellNo
			}
		}
		i += size
		j += size
	}
	return i, spellMatch
}

// jsonEscape decodes the JSON escape at the start of b (b[0] is '\'): the
// character, its length, and spellMatch, spellNo (not an escape) or
// spellPartial (b ends inside it). A surrogate pair is one character.
func jsonEscape(b []byte) (rune, int, int) {
	if len(b) < 2 {
		return 0, 0, spellPartial
	}
	switch b[1] {
	case '"', '\\', '/':
		return rune(b[1]), 2, spellMatch
	case 'b':
		return '\b', 2, spellMatch
	case 'f':
		return '\f', 2, spellMatch
	case 'n':
		return '\n', 2, spellMatch
	case 'r':
		return '\r', 2, spellMatch
	case 't':
		return '\t', 2, spellMatch
	case 'u':
	default:
		return 0, 0, spellNo
	}
	r, st := hex4(b[2:])
	if st != spellMatch {
		return 0, 0, st
	}
	if !utf16.IsSurrogate(r) {
		return r, 6, spellMatch
	}
	if len(b) < 8 {
		return 0, 0, spellPartial
	}
	if b[6] != '\\' || b[7] != 'u' {
		return 0, 0, spellNo
	}
	lo, st := hex4(b[8:])
	if st != spellMatch {
		return 0, 0, st
	}
	dec := utf16.DecodeRune(r, lo)
	if dec == utf8.RuneError {
		return 0, 0, spellNo
	}
	return dec, 12, spellMatch
}

// hex4 reads four hex digits.
func hex4(b []byte) (rune, int) {
	var r rune
	for k := 0; k < 4; k++ {
		if k >= len(b) {
			return 0, spellPartial
		}
		c := b[k]
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, spellNo
		}
	}
	return r, spellMatch
}
