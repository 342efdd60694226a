package render

import (
	"slices"
	"unicode/utf8"
)

// UniquePrefixWidth is the display width of the shortest prefix that keeps
// the different ids apart: the longest prefix two of them share, and one
// more character (0 for fewer than two different ids). An id column is
// never cut below it (docs/console.md#the-timeline).
func UniquePrefixWidth(ids []string) int {
	sorted := slices.Clone(ids)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	need := 0
	for i := 1; i < len(sorted); i++ {
		a, b := sorted[i-1], sorted[i]
		n := 0
		for n < len(a) && n < len(b) && a[n] == b[n] {
			n++
		}
		// One character more than the shared bytes, in whole runes (b is
		// the greater, so it has a byte at n).
		for n > 0 && !utf8.RuneStart(b[n]) {
			n--
		}
		_, size := utf8.DecodeRuneInString(b[n:])
		need = max(need, textWidth(b[:n+size]))
	}
	return need
}
