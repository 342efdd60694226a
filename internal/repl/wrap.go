package repl

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/mattn/go-runewidth"
)

// wrap draws prompt followed by rs, the cursor in reverse video on rune
// index cur (cur == len(rs): a cell after the text; -1: no cursor), broken
// into rows of the terminal's width (bubbletea would cut longer rows).
// Control characters show as ^X; C1 and bidi controls and the zero-width
// space as \u escapes.
func (m *model) wrap(prompt string, rs []rune, cur int) []string {
	var rows []string
	var b strings.Builder
	b.WriteString(prompt)
	used := lipgloss.Width(prompt)
	put := func(cell string, w int, isCursor bool) {
		if m.width > 0 && used > 0 && used+w > m.width {
			rows = append(rows, b.String())
			b.Reset()
			used = 0
		}
		if isCursor {
			b.WriteString(cursorOn + cell + cursorOff)
		} else {
			b.WriteString(cell)
		}
		used += w
	}
	for i, r := range rs {
		cell, w := m.cellOf(r)
		put(cell, w, i == cur)
	}
	if cur == len(rs) {
		put(" ", 1, true)
	}
	return append(rows, b.String())
}

// drawn is s as the editor draws it, rune by rune (cellOf).
func (m *model) drawn(s string) string {
	plain := true
	for _, r := range s {
		if c, _ := m.cellOf(r); c != string(r) {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		c, _ := m.cellOf(r)
		b.WriteString(c)
	}
	return b.String()
}

// cellOf is how a rune of the line is drawn and how many columns it takes.
func (m *model) cellOf(r rune) (string, int) {
	switch {
	case r < 0x20:
		return "^" + string(r+'@'), 2
	case r == 0x7f:
		return "^?", 2
	case r >= 0x80:
		// A C1 control, a bidi control or a zero-width space (a name
		// completed from the deployment, a paste) shows escaped.
		if c := string(r); m.cfg.escape(c) != c {
			c = m.cfg.escape(c)
			return c, len(c)
		}
	}
	w := runewidth.RuneWidth(r)
	if w == 0 {
		// A combining mark: drawn with the cell before it.
		return string(r), 0
	}
	return string(r), w
}
