package render

import (
	"strings"
	"sync"

	"github.com/mattn/go-runewidth"
)

// widthCond measures display widths the same way on every machine: East
// Asian ambiguous characters count one cell, wide CJK and emoji two, no
// matter the locale.
var widthCond = sync.OnceValue(func() *runewidth.Condition {
	c := runewidth.NewCondition()
	c.EastAsianWidth = false
	c.StrictEmojiNeutral = true
	return c
})

// textWidth is the display width of s (no escape sequences in s). A run
// of printable ASCII is one cell a byte, measured without the grapheme
// rules: only from the last ASCII character before the first other byte
// on (which a combining mark after it may join) is s measured cluster by
// cluster, as a whole line of a table row is mostly ASCII.
func textWidth(s string) int {
	n := asciiPrefix(s)
	if n == len(s) {
		return n
	}
	if n > 0 {
		n-- // the character a mark after it may join
	}
	return n + widthCond().StringWidth(s[n:])
}

// asciiPrefix is the length of s's leading run of printable ASCII.
func asciiPrefix(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return i
		}
	}
	return len(s)
}

// cut shortens s to at most w cells, ending in "…" when anything was cut.
// A cut inside the leading ASCII run is made there, without measuring the
// rest.
func cut(s string, w int) string {
	if w <= 0 {
		if s == "" {
			return s
		}
		return ""
	}
	if n := asciiPrefix(s); n > w || n == len(s) {
		if len(s) <= w {
			return s
		}
		// Each of the first w bytes is one cell: keep w-1 and the "…".
		return s[:w-1] + "…"
	}
	if textWidth(s) <= w {
		return s
	}
	return widthCond().Truncate(s, w, "…")
}

// spaces returns n spaces (none for n <= 0).
func spaces(n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat(" ", n)
}

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
