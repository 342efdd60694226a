package render

import (
	"strings"
	"unicode/utf8"
)

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

// hardWrap splits a line wider than width cells at its spaces into pieces
// of at most width cells, keeping escape sequences whole (they take no
// room). A word is never broken: one wider than the room stays whole on a
// line of its own. Each continuation keeps the line's indentation when that
// leaves room.
func hardWrap(l string, width int) []string {
	if displayWidth(l) <= width {
		return []string{l}
	}
	indent := len(l) - len(strings.TrimLeft(l, " "))
	if indent > width/2 {
		indent = 0
	}
	// The line as words, each with the spaces before it; escape sequences
	// belong to the word they stand in or before.
	type word struct {
		sp, text string
		w        int
	}
	var words []word
	cond := widthCond()
	for i := 0; i < len(l); {
		j := i
		for j < len(l) && l[j] == ' ' {
			j++
		}
		k, w := j, 0
		for k < len(l) && l[k] != ' ' {
			if n := escapeLen(l[k:]); n > 0 {
				k += n
				continue
			}
			r, size := decodeRune(l[k:])
			w += cond.RuneWidth(r)
			k += size
		}
		words = append(words, word{sp: l[i:j], text: l[j:k], w: w})
		i = k
	}
	var out []string
	var cur strings.Builder
	cw := 0
	for n, wd := range words {
		if n > 0 && cw > indent && cw+len(wd.sp)+wd.w > width {
			out = append(out, trimRightANSI(cur.String()))
			cur.Reset()
			cur.WriteString(spaces(indent))
			cw = indent
		} else {
			cur.WriteString(wd.sp)
			cw += len(wd.sp)
		}
		cur.WriteString(wd.text)
		cw += wd.w
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

// dropEmptySGR removes color sequences that are reset before anything is
// printed ("\x1b[38;5;252m\x1b[0m"), which glamour emits by the dozen.
func dropEmptySGR(l string) string {
	if !strings.Contains(l, sgrReset) {
		return l
	}
	var b strings.Builder
	for i := 0; i < len(l); {
		n := escapeLen(l[i:])
		if n > 0 && l[i+n-1] == 'm' && strings.HasPrefix(l[i+n:], sgrReset) && l[i:i+n] != sgrReset {
			i += n // the reset that follows is kept: it is harmless
			continue
		}
		if n > 0 && l[i:i+n] == sgrReset && strings.HasPrefix(l[i+n:], sgrReset) {
			i += n
			continue
		}
		if n == 0 {
			n = 1
		}
		b.WriteString(l[i : i+n])
		i += n
	}
	return b.String()
}
