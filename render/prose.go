package render

import "strings"

// wrapProse wraps the long lines of an MCP result's text part at spaces to
// width cells, for a terminal (docs/rendering.md#mcp-text-results). A word
// is never cut (one wider than the line stands alone on its line), and
// what is not prose is left as it is: a fenced code block (``` or ~~~), an
// indented line (a tab, or four spaces: code), and a line that looks like
// a table row (a `|` or box-drawing border, a tab, or columns aligned by
// runs of spaces). A wrapped line's continuations keep its indentation,
// and a list item's hang under its text. Line breaks, blank lines and the
// lines that fit are kept byte for byte.
func wrapProse(s string, width int) string {
	width = max(width, 20)
	if !proseTooWide(s, width) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/16)
	fence := ""
	for _, line := range strings.SplitAfter(s, "\n") {
		body := strings.TrimSuffix(line, "\n")
		nl := len(body) < len(line)
		t := strings.TrimLeft(body, " ")
		switch {
		case fence != "":
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
		case strings.HasPrefix(t, "```"), strings.HasPrefix(t, "~~~"):
			if len(body)-len(t) < 4 {
				fence = t[:3]
			}
		case textWidth(body) > width && !notProse(body):
			wrapProseLine(&b, strings.TrimRight(body, " "), width)
			if nl {
				b.WriteByte('\n')
			}
			continue
		}
		b.WriteString(line)
	}
	return b.String()
}

// proseTooWide reports a line of s wider than width (the common case,
// short lines, costs one pass and no copy).
func proseTooWide(s string, width int) bool {
	for s != "" {
		line, rest, _ := strings.Cut(s, "\n")
		// Bytes bound cells from above for all but wide characters: only
		// a long line is measured.
		if len(line) > width && textWidth(line) > width {
			return true
		}
		s = rest
	}
	return false
}

// notProse reports a line that wrapping would spoil: indented code, a
// table row, columns aligned with spaces.
func notProse(l string) bool {
	if strings.HasPrefix(l, "\t") || strings.HasPrefix(l, "    ") || strings.Contains(l, "\t") {
		return true
	}
	t := strings.TrimSpace(l)
	if strings.HasPrefix(t, "|") || strings.HasSuffix(t, "|") || strings.Count(t, " | ") >= 2 {
		return true
	}
	if strings.HasPrefix(t, "+-") || !ascii(t) && strings.ContainsAny(t, "│┃┆┊║╎") {
		return true
	}
	// Two or more runs of three spaces or more: columns.
	return strings.Count(t, "   ") >= 2 && len(strings.Fields(t)) >= 3 && aligned(t)
}

// aligned reports a line with at least two gaps of three or more spaces
// between its words.
func aligned(t string) bool {
	gaps := 0
	run := 0
	for i := 0; i < len(t); i++ {
		if t[i] == ' ' {
			run++
			continue
		}
		if run >= 3 {
			gaps++
		}
		run = 0
	}
	return gaps >= 2
}

// wrapProseLine writes one line to b wrapped at its spaces (no newline
// after the last piece): continuations indented like the line, and past a
// list marker ("- ", "* ", "• ", "1. ") under the item's text.
func wrapProseLine(b *strings.Builder, l string, width int) {
	indent := len(l) - len(strings.TrimLeft(l, " "))
	hang := indent + listMarker(l[indent:])
	if 2*hang > width {
		hang = 0
	}
	b.WriteString(l[:indent])
	w, empty := indent, true
	pending := 0 // spaces before the next word, written with it
	for rest := l[indent:]; rest != ""; {
		i := strings.IndexByte(rest, ' ')
		if i == 0 {
			pending++
			rest = rest[1:]
			continue
		}
		word := rest
		if i > 0 {
			word, rest = rest[:i], rest[i:]
		} else {
			rest = ""
		}
		ww := textWidth(word)
		if !empty && w+max(pending, 1)+ww > width {
			b.WriteByte('\n')
			b.WriteString(spaces(hang))
			w, empty, pending = hang, true, 0
		}
		if !empty {
			for range max(pending, 1) {
				b.WriteByte(' ')
			}
			w += max(pending, 1)
		}
		b.WriteString(word)
		w += ww
		empty, pending = false, 0
	}
}

// listMarker is the width of a list item's marker and its space at the
// start of t ("- ", "* ", "+ ", "• ", "12. ", "3) "), 0 when none.
func listMarker(t string) int {
	for _, m := range []string{"- ", "* ", "+ ", "• "} {
		if strings.HasPrefix(t, m) {
			return textWidth(m)
		}
	}
	k := 0
	for k < len(t) && k < 3 && t[k] >= '0' && t[k] <= '9' {
		k++
	}
	if k > 0 && k+1 < len(t) && (t[k] == '.' || t[k] == ')') && t[k+1] == ' ' {
		return k + 2
	}
	return 0
}

// ascii reports a string of ASCII bytes only.
func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
