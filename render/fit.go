package render

// minCells is the narrowest a column is shrunk to before columns are dropped.
const minCells = 4

// fitColumns fits columns of natural widths w into a line of width cells
// (two-space separators). The widest column is shrunk until it ties with the
// next widest, repeatedly, down to minCells; when the columns still do not
// fit, only the leading columns that do are kept. It returns the width of
// each kept column and how many are kept (at least one).
func fitColumns(w []int, width int) ([]int, int) {
	for k := len(w); k >= 1; k-- {
		if caps, ok := fitCap(w[:k], width); ok {
			return caps, k
		}
	}
	c := min(w[0], max(width, 1))
	return []int{c}, 1
}

// fitCap shrinks the widest columns of w (water-filling from the top) so the
// row fits width; false when it cannot fit with every column at minCells.
func fitCap(w []int, width int) ([]int, bool) {
	avail := width - 2*(len(w)-1)
	sumAt := func(c int) int {
		s := 0
		for _, x := range w {
			s += min(x, c)
		}
		return s
	}
	widest := 0
	for _, x := range w {
		widest = max(widest, x)
	}
	caps := make([]int, len(w))
	if sumAt(widest) <= avail {
		copy(caps, w)
		return caps, true
	}
	if sumAt(minCells) > avail {
		return nil, false
	}
	// Largest cap c in [minCells, widest) whose row fits.
	lo, hi := minCells, widest-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if sumAt(mid) <= avail {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	c := lo
	extra := avail - sumAt(c)
	// The cells left over go one each to the leftmost shrunk columns, as if
	// the shrinking had taken the rightmost of tied columns first.
	for i, x := range w {
		caps[i] = min(x, c)
		if x > c && extra > 0 {
			caps[i]++
			extra--
		}
	}
	return caps, true
}
