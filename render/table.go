package render

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/agsh-dev/agsh/internal/jsontext"
)

// A table is read straight from the JSON bytes, without building a tree:
// the pass that checks the array indexes where each member of each row
// lies (jsontext.IndexArray: three integers a cell, no pointers, so the
// garbage collector never looks at them) — catalog's answer check when the
// result came with its rows, else the table's own. A second pass gives
// each cell its column (in place of its key's offset) and gathers each
// column's layout facts; a third writes the shown cells. Memory is the
// input plus 12 bytes a cell.

// cellDepth is how deep a cell's value may nest: the tree parser's bound
// less the array and the row around it (IndexArray at maxDepth).
const cellDepth = maxDepth - 2

// tableData is an array of objects scanned for rendering.
type tableData struct {
	data    []byte
	cols    []string          // decoded keys, in first-seen order
	stats   []colStat         // per column, parallel to cols
	cells   []jsontext.Member // Key: the cell's column (cellCol)
	rowEnds []uint32          // cells[rowEnds[i-1]:rowEnds[i]] belong to row i
	clean   func(string) string
	scratch []byte // for the scan's compact JSON
}

// cellCol is the column of a scanned cell.
func cellCol(c jsontext.Member) uint32 { return c.Key &^ jsontext.PlainString }

// indexed is an array's index for its tables. The first table made from
// it gives each cell its column in place of its key's offset (the keys are
// not read again); a table made after it (the same Value written again)
// takes those columns.
type indexed struct {
	rows *jsontext.Rows
	once sync.Once
	cols []string // the columns' keys, in first-seen order
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
	t := &tableData{data: data, clean: clean, cells: ix.rows.Members, rowEnds: ix.rows.Ends}
	first := false
	ix.once.Do(func() {
		first = true
		s := tableScanner{data: data, t: t, rawIndex: map[string]int{}, byName: map[string]int{}}
		s.scan()
		ix.cols = t.cols
	})
	if !first {
		t.count(ix.cols)
	}
	if len(t.cols) == 0 {
		return nil
	}
	return t
}

// count gathers the layout facts of cells whose columns (cols) were given
// by an earlier scan.
func (t *tableData) count(cols []string) {
	t.cols = cols
	t.stats = make([]colStat, len(cols))
	for i, name := range cols {
		t.stats[i] = newColStat(name, t.clean(oneLine(strings.ToUpper(name))))
	}
	for _, c := range t.cells {
		t.stats[cellCol(c)].add(t, c)
	}
}

type tableScanner struct {
	data     []byte
	t        *tableData
	rawKeys  [][]byte       // each column's key bytes as first seen
	rawIndex map[string]int // key bytes (any spelling seen) -> column
	byName   map[string]int // decoded key -> column
}

// scan gives each cell its column, in place of its key's offset, and
// counts it in its column's facts.
func (s *tableScanner) scan() {
	t := s.t
	start := uint32(0)
	for _, end := range t.rowEnds {
		for k := start; k < end; k++ {
			c := &t.cells[k]
			col := s.columnAt(int(k-start), *c)
			c.Key = c.Key&jsontext.PlainString | uint32(col)
			t.stats[col].add(t, *c)
		}
		start = end
	}
}

// columnAt is the column of cell c, the j-th of its row; keys usually
// come in column order, so the position is tried first: the key at c is
// that column's when the input holds that column's first token there (a
// checked token is not a prefix of another one).
func (s *tableScanner) columnAt(j int, c jsontext.Member) int {
	if j < len(s.rawKeys) {
		k, at := s.rawKeys[j], int(c.Key&^jsontext.PlainString)
		if jsontext.HasAt(s.data, at, k) {
			return j
		}
	}
	return s.column(j, c.KeyToken(s.data))
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
	raw := t.data[c.Start:c.End]
	if c.Key&jsontext.PlainString != 0 {
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
	rows := len(t.rowEnds)
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
	cells := make([][]byte, len(lay.cols))
	widths := make([]int, len(lay.cols))
	bufs := make([][]byte, len(lay.cols)) // per shown column, for compact JSON
	start := uint32(0)
	for _, end := range t.rowEnds {
		for i := range cells {
			cells[i], widths[i] = nil, 0
		}
		for k := start; k < end; k++ {
			p := pos[cellCol(t.cells[k])]
			if p == 0 {
				continue
			}
			cells[p-1], widths[p-1] = t.text(t.cells[k], &bufs[p-1])
		}
		start = end
		buf = append(appendRow(buf, cells, widths, lay.caps, lay.abbrev), '\n')
		if len(buf) >= tableChunk {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
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

// writeLeftOut writes the note naming every column not shown (pos[c] == 0),
// in column order: the empty ones too, once some column with content had
// to be left out (an empty column alone is no news).
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
