package render

import "strings"

// hangListItems gives wrapped list items a hanging indent. Glamour wraps a
// long item's text back to the bullet's column ("• get: one item by id;
// fails when it is" then "gone" under the bullet), so the lines that
// continue an item (same indentation as its bullet, not an item themselves,
// up to the next blank line) are re-wrapped under the item's text, two
// cells in for "• ", four for "12. ". Lines are measured without their
// escape sequences, so this works with color on or off.
func hangListItems(lines []string, width int) []string {
	out := make([]string, 0, len(lines))
	itemIndent, hang := -1, 0
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if visibleBlank(l) {
			itemIndent = -1
			out = append(out, l)
			continue
		}
		ind, m := itemMarker(stripANSI(l))
		if m > 0 {
			itemIndent, hang = ind, m
			out = append(out, l)
			continue
		}
		if ind != itemIndent {
			out = append(out, l)
			continue
		}
		var words []string
		k := i
		for ; k < len(lines) && !visibleBlank(lines[k]); k++ {
			p := stripANSI(lines[k])
			if ind2, m2 := itemMarker(p); m2 > 0 || ind2 != itemIndent {
				break
			}
			words = append(words, strings.Fields(lines[k])...)
		}
		out = append(out, fillWords(words, itemIndent+hang, width)...)
		i = k - 1
	}
	return out
}

// itemMarker returns the indentation of a plain line and the display width
// of the list marker it starts with ("• " or "12. "), 0 when it is not a
// list item.
func itemMarker(p string) (indent, marker int) {
	t := strings.TrimLeft(p, " ")
	indent = len(p) - len(t)
	if strings.HasPrefix(t, "• ") {
		return indent, 2
	}
	k := 0
	for k < len(t) && k < 4 && t[k] >= '0' && t[k] <= '9' {
		k++
	}
	if k > 0 && strings.HasPrefix(t[k:], ". ") {
		return indent, k + 2
	}
	return indent, 0
}

// fillWords fills lines of at most width cells with words (which may carry
// escape sequences), each line indented by indent spaces. A word wider than
// the room gets a line of its own (hardWrap cuts it later).
func fillWords(words []string, indent, width int) []string {
	if 2*indent > width {
		indent = 0
	}
	var out []string
	var cur strings.Builder
	w := 0
	for _, word := range words {
		ww := displayWidth(word)
		if ww == 0 { // escape sequences only: glue them to the text before
			cur.WriteString(word)
			continue
		}
		if w > 0 && indent+w+1+ww > width {
			out = append(out, trimRightANSI(spaces(indent)+cur.String()))
			cur.Reset()
			w = 0
		}
		if w > 0 {
			cur.WriteByte(' ')
			w++
		}
		cur.WriteString(word)
		w += ww
	}
	if w > 0 {
		out = append(out, trimRightANSI(spaces(indent)+cur.String()))
	}
	return out
}
