package render

import (
	"io"
	"strings"
	"unicode/utf8"

	"github.com/agsh-dev/agsh/internal/termsafe"
)

// Safe returns s made safe for a terminal (docs/rendering.md#terminal-safety):
// CRLF becomes LF, and every other control character except newline and
// tab — C0 codes (a lone CR included), DEL and the C1 codes U+0080–U+009F —
// is shown as a visible escape (`\x1b`, `\x7f`, `\u009b`); bytes that are
// not valid UTF-8 are shown as `\xff`; the bidi controls and zero-width
// characters that reorder or hide text are shown as `\u202e`
// (internal/termsafe, the one escaping of every path to a terminal).
func Safe(s string) string { return termsafe.String(s) }

// isSafe reports whether s needs no change.
func isSafe(s string) bool { return termsafe.Clean(s) }

// appendSafe appends the safe form of s to dst.
func appendSafe(dst []byte, s string) []byte { return termsafe.Append(dst, s) }

// TerminalWriter makes everything written through it safe for a terminal
// (see Safe). It is stateful across Write calls: a CR at the end of one
// write followed by LF at the start of the next is a CRLF, and a UTF-8
// sequence split between writes is decoded whole. Call Flush at the end to
// write anything still held back.
type TerminalWriter struct {
	w       io.Writer
	pending []byte // a trailing CR or an incomplete UTF-8 sequence
	buf     []byte
}

// NewTerminalWriter wraps w so that everything written is made safe when tty
// is true; when tty is false, w itself is returned and bytes pass unchanged
// (piped output is data). The writer returned for a terminal is a
// *TerminalWriter: call its Flush when done.
func NewTerminalWriter(w io.Writer, tty bool) io.Writer {
	if !tty {
		return w
	}
	return &TerminalWriter{w: w}
}

// Write sanitizes p and writes it; it reports len(p) on success.
func (t *TerminalWriter) Write(p []byte) (int, error) {
	data := p
	if len(t.pending) > 0 {
		data = append(append([]byte(nil), t.pending...), p...)
		t.pending = t.pending[:0]
	}
	// Hold back a trailing CR (it may start a CRLF) or an incomplete rune.
	keep := incompleteTail(data)
	if keep == 0 && len(data) > 0 && data[len(data)-1] == '\r' {
		keep = 1
	}
	t.pending = append(t.pending, data[len(data)-keep:]...)
	data = data[:len(data)-keep]
	t.buf = appendSafe(t.buf[:0], string(data))
	if _, err := t.w.Write(t.buf); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes whatever was held back (a lone CR or a truncated UTF-8
// sequence), escaped.
func (t *TerminalWriter) Flush() error {
	if len(t.pending) == 0 {
		return nil
	}
	out := appendSafe(nil, string(t.pending))
	t.pending = t.pending[:0]
	_, err := t.w.Write(out)
	return err
}

// incompleteTail returns how many bytes at the end of b start a UTF-8
// sequence that is not complete yet (0 when none).
func incompleteTail(b []byte) int {
	for k := 1; k <= 3 && k <= len(b); k++ {
		c := b[len(b)-k]
		if c < 0x80 {
			return 0
		}
		if c >= 0xc0 { // a leading byte
			need := 0
			switch {
			case c >= 0xf0:
				need = 4
			case c >= 0xe0:
				need = 3
			default:
				need = 2
			}
			if need > k && !utf8.FullRune(b[len(b)-k:]) {
				return k
			}
			return 0
		}
	}
	return 0
}

// SafeLabel is Safe, for a name, a title, a table cell or help text: one
// escaping serves every path to a terminal.
func SafeLabel(s string) string { return Safe(s) }

// safeRendered is the last check on what the markdown renderer produced:
// with color, agsh's (glamour's) SGR sequences (ESC [ digits ; m) stay and
// every other control character is escaped as Safe does; without color
// nothing is kept.
func safeRendered(s string, color bool) string {
	if !color {
		return Safe(s)
	}
	if isSafe(s) {
		return s
	}
	out := make([]byte, 0, len(s)+16)
	for len(s) > 0 {
		i := strings.IndexByte(s, 0x1b)
		if i < 0 {
			break
		}
		out = appendSafe(out, s[:i])
		n := sgrLen(s[i:])
		if n == 0 {
			out = append(out, `\x1b`...)
			n = 1
		} else {
			out = append(out, s[i:i+n]...)
		}
		s = s[i+n:]
	}
	return string(appendSafe(out, s))
}

// sgrLen is the length of the SGR sequence at the start of s, 0 if there
// is none.
func sgrLen(s string) int {
	if len(s) < 3 || s[0] != 0x1b || s[1] != '[' {
		return 0
	}
	for i := 2; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9' || c == ';':
		case c == 'm':
			return i + 1
		default:
			return 0
		}
	}
	return 0
}
