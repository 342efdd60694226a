package render

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/agsh-dev/agsh/internal/jsontext"
)

// A table is read straight from the JSON bytes, without building a tree:
// the pass that checks the array indexes where each member of each row
// lies (jsontext.IndexArray: two integers a cell, no pointers, so the
// garbage collector never looks at them, and whether a row's keys are the
// first row's) — catalog's answer check when the result came with its
// rows, else the table's own. A second pass finds each cell's column (by
// place in a row whose keys are the first row's, else by its key) and
// gathers each column's layout facts; a third writes the shown cells (both
// on two goroutines for a large table: scan, twoWays). Memory is the input
// plus 8 bytes a cell (4 more a cell once some row is not aligned), and up
// to 4 MiB of lines made ahead.

// cellDepth is how deep a cell's value may nest: the tree parser's bound
// less the array and the row around it (IndexArray at maxDepth).
const cellDepth = maxDepth - 2

// tableData is an array of objects scanned for rendering.
type tableData struct {
	data  []byte
	cols  []string          // decoded keys, in first-seen order
	stats []colStat         // per column, parallel to cols
	index *jsontext.Rows    // where each row's cells lie, and whether it is aligned
	cells []jsontext.Member // index.Members: every row's cells, in order
	// colOf is the column of the first row's cells, by place: the
	// columns of every aligned row's; cellCols, once some row is not
	// aligned, the column of each cell of such rows (by cell).
	colOf    []uint32
	cellCols []uint32
	clean    func(string) string
	scratch  []byte // for the scan's compact JSON
}

// indexed is an array's index for its tables. The first table made from
// it finds the columns (the keys are not read again); a table made after
// it (the same Value written again) takes them. The index itself is only
// read.
type indexed struct {
	rows     *jsontext.Rows
	once     sync.Once
	cols     []string // the columns' keys, in first-seen order
	colOf    []uint32
	cellCols []uint32
}

// scanTable scans data as an array of objects. It returns nil when data is
// not one (or is not valid JSON, or is empty, or no element has a key):
// then the general path decides the view and reports bad input.
func scanTable(data []byte, clean func(string) string) *tableData {
	return scanRows(data, nil, clean)
}

// scanRows is scanTable of data already checked and indexed (ix: the
// index of IndexArray over data; nil: data is checked and indexed here).
func scanRows(data []byte, ix *indexed, clean func(string) string) *tableData {
	if ix == nil {
		end, _, r, ok := jsontext.IndexArray(data, 0, maxDepth, 0)
		if !ok || r == nil || jsontext.SkipSpace(data, end) != len(data) {
			return nil
		}
		ix = &indexed{rows: r}
	}
	t := &tableData{data: data, clean: clean, index: ix.rows, cells: ix.rows.Members}
	first := false
	ix.once.Do(func() {
		first = true
		s := tableScanner{data: data, t: t, rawIndex: map[string]int{}, byName: map[string]int{}}
		s.scan()
		ix.cols, ix.colOf, ix.cellCols = t.cols, t.colOf, t.cellCols
	})
	if !first {
		t.colOf, t.cellCols = ix.colOf, ix.cellCols
		t.count(ix.cols)
	}
	if len(t.cols) == 0 {
		return nil
	}
	return t
}

// row is where the cells of row k begin and end, and whether its cells
// have the first row's columns, by place (the first row's are colOf, so
// it is, whatever its count of keys).
func (t *tableData) row(k int) (start, end uint32, aligned bool) {
	start, end, aligned = t.index.Row(k)
	return start, end, aligned || k == 0
}

// colAt is the column of cell k, of a row that starts at start (aligned
// or not).
func (t *tableData) colAt(k, start uint32, aligned bool) uint32 {
	if aligned {
		return t.colOf[k-start]
	}
	return t.cellCols[k]
}

// count gathers the layout facts of cells whose columns (cols) were given
// by an earlier scan.
func (t *tableData) count(cols []string) {
	t.cols = cols
	t.stats = make([]colStat, len(cols))
	for i, name := range cols {
		t.stats[i] = newColStat(name, t.clean(oneLine(strings.ToUpper(name))))
	}
	for r := range t.index.Len() {
		start, end, al := t.row(r)
		for k := start; k < end; k++ {
			t.stats[t.colAt(k, start, al)].add(t, t.cells[k])
		}
	}
}

type tableScanner struct {
	data     []byte
	t        *tableData
	rawKeys  [][]byte       // each column's key bytes as first seen
	rawIndex map[string]int // key bytes (any spelling seen) -> column
	byName   map[string]int // decoded key -> column
}

