package render

import (
	"strings"
	"unicode/utf8"
)

// escapeLen returns the length of the escape sequence at the start of s
// (CSI "ESC [ … final" or OSC "ESC ] … BEL/ST"), or 0 when s does not start
// with one.
func escapeLen(s string) int {
	if len(s) < 2 || s[0] != 0x1b {
		return 0
	}
	switch s[1] {
	case '[':
		for i := 2; i < len(s); i++ {
			if s[i] >= 0x40 && s[i] <= 0x7e {
				return i + 1
			}
		}
		return len(s)
	case ']':
		for i := 2; i < len(s); i++ {
			if s[i] == 0x07 {
				return i + 1
			}
			if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
		}
		return len(s)
	}
	return 2
}

// stripANSI removes escape sequences from s.
func stripANSI(s string) string {
	if !strings.Contains(s, "\x1b") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if n := escapeLen(s[i:]); n > 0 {
			i += n
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// displayWidth is the display width of s with escape sequences ignored.
func displayWidth(s string) int {
	return textWidth(stripANSI(s))
}

// trimRightANSI removes trailing whitespace, also where it sits before
// trailing escape sequences; when sequences were removed a reset is kept so
// no color leaks onto the next line.
func trimRightANSI(l string) string {
	peeled := false
	for {
		t := strings.TrimRight(l, " \t")
		if !strings.HasSuffix(t, "m") {
			l = t
			break
		}
		i := strings.LastIndex(t, "\x1b[")
		if i < 0 || escapeLen(t[i:]) != len(t)-i {
			l = t
			break
		}
		l = t[:i]
		peeled = true
	}
	if peeled && strings.Contains(l, "\x1b") {
		l += sgrReset
	}
	return l
}

// hardWrap splits a line wider than width cells into pieces of at most
// width cells, keeping escape sequences whole (they take no room). Each
// continuation keeps the line's indentation when that leaves room.
func hardWrap(l string, width int) []string {
	if displayWidth(l) <= width {
		return []string{l}
	}
	indent := len(l) - len(strings.TrimLeft(l, " "))
	if indent > width/2 {
		indent = 0
	}
	var out []string
	var cur strings.Builder
	w := 0
	cond := widthCond()
	for i := 0; i < len(l); {
		if n := escapeLen(l[i:]); n > 0 {
			cur.WriteString(l[i : i+n])
			i += n
			continue
		}
		r, size := decodeRune(l[i:])
		rw := cond.RuneWidth(r)
		if w+rw > width && w > indent {
			out = append(out, trimRightANSI(cur.String()))
			cur.Reset()
			cur.WriteString(spaces(indent))
			w = indent
		}
		cur.WriteString(l[i : i+size])
		w += rw
		i += size
	}
	if s := trimRightANSI(cur.String()); !visibleBlank(s) {
		out = append(out, s)
	}
	return out
}

// decodeRune decodes the first rune of s (utf8.RuneError, 1 for a bad byte).
func decodeRune(s string) (rune, int) {
	return utf8.DecodeRuneInString(s)
}
