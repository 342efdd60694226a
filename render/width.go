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

// textWidth is the display width of s (no escape sequences in s).
func textWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return widthCond().StringWidth(s)
		}
	}
	return len(s)
}

// cut shortens s to at most w cells, ending in "…" when anything was cut.
func cut(s string, w int) string {
	if textWidth(s) <= w {
		return s
	}
	if w <= 0 {
		return ""
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

// Options says how to render for one stream.
type Options struct {
	// TTY: the stream is a terminal, so foreign text is made safe (Safe).
	TTY bool
	// Color: agsh may add color sequences.
	Color bool
	// Width: the terminal's width, else COLUMNS, else 80; 0 means 80.
	Width int
}

// width returns the width to render to (80 when unset).
func (o Options) width() int {
	if o.Width <= 0 {
		return 80
	}
	return o.Width
}

// clean returns the function applied to foreign text: Safe on a terminal,
// the identity otherwise.
func (o Options) clean() func(string) string {
	if o.TTY {
		return Safe
	}
	return func(s string) string { return s }
}

// ANSI sequences agsh adds itself (after sanitizing).
const (
	sgrBold  = "\x1b[1m"
	sgrRed   = "\x1b[31m"
	sgrCyan  = "\x1b[36m"
	sgrReset = "\x1b[0m"
)