// scan finds each cell's column and counts the cell in its column's
// facts: the first row's by their keys, an aligned row's by place (its
// keys are the first row's: the check compared them), another row's by
// their keys. A large table's second half is scanned on a goroutine of
// its own (scanAhead) while this one scans the first.
func (s *tableScanner) scan() {
	t := s.t
	n := t.index.Len()
	if n == 0 {
		return
	}
	_, end0, _ := t.row(0)
	t.colOf = make([]uint32, end0)
	for k := range t.colOf {
		col := s.column(k, t.cells[k].KeyToken(t.data))
		t.colOf[k] = uint32(col)
		t.stats[col].add(t, t.cells[k])
	}
	if n < parallelRows || runtime.GOMAXPROCS(0) < 2 {
		s.scanRows(1, n)
		return
	}
	mid, cols := n/2, len(t.cols) // the first row's columns
	var ahead []colStat
	stop := mid
	done := make(chan struct{})
	go func() {
		defer close(done)
		ahead, stop = scanAhead(t, cols, mid, n)
	}()
	s.scanRows(1, mid)
	<-done
	for col := range ahead {
		t.stats[col].merge(&ahead[col])
	}
	s.scanRows(stop, n)
}

// parallelRows is the least count of rows whose table is scanned and
// written on two goroutines.
var parallelRows = 8192 // a variable for the tests

// scanRows scans rows [from, to).
func (s *tableScanner) scanRows(from, to int) {
	t := s.t
	for r := from; r < to; r++ {
		start, end, aligned := t.row(r)
		if aligned {
			for k := start; k < end; k++ {
				t.stats[t.colOf[k-start]].add(t, t.cells[k])
			}
			continue
		}
		if t.cellCols == nil {
			t.cellCols = make([]uint32, len(t.cells))
		}
		for k := start; k < end; k++ {
			col := s.column(int(k-start), t.cells[k].KeyToken(t.data))
			t.cellCols[k] = uint32(col)
			t.stats[col].add(t, t.cells[k])
		}
	}
}

// scanAhead counts rows from `from` on, as scanRows would, while they are
// aligned: it stops at the first row that is not, whose index it returns
// with the facts of the rows before it (for the first cols columns, those
// of the first row). Rows up to that one take no new column, so the
// columns' order is the one scanning in order gives.
func scanAhead(t *tableData, cols, from, to int) ([]colStat, int) {
	stats := make([]colStat, cols)
	var scratch []byte
	for r := from; r < to; r++ {
		start, end, aligned := t.row(r)
		if !aligned {
			return stats, r
		}
		for k := start; k < end; k++ {
			stats[t.colOf[k-start]].addWith(t, t.cells[k], &scratch)
		}
	}
	return stats, to
}

// column returns the column of a key token; keys usually come in column
// order, so the position is tried before the map.
func (s *tableScanner) column(j int, raw []byte) int {
	if j < len(s.rawKeys) && string(s.rawKeys[j]) == string(raw) {
		return j
	}
	if i, ok := s.rawIndex[string(raw)]; ok {
		return i
	}
	name := jsontext.Unquote(raw)
	i, ok := s.byName[name]
	if !ok {
		i = len(s.t.cols)
		s.byName[name] = i
		s.t.cols = append(s.t.cols, name)
		s.t.stats = append(s.t.stats, newColStat(name, s.t.clean(oneLine(strings.ToUpper(name)))))
		s.rawKeys = append(s.rawKeys, raw)
	}
	s.rawIndex[string(raw)] = i
	return i
}

// text is the one-line text of a cell and its display width: a string's
// text, a number as received, true/false, null blank, a nested value its
// compact JSON; newlines show as ⏎ and tabs as spaces. A plain ASCII
// string (jsontext.PlainString), a number or a literal is returned as a
// slice of the input; compact JSON is built in *buf.
func (t *tableData) text(c jsontext.Member, buf *[]byte) ([]byte, int) {
	raw := c.Value(t.data)
	if c.Plain() {
		return raw[1 : len(raw)-1], len(raw) - 2
	}
	switch raw[0] {
	case 'n':
		return nil, 0
	case '"':
		b := raw[1 : len(raw)-1]
		if !plainASCII(b) {
			s := t.clean(oneLine(jsontext.Unquote(raw)))
			return []byte(s), textWidth(s)
		}
		return b, len(b)
	case '{', '[':
		if raw[0] == '{' && bytes.Contains(raw, []byte(`"type"`)) && (bytes.Contains(raw, []byte(`"data"`)) || bytes.Contains(raw, []byte(`"blob"`))) {
			// A content part carrying bytes shows as its placeholder.
			if n, err := parseJSON(raw); err == nil && isContentPart(n) {
				s := t.clean(partLine(n))
				return []byte(s), textWidth(s)
			}
		}
		if plainTight(raw) {
			return raw, len(raw) // compact already, and plain
		}
		*buf = appendCompact((*buf)[:0], raw)
		if !plainASCII(*buf) {
			s := t.clean(oneLine(string(*buf)))
			return []byte(s), textWidth(s)
		}
		return *buf, len(*buf)
	default:
		return raw, len(raw)
	}
}

