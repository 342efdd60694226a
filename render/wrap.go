package render

import (
	"strings"
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

// wrapLine word-wraps one line of text to width cells: the first line
// indented by first spaces, continuations by next. Breaks go at spaces and
// after `|`; a word wider than the room is hard-cut.
func wrapLine(s string, width, first, next int) []string {
	if 2*first > width {
		first = 0
	}
	if 2*next > width {
		next = 0
	}
	var toks []token
	for _, word := range strings.Fields(s) {
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
	newLine := func() {
		out = append(out, cur.String())
		cur.Reset()
		cur.WriteString(spaces(next))
		w, empty = next, true
	}
	for _, t := range toks {
		tw := textWidth(t.text)
		sep := 1
		if t.glue || empty {
			sep = 0
		}
		if !empty && w+sep+tw > width {
			newLine()
			sep = 0
		}
		if sep == 1 {
			cur.WriteByte(' ')
			w++
		}
		// Only a word wider than a whole line gets here without room: cut it.
		text := t.text
		for w+tw > width && text != "" {
			head, rest := splitWidth(text, max(width-w, 1))
			cur.WriteString(head)
			text, tw = rest, textWidth(rest)
			newLine()
		}
		if text != "" {
			cur.WriteString(text)
			w += tw
			empty = false
		}
	}
	if !empty {
		out = append(out, cur.String())
	}
	return out
}

// splitWidth splits s after at most room cells (at least one rune).
func splitWidth(s string, room int) (string, string) {
	w := 0
	cond := widthCond()
	for i, r := range s {
		rw := cond.RuneWidth(r)
		if w+rw > room && i > 0 {
			return s[:i], s[i:]
		}
		w += rw
	}
	return s, ""
}
