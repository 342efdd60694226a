package render

import (
	"math/bits"
	"strings"

	"github.com/agsh-dev/agsh/internal/jsontext"
)

// Table layout by content (docs/rendering.md#table-layout). The layout of
// every width is a prefix of one sequence of steps fixed by the content, so
// a wider line never shows fewer columns or narrower cells than a narrower
// one:
//
//  1. the first column, cut only when it alone is wider than the line;
//  2. the column that names the rows (nameColumn), up to nameCells;
//  3. every other column, empty ones too, left to right, at its least width
//     (a short column whole, an abbreviated id at abbrevCells, a free-text
//     column at minFree or its own width when narrower), then a free-text
//     one grown up to shortCells — the first that does not fit at its
//     least width ends the layout: it and those after it are left out;
//  4. the free-text columns (the name column too) widened toward their
//     widest cell, in proportion to their mean width;
//  5. the abbreviated ids made whole, left to right.

const (
	// shortCells: a column whose every cell is at most this wide is short.
	shortCells = 20
	// minFree is the narrowest a free-text column is cut to.
	minFree = 10
	// nameCells is the width the column naming the rows keeps before any
	// other column is shown.
	nameCells = 40
	// abbrevCells is the length a long id is shortened to, as git
	// abbreviates a commit.
	abbrevCells = 12
)

// colStat is what the layout knows of one column.
type colStat struct {
	key       string // the decoded key
	header    string // the header text (capitals, made safe)
	natural   int    // widest cell or header
	sum       int64  // total width of the cells
	nonEmpty  int    // cells that are not empty
	strs      int    // cells that are JSON strings
	longIDs   int    // cells that are long ids (longID)
	long      bool   // some cell is wider than shortCells
	nonAtomic bool   // some non-empty cell is neither a number, a boolean, a timestamp nor an id
}

func newColStat(key, header string) colStat {
	return colStat{key: key, header: header, natural: textWidth(header)}
}

// add counts one cell of the column.
func (st *colStat) add(t *tableData, c jsontext.Member) { st.addWith(t, c, &t.scratch) }

// addWith is add with the scratch buffer of its goroutine.
func (st *colStat) addWith(t *tableData, c jsontext.Member, scratch *[]byte) {
	b, w := t.text(c, scratch)
	if w == 0 {
		return
	}
	st.nonEmpty++
	st.sum += int64(w)
	st.natural = max(st.natural, w)
	if w > shortCells {
		st.long = true
	}
	switch t.data[c.Start] {
	case '"':
		st.strs++
		if st.longIDs == st.nonEmpty-1 && longID(b) { // every cell so far was one
			st.longIDs++
		}
		if !st.nonAtomic {
			st.nonAtomic = !idOrTime(b)
		}
	case '{', '[':
		st.nonAtomic = true
	}
}

// merge counts after st's cells those of o, counted apart (the same column,
// its next cells): the facts are those of counting them all in order.
func (st *colStat) merge(o *colStat) {
	if st.longIDs == st.nonEmpty { // every cell so far a long id: o's run goes on
		st.longIDs += o.longIDs
	}
	st.nonEmpty += o.nonEmpty
	st.sum += o.sum
	st.natural = max(st.natural, o.natural)
	st.strs += o.strs
	st.long = st.long || o.long
	st.nonAtomic = st.nonAtomic || o.nonAtomic
}

// short reports whether the column keeps its full width.
func (st *colStat) short() bool { return !st.long || !st.nonAtomic }

// abbreviated reports a column of long ids, shortened to abbrevCells when
// the table does not fit.
func (st *colStat) abbreviated() bool {
	return st.nonEmpty > 0 && st.longIDs == st.nonEmpty && st.natural > st.abbrevWidth()
}

// abbrevWidth is the width of an abbreviated id column: the ids' first
// abbrevCells characters, or the header when wider.
func (st *colStat) abbrevWidth() int { return max(abbrevCells, textWidth(st.header)) }

// free reports a free-text column: it shares the room left and may be cut.
func (st *colStat) free() bool { return !st.short() && !st.abbreviated() }

// least is the width a column is shown at first (step 3).
func (st *colStat) least() int {
	switch {
	case st.abbreviated():
		return st.abbrevWidth()
	case st.short():
		return st.natural
	}
	return min(st.natural, minFree)
}

// nameKeys are the keys of a column that names its rows.
var nameKeys = []string{"name", "title", "subject", "summary", "message"}

// nameColumn is the position in vis of the column that names the rows: the
// first whose key is one of nameKeys, else the first column of strings that
// is not an id; -1 when none.
func nameColumn(stats []colStat, vis []int) int {
	for p, c := range vis {
		for _, k := range nameKeys {
			if strings.EqualFold(stats[c].key, k) {
				return p
			}
		}
	}
	for p, c := range vis {
		st := &stats[c]
		if st.strs == st.nonEmpty && st.nonAtomic && !idKey(st.key) {
			return p
		}
	}
	return -1
}

// idKey reports a key that names an id: id, fooId, foo_id, FOO_ID.
func idKey(k string) bool {
	l := strings.ToLower(k)
	return l == "id" || strings.HasSuffix(l, "_id") || strings.HasSuffix(l, "-id") ||
		strings.HasSuffix(k, "Id") || strings.HasSuffix(k, "ID")
}

