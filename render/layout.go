package render

// Table layout by content (docs/rendering.md#table-layout): short columns
// keep their full width, all-empty columns are left out, the rest of the
// width goes to the free-text columns in proportion to their content, none
// below minFree; when that cannot fit, columns are dropped from the right.
// The first shown column is cut only when it alone exceeds the width.

const (
	// shortCells: a column whose every cell is at most this wide is short.
	shortCells = 20
	// minFree is the narrowest a free-text column is cut to.
	minFree = 10
)

// colStat is what the layout knows of one column.
type colStat struct {
	header    string // the header text (capitals, made safe)
	natural   int    // widest cell or header
	sum       int64  // total width of the cells
	nonEmpty  int    // cells that are not empty
	long      bool   // some cell is wider than shortCells
	nonAtomic bool   // some non-empty cell is neither a number, a boolean, a timestamp nor an id
}

func newColStat(header string) colStat {
	return colStat{header: header, natural: textWidth(header)}
}

// add counts one cell of the column.
func (st *colStat) add(t *tableData, c tcell) {
	b, w := t.text(c, &t.scratch)
	if w == 0 {
		return
	}
	st.nonEmpty++
	st.sum += int64(w)
	st.natural = max(st.natural, w)
	if w > shortCells {
		st.long = true
	}
	if !st.nonAtomic {
		switch t.data[c.start] {
		case '"':
			st.nonAtomic = !idOrTime(b)
		case '{', '[':
			st.nonAtomic = true
		}
	}
}

// short reports whether the column keeps its full width.
func (st *colStat) short() bool { return !st.long || !st.nonAtomic }

// tableLayout is the columns shown (indexes, in order) with their widths,
// and the columns with content that were left out for want of room.
type tableLayout struct {
	cols, caps []int
	dropped    []int
}

// layoutTable lays out columns of the given stats over rows rows in width
// cells (two-space separators).
func layoutTable(stats []colStat, rows, width int) tableLayout {
	width = max(width, 1)
	var vis []int
	for i := range stats {
		if stats[i].nonEmpty > 0 {
			vis = append(vis, i)
		}
	}
	if len(vis) == 0 {
		vis = []int{0} // nothing but blanks: the first column tells the row count
	}
	// No more columns than their narrowest widths allow: a hostile value
	// with a million keys costs one pass here, not a million layouts.
	kmax, need := 0, -2
	for _, c := range vis {
		st := &stats[c]
		least := st.natural
		if !st.short() {
			least = min(least, minFree)
		}
		if need += least + 2; need > width && kmax > 0 {
			break
		}
		kmax++
	}
	for k := kmax; k >= 1; k-- {
		if caps, ok := fitFree(stats, vis[:k], rows, width); ok {
			return tableLayout{cols: vis[:k], caps: caps, dropped: vis[k:]}
		}
	}
	return tableLayout{cols: vis[:1], caps: []int{min(stats[vis[0]].natural, width)}, dropped: vis[1:]}
}

// fitFree gives each column of cols its width, or false when they cannot
// share the line: the room left by the short columns is shared among the
// free-text columns in proportion to their mean width (a column never
// wider than its widest cell, the rest going to the others), and a share
// below minFree cells (or the column's natural width, when narrower) does
// not fit.
func fitFree(stats []colStat, cols []int, rows, width int) ([]int, bool) {
	caps := make([]int, len(cols))
	room := width - 2*(len(cols)-1)
	var free []int // positions in cols
	need := 0
	for i, c := range cols {
		st := &stats[c]
		if st.short() {
			caps[i] = st.natural
			room -= st.natural
			continue
		}
		free = append(free, i)
		need += min(st.natural, minFree)
	}
	if room < need {
		return nil, false
	}
	weight := func(i int) float64 {
		return max(float64(stats[cols[i]].sum)/float64(max(rows, 1)), 1)
	}
	at := func(level float64, i int) int {
		return min(int(level*weight(i)), stats[cols[i]].natural)
	}
	total := func(level float64) int {
		s := 0
		for _, i := range free {
			s += at(level, i)
		}
		return s
	}
	// The largest level whose widths fit the room (a level of L gives each
	// free column L times its mean width, up to its natural width).
	lo, hi := 0.0, 1.0
	for total(hi) <= room && hi < 1<<40 {
		lo, hi = hi, hi*2
	}
	for range 60 {
		mid := (lo + hi) / 2
		if total(mid) <= room {
			lo = mid
		} else {
			hi = mid
		}
	}
	used := 0
	for _, i := range free {
		caps[i] = at(lo, i)
		used += caps[i]
	}
	// The cells rounding left over go one each to the columns still cut,
	// from the left.
	for left := room - used; left > 0; {
		gave := false
		for _, i := range free {
			if left > 0 && caps[i] < stats[cols[i]].natural {
				caps[i]++
				left--
				gave = true
			}
		}
		if !gave {
			break
		}
	}
	for _, i := range free {
		if caps[i] < min(stats[cols[i]].natural, minFree) {
			return nil, false
		}
	}
	return caps, true
}

// idOrTime reports whether a cell's text is an RFC 3339 timestamp or an
// id-shaped token: a UUID, a hex string of six or more characters with a
// digit, or six or more digits.
func idOrTime(b []byte) bool {
	return isTimestamp(b) || isUUID(b) || isHexID(b)
}

func isHexID(b []byte) bool {
	if len(b) < 6 {
		return false
	}
	digit := false
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F':
		default:
			return false
		}
	}
	return digit
}

func isUUID(b []byte) bool {
	if len(b) != 36 {
		return false
	}
	for i, c := range b {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if c != '-' {
				return false
			}
		} else if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// isTimestamp checks RFC 3339's shape: 2026-11-28T09:00:00[.frac](Z|±hh:mm).
func isTimestamp(b []byte) bool {
	const shape = "dddd-dd-ddTdd:dd:dd"
	if len(b) < len(shape)+1 {
		return false
	}
	for i := 0; i < len(shape); i++ {
		c := b[i]
		switch shape[i] {
		case 'd':
			if c < '0' || c > '9' {
				return false
			}
		case 'T':
			if c != 'T' && c != 't' && c != ' ' {
				return false
			}
		default:
			if c != shape[i] {
				return false
			}
		}
	}
	rest := b[len(shape):]
	if rest[0] == '.' {
		n := 1
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		if n == 1 {
			return false
		}
		rest = rest[n:]
	}
	switch {
	case len(rest) == 1:
		return rest[0] == 'Z' || rest[0] == 'z'
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		return isDigits(rest[1:3]) && isDigits(rest[4:6])
	}
	return false
}

func isDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}
