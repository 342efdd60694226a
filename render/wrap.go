package render

import (
	"strings"
	"unicode"
)

// wrapText word-wraps plain text to width cells. Line breaks in s are kept,
// runs of blank lines collapse to one, tabs become four spaces, and each
// line's leading spaces are kept as its indentation (continuations too).
func wrapText(s string, width int) []string {
	var out []string
	blank := false
	for _, line := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n") {
		line = strings.TrimRight(strings.ReplaceAll(line, "\t", "    "), " ")
		if line == "" {
			blank = len(out) > 0
			continue
		}
		if blank {
			out = append(out, "")
			blank = false
		}
		indent := len(line) - len(strings.TrimLeft(line, " "))
		out = append(out, wrapLine(line[indent:], width, indent, indent)...)
	}
	return out
}

// token is a piece of a line to place: glued pieces follow the previous one
// without a space (a long `<a|b|c>` placeholder breaks after a `|`).
type token struct {
	text string
	glue bool
}

// breakable reports a space a line may break at: any Unicode space but
// the no-break space (U+00A0), which keeps what it joins on one line.
func breakable(r rune) bool { return r != '\u00a0' && unicode.IsSpace(r) }

// wrapLine word-wraps one line of text to width cells: the first line
// indented by first spaces, continuations by next. Breaks go at spaces and
// after `|`; a word is never broken: one wider than the room gets a line of
// its own, wider than the width.
func wrapLine(s string, width, first, next int) []string {
	if 2*first > width {
		first = 0
	}
	if 2*next > width {
		next = 0
	}
	var toks []token
	for _, word := range strings.FieldsFunc(s, breakable) {
		glue := false
		for word != "" {
			i := strings.IndexByte(word, '|')
			if i < 0 || i == len(word)-1 {
				toks = append(toks, token{word, glue})
				break
			}
			toks = append(toks, token{word[:i+1], glue})
			word = word[i+1:]
			glue = true
		}
	}
	var out []string
	var cur strings.Builder
	cur.WriteString(spaces(first))
	w, empty := first, true
	for _, t := range toks {
		tw := textWidth(t.text)
		sep := 1
		if t.glue || empty {
			sep = 0
		}
		if !empty && w+sep+tw > width {
			out = append(out, cur.String())
			cur.Reset()
			cur.WriteString(spaces(next))
			w, empty, sep = next, true, 0
		}
		if sep == 1 {
			cur.WriteByte(' ')
			w++
		}
		cur.WriteString(t.text)
		w += tw
		empty = false
	}
	if !empty {
		out = append(out, cur.String())
	}
	return out
}

// wordCut is where a line wider than room cells breaks without breaking a
// word: just after the last space that leaves at most room cells before
// it, else after the first space past room; -1 when the line fits, or has
// no space to break at (past its leading spaces). It reads the line only
// as far as the cut.
func wordCut(s string, room int) int {
	lead := len(s) - len(strings.TrimLeft(s, " "))
	cond := widthCond()
	w, last := 0, -1
	for i, r := range s {
		if i >= lead && r == ' ' {
			if w+1 > room && last >= 0 {
				return last
			}
			last = i + 1
			if w+1 > room {
				return last
			}
		}
		w += cond.RuneWidth(r)
		if w > room && last >= 0 {
			return last
		}
	}
	return -1
}