// tableLayout is the columns shown (indexes, in order) with their widths,
// which of them are abbreviated ids, and the columns left out for want of
// room.
type tableLayout struct {
	cols, caps []int
	abbrev     []bool
	dropped    []int
}

// layoutTable lays out columns of the given stats over rows rows in width
// cells (two-space separators): the steps above, as far as the width goes.
func layoutTable(stats []colStat, rows, width int) tableLayout {
	width = max(width, 1)
	// Every column is shown, the empty ones too (at their header's width):
	// a column of nulls is news, not noise.
	vis := make([]int, len(stats))
	for i := range vis {
		vis[i] = i
	}
	name := nameColumn(stats, vis)
	cur := make([]int, len(vis)) // the width of each column of vis; 0: not shown
	// settle is the width a column grows to as soon as it is shown: the
	// name column up to nameCells, a free-text column up to shortCells,
	// any other its least width.
	settle := func(p int) int {
		st := &stats[vis[p]]
		switch {
		case p == name:
			return min(st.natural, nameCells)
		case st.free():
			return min(st.natural, shortCells)
		}
		return st.least()
	}
	// 1. The first column.
	cur[0] = min(settle(0), width)
	used := cur[0]
	complete := cur[0] == settle(0)
	// 2 and 3. The name column, then the others from the left: each at its
	// least width or not at all, then grown to its settled width as far as
	// the line allows.
	next := func(yield func(int) bool) {
		if name > 0 && !yield(name) {
			return
		}
		for p := 1; p < len(vis); p++ {
			if p != name && !yield(p) {
				return
			}
		}
	}
	if complete {
		for p := range next {
			first := stats[vis[p]].least()
			if used+2+first > width {
				complete = false
				break
			}
			cur[p] = first
			used += 2 + first
			grow := min(settle(p)-first, width-used)
			cur[p] += grow
			used += grow
			if cur[p] < settle(p) {
				complete = false
				break
			}
		}
	}
	if complete {
		// 4. The free-text columns widen; 5. the ids are made whole.
		used += widen(stats, vis, cur, rows, width-used)
		for p := range vis {
			if st := &stats[vis[p]]; st.abbreviated() {
				if used+st.natural-cur[p] > width {
					break
				}
				used += st.natural - cur[p]
				cur[p] = st.natural
			}
		}
	}
	var lay tableLayout
	for p, c := range vis {
		if cur[p] == 0 {
			lay.dropped = append(lay.dropped, c)
			continue
		}
		lay.cols = append(lay.cols, c)
		lay.caps = append(lay.caps, cur[p])
		st := &stats[c]
		lay.abbrev = append(lay.abbrev, st.abbreviated() && cur[p] < st.natural && cur[p] >= abbrevCells)
	}
	return lay
}

// widen gives room cells to the free-text columns shown (cur[p] > 0) that
// are narrower than their widest cell, in proportion to their mean width
// (their total width over the rows): at a level T, a column of total s
// is floor(T·s/smax) cells wide, never less than it is nor more than its
// widest cell; the level is the highest whose widths fit the room, and the
// cells left over go one each, from the left, to the columns the next
// level widens. More room never narrows a column. It returns the cells
// given.
func widen(stats []colStat, vis, cur []int, rows int, room int) int {
	var grow []int
	need := 0
	for p, c := range vis {
		if st := &stats[c]; cur[p] > 0 && st.free() && cur[p] < st.natural {
			grow = append(grow, p)
			need += st.natural - cur[p]
		}
	}
	if room <= 0 || len(grow) == 0 {
		return 0
	}
	if need <= room {
		for _, p := range grow {
			cur[p] = stats[vis[p]].natural
		}
		return need
	}
	weight := make([]uint64, len(grow))
	var smax uint64
	for i, p := range grow {
		weight[i] = uint64(max(stats[vis[p]].sum, int64(rows), 1))
		smax = max(smax, weight[i])
	}
	at := func(level uint64, i int) int {
		p := grow[i]
		nat := stats[vis[p]].natural
		hi, lo := bits.Mul64(level, weight[i])
		if hi >= smax {
			return nat
		}
		q, _ := bits.Div64(hi, lo, smax)
		if q >= uint64(nat) {
			return nat
		}
		return max(int(q), cur[p])
	}
	total := func(level uint64) int {
		s := 0
		for i, p := range grow {
			s += at(level, i) - cur[p]
		}
		return s
	}
	lo, hi := uint64(0), uint64(1)<<62 // total(lo) <= room < total(hi)
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if total(mid) <= room {
			lo = mid
		} else {
			hi = mid
		}
	}
	left := room - total(lo)
	widths := make([]int, len(grow))
	for i := range grow {
		widths[i] = at(lo, i)
		if left > 0 && at(lo+1, i) > widths[i] {
			widths[i]++
			left--
		}
	}
	for i, p := range grow {
		cur[p] = widths[i]
	}
	return room - left
}

// longID reports a cell that is a long id, shortened when the table does
// not fit: twelve or more hex digits with a digit among them (a commit),
// or an agent-sdk session, call or turn id (ses_…, call_…, turn_…) longer
// than that.
func longID(b []byte) bool {
	if len(b) < abbrevCells {
		return false
	}
	for _, p := range []string{"ses_", "call_", "turn_"} {
		if len(b) > len(p) && string(b[:len(p)]) == p {
			for _, c := range b[len(p):] {
				if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '-') {
					return false
				}
			}
			return true
		}
	}
	return isHexID(b)
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