// plainASCII reports whether b is printable ASCII without backslashes (so
// it needs no decoding, no escaping and is as wide as it is long).
func plainASCII(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c >= 0x7f || c == '\\' {
			return false
		}
	}
	return true
}

// plainTight reports whether b is plainASCII without a space (JSON text
// so is compact already).
func plainTight(b []byte) bool {
	for _, c := range b {
		if c <= 0x20 || c >= 0x7f || c == '\\' {
			return false
		}
	}
	return true
}

// oneLine replaces line breaks with ⏎ and tabs with spaces.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\n\t") {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.NewReplacer("\n", "⏎", "\t", " ").Replace(s)
}

// tableChunk is the size of a table's writes.
const tableChunk = 64 << 10

// writeTable renders a scanned table fitted to o's width
// (docs/rendering.md#table-layout); the columns left out for want of room are
// named in one note.
func writeTable(w, notes io.Writer, t *tableData, o Options) error {
	rows := t.index.Len()
	lay := layoutTable(t.stats, rows, o.width())
	header := make([][]byte, len(lay.cols))
	hw := make([]int, len(lay.cols))
	for i, c := range lay.cols {
		header[i] = []byte(t.stats[c].header)
		hw[i] = textWidth(t.stats[c].header)
	}
	pos := make([]int, len(t.cols)) // column -> shown position + 1
	for i, c := range lay.cols {
		pos[c] = i + 1
	}
	// The lines are made in one buffer, written whenever it holds
	// tableChunk bytes: large writes, each byte copied once.
	buf := make([]byte, 0, tableChunk+4096)
	if o.Color {
		buf = append(buf, sgrBold...)
	}
	buf = appendRow(buf, header, hw, lay.caps, nil)
	if o.Color {
		buf = append(buf, sgrReset...)
	}
	buf = append(buf, '\n')
	lines := &lineMaker{t: t, lay: &lay, pos: pos}
	write := func(b []byte) ([]byte, error) {
		_, err := w.Write(b)
		return b[:0], err
	}
	var err error
	if rows < parallelRows || runtime.GOMAXPROCS(0) < 2 {
		buf, err = lines.rows(buf, 0, rows, write)
	} else {
		buf, err = lines.twoWays(buf, rows, write)
	}
	if err != nil {
		return err
	}
	if len(buf) > 0 {
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	if len(lay.dropped) > 0 && notes != nil {
		return writeLeftOut(notes, t.cols, pos)
	}
	return nil
}

// lineMaker makes the lines of a laid out table.
type lineMaker struct {
	t   *tableData
	lay *tableLayout
	pos []int // column -> shown position + 1
}

// rows appends the lines of rows [from, to) to buf, handing buf to emit
// whenever it holds tableChunk bytes (emit returns the buffer to go on
// with).
func (m *lineMaker) rows(buf []byte, from, to int, emit func([]byte) ([]byte, error)) ([]byte, error) {
	t, lay, pos := m.t, m.lay, m.pos
	cells := make([][]byte, len(lay.cols))
	widths := make([]int, len(lay.cols))
	bufs := make([][]byte, len(lay.cols)) // per shown column, for compact JSON
	// An aligned row's cells show at the places of the first row's.
	posOf := make([]int, len(t.colOf))
	for j, col := range t.colOf {
		posOf[j] = pos[col]
	}
	for r := from; r < to; r++ {
		for i := range cells {
			cells[i], widths[i] = nil, 0
		}
		start, end, aligned := t.row(r)
		for k := start; k < end; k++ {
			var p int
			if aligned {
				p = posOf[k-start]
			} else {
				p = pos[t.cellCols[k]]
			}
			if p == 0 {
				continue
			}
			cells[p-1], widths[p-1] = t.text(t.cells[k], &bufs[p-1])
		}
		buf = append(appendRow(buf, cells, widths, lay.caps, lay.abbrev), '\n')
		if len(buf) >= tableChunk {
			var err error
			if buf, err = emit(buf); err != nil {
				return buf, err
			}
		}
	}
	return buf, nil
}

// aheadChunks bounds how many chunks of lines the second goroutine of
// twoWays makes before the first takes them: 4 MiB.
const aheadChunks = 64

// twoWays is rows over all rows with the lines of the last three fifths
// made on a goroutine of its own while this one makes and writes the
// first two fifths' (it writes the others' too, so it makes fewer); then
// it writes the other's chunks in order as they come. The chunks are
// handed back for reuse, at most aheadChunks of them made.
func (m *lineMaker) twoWays(buf []byte, rows int, emit func([]byte) ([]byte, error)) ([]byte, error) {
	mid := rows * 2 / 5 // this goroutine writes every line too
	full := make(chan []byte, aheadChunks)
	free := make(chan []byte, aheadChunks)
	quit := make(chan struct{})
	go func() {
		defer close(full)
		made := 0
		next := func() []byte {
			select {
			case b := <-free:
				return b[:0]
			default:
			}
			if made < aheadChunks {
				made++
				return make([]byte, 0, tableChunk+4096)
			}
			select {
			case b := <-free:
				return b[:0]
			case <-quit:
				return nil
			}
		}
		send := func(b []byte) bool {
			select {
			case full <- b:
				return true
			case <-quit:
				return false
			}
		}
		hand := func(b []byte) ([]byte, error) {
			if !send(b) {
				return nil, errStopped
			}
			if b = next(); b == nil {
				return nil, errStopped
			}
			return b, nil
		}
		b, err := m.rows(next(), mid, rows, hand)
		if err == nil && len(b) > 0 {
			send(b)
		}
	}()
	defer func() {
		close(quit)
		for range full { // the goroutine ends before the table is let go
		}
	}()
	buf, err := m.rows(buf, 0, mid, emit)
	if err != nil {
		return buf, err
	}
	if len(buf) > 0 {
		if buf, err = emit(buf); err != nil {
			return buf, err
		}
	}
	for b := range full {
		if b, err = emit(b); err != nil {
			return buf, err
		}
		select {
		case free <- b:
		default:
		}
	}
	return buf, nil
}

// errStopped ends the second goroutine of twoWays when the first stops.
var errStopped = errors.New("table writing stopped")

// writeLeftOut writes the note naming every column not shown (pos[c] == 0),
// in column order, the empty ones too.
func writeLeftOut(notes io.Writer, cols []string, pos []int) error {
	var names []string
	n := 0
	for c, p := range pos {
		if p != 0 {
			continue
		}
		if n++; n <= maxNamed {
			names = append(names, SafeLabel(oneLine(cols[c])))
		}
	}
	if n > maxNamed {
		names = append(names, "… "+strconv.Itoa(n-maxNamed)+" others")
	}
	noun := "columns"
	if n == 1 {
		noun = "column"
	}
	_, err := io.WriteString(notes, "("+strconv.Itoa(n)+" more "+noun+": "+
		strings.Join(names, ", ")+"; use --output json or | jq)\n")
	return err
}

// maxNamed is how many left-out columns the note names (a hostile value
// may have a million).
const maxNamed = 100

const blanks = "                                "

// appendRow appends one table line: each cell (of display width widths[i])
// cut to its column's width and padded, columns separated by two spaces,
// no trailing spaces. A cell of an abbreviated id column (abbrev[i]) is
// shortened to its first abbrevCells characters, without a mark, as git
// abbreviates (its characters are ASCII: longID).
func appendRow(dst []byte, cells [][]byte, widths, caps []int, abbrev []bool) []byte {
	from := len(dst)
	for i, c := range cells {
		if i > 0 {
			dst = append(dst, ' ', ' ')
		}
		cw := widths[i]
		if abbrev != nil && abbrev[i] && cw > abbrevCells && len(c) == cw {
			dst = append(dst, c[:abbrevCells]...)
			cw = abbrevCells
		} else if cw > caps[i] {
			s := cut(string(c), caps[i])
			dst = append(dst, s...)
			cw = textWidth(s)
		} else {
			dst = append(dst, c...)
		}
		if i < len(cells)-1 {
			for pad := caps[i] - cw; pad > 0; pad -= len(blanks) {
				dst = append(dst, blanks[:min(pad, len(blanks))]...)
			}
		}
	}
	end := len(dst)
	for end > from && dst[end-1] == ' ' {
		end--
	}
	return dst[:end]
}
