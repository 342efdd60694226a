package render

import (
	"bufio"
	"io"
)

// A table whose rows arrive one at a time, too many to hold
// (docs/rendering.md#streamed-tables): the first rows are held to lay the
// columns out, the rest are written at those widths as they come. On a
// terminal the table fits the width: a column marked Short gives up its
// tail first (an id keeps its first Short characters, or as many more as
// keep the held rows' ids apart, as git abbreviates), then the Flex column takes what is left and its cells are cut with "…".
// Elsewhere nothing is cut. Every cell is one line of foreign text, made
// safe on a terminal (SafeLabel) and with its line breaks shown as ⏎.

// Column describes one column of a TableStream.
type Column struct {
	Header string
	// Right aligns the column right (numbers).
	Right bool
	// Short, when set, is the least width an id column is cut to, without
	// a mark, when the table does not fit: never below what keeps the held
	// rows' different ids apart.
	Short int
	// Whole: the column's cells are never cut; a longer one pushes the rest
	// of its row right (an id in a table that holds no rows).
	Whole bool
	// Flex: the column that takes the width left (one, the last usually).
	Flex bool
	// Width, when set, fixes the column's width from the start: a table
	// that holds no rows (TableStream with hold 0) is laid out from it.
	Width int
}

// TableStream writes a streamed table. Use NewTableStream, Row for each
// row, Close at the end.
type TableStream struct {
	w      *bufio.Writer
	cols   []Column
	o      Options
	hold   int
	held   [][]string
	widths []int // set once laid out
	spans  []int // the held rows that are spans
	header bool
	// scratch holds a row's cells once the table is laid out.
	scratch []string
	line    []byte
	err     error
}

// NewTableStream starts a table on w with the columns cols. hold is how many
// rows lay the columns out (0: their Width and headers alone); header
// false leaves the header line out.
func NewTableStream(w io.Writer, cols []Column, o Options, hold int, header bool) *TableStream {
	return &TableStream{w: bufio.NewWriterSize(w, 32<<10), cols: cols, o: o, hold: hold, header: header}
}

// Row adds a row (one cell per column; missing cells are empty). Once the
// table is laid out each row is written, and flushed when flush is set
// (a live table).
func (t *TableStream) Row(flush bool, cells ...string) error {
	if t.err != nil {
		return t.err
	}
	var clean []string
	if t.widths == nil {
		clean = make([]string, len(t.cols)) // held: kept
	} else {
		if len(t.scratch) < len(t.cols) {
			t.scratch = make([]string, len(t.cols))
		}
		clean = t.scratch[:len(t.cols)]
	}
	for i := range clean {
		clean[i] = ""
		if i < len(cells) {
			clean[i] = t.cell(cells[i])
		}
	}
	if t.widths == nil {
		t.held = append(t.held, clean)
		if len(t.held) < t.hold {
			return nil
		}
		t.layout()
	} else {
		t.write(clean)
	}
	if flush && t.err == nil {
		t.err = t.w.Flush()
	}
	return t.err
}

// Begin lays out a table that holds no rows (hold 0) at once, its header
// written and flushed: a live table shows its header before its first row.
func (t *TableStream) Begin() error {
	if t.widths == nil && t.hold == 0 && t.err == nil {
		t.layout()
		t.err = t.w.Flush()
	}
	return t.err
}

// Span adds a row of one cell, text, that starts where column col starts
// and runs on across the columns after it (a date between rows): it lays
// nothing out.
func (t *TableStream) Span(col int, text string) error {
	if t.err != nil {
		return t.err
	}
	cells := make([]string, len(t.cols))
	cells[min(col, len(cells)-1)] = t.cell(text)
	if t.widths == nil {
		t.held = append(t.held, cells)
		t.spans = append(t.spans, len(t.held)-1)
		return nil
	}
	t.writeSpan(cells)
	return t.err
}

// Close writes what is held and flushes.
func (t *TableStream) Close() error {
	if t.widths == nil && (len(t.held) > 0 || t.hold == 0) {
		t.layout()
	}
	if t.err == nil {
		t.err = t.w.Flush()
	}
	return t.err
}

// Flush writes what was written so far, once the table is laid out.
func (t *TableStream) Flush() error {
	if t.err == nil && t.widths != nil {
		t.err = t.w.Flush()
	}
	return t.err
}

// cell is a cell's text as shown: one line, safe on a terminal.
func (t *TableStream) cell(s string) string {
	s = oneLine(s)
	if t.o.TTY {
		return SafeLabel(s)
	}
	return s
}

// layout fixes the widths from the held rows and writes them.
func (t *TableStream) layout() {
	n := len(t.cols)
	w := make([]int, n)
	for i, c := range t.cols {
		w[i] = max(textWidth(c.Header), c.Width)
	}
	for k, r := range t.held {
		if len(t.spans) > 0 && t.spans[0] == k {
			continue
		}
		for i, c := range r {
			w[i] = max(w[i], textWidth(c))
		}
	}
	if t.o.TTY {
		t.fit(w)
	}
	t.widths = w
	if t.header {
		hs := make([]string, n)
		for i, c := range t.cols {
			hs[i] = c.Header
		}
		t.writeLine(hs, true)
	}
	for k, r := range t.held {
		if len(t.spans) > 0 && t.spans[0] == k {
			t.spans = t.spans[1:]
			t.writeSpan(r)
			continue
		}
		t.write(r)
	}
	t.held = nil
}

// writeSpan writes a span row: its one cell from its column on.
func (t *TableStream) writeSpan(cells []string) {
	b := t.line[:0]
	for i, c := range cells {
		if c != "" {
			b = append(b, c...)
			break
		}
		b = appendPad(b, t.widths[i]+2)
	}
	b = append(b, '\n')
	t.line = b
	if t.err == nil {
		_, t.err = t.w.Write(b)
	}
}

// minFlex is the least width the flex column is squeezed to.
const minFlex = 12

// fit squeezes the widths into the terminal's: the Short columns first,
// then the flex column.
func (t *TableStream) fit(w []int) {
	room := t.o.width()
	total := func() int {
		s := 2 * (len(w) - 1)
		for _, x := range w {
			s += x
		}
		return s
	}
	// An id column is cut when the table does not fit, or when the flex
	// column would get less than its natural width (at most 40 cells).
	flexNeed := 0
	for i, c := range t.cols {
		if c.Flex {
			flexNeed = min(w[i], 40)
		}
	}
	cramped := func() bool {
		for i, c := range t.cols {
			if c.Flex && w[i]+room-total() < flexNeed {
				return true
			}
		}
		return total() > room
	}
	for i, c := range t.cols {
		if c.Short > 0 && w[i] > c.Short && cramped() {
			w[i] = max(c.Short, textWidth(c.Header), t.uniqueWidth(i))
		}
	}
	// The flex column takes the room left, more than its rows held need
	// (the rows to come may be longer), and at least minFlex.
	for i, c := range t.cols {
		if c.Flex {
			w[i] = max(minFlex, w[i]+room-total())
		}
	}
}

// uniqueWidth is the least width at which the held rows' cells of column
// col keep apart: the longest prefix two different cells share, and one
// more character (equal cells are the same id).
func (t *TableStream) uniqueWidth(col int) int {
	cells := make([]string, 0, len(t.held))
	for k, r := range t.held {
		if col < len(r) && r[col] != "" && !t.isSpan(k) {
			cells = append(cells, r[col])
		}
	}
	return UniquePrefixWidth(cells)
}

// isSpan reports a held row that is a span.
func (t *TableStream) isSpan(k int) bool {
	for _, s := range t.spans {
		if s == k {
			return true
		}
	}
	return false
}

// write writes one row at the widths.
func (t *TableStream) write(cells []string) { t.writeLine(cells, false) }

func (t *TableStream) writeLine(cells []string, header bool) {
	if t.err != nil {
		return
	}
	b := t.line[:0]
	if header && t.o.Color {
		b = append(b, sgrBold...)
	}
	last := len(cells) - 1
	for last > 0 && cells[last] == "" {
		last--
	}
	for i := 0; i <= last; i++ {
		c := t.cols[i]
		s := cells[i]
		sw := textWidth(s)
		if t.o.TTY && sw > t.widths[i] && !c.Right && !c.Whole {
			if c.Short > 0 && !c.Flex {
				s = widthCond().Truncate(s, t.widths[i], "")
			} else {
				s = cut(s, t.widths[i])
			}
			sw = textWidth(s)
		}
		if i > 0 {
			b = append(b, ' ', ' ')
		}
		pad := t.widths[i] - sw // < 0: a number wider than its column
		if c.Right {
			b = appendPad(b, pad)
		}
		b = append(b, s...)
		if !c.Right && i < last {
			b = appendPad(b, pad)
		}
	}
	for len(b) > 0 && b[len(b)-1] == ' ' {
		b = b[:len(b)-1]
	}
	if header && t.o.Color {
		b = append(b, sgrReset...)
	}
	b = append(b, '\n')
	t.line = b
	_, t.err = t.w.Write(b)
}

// appendPad appends n spaces.
func appendPad(b []byte, n int) []byte {
	for ; n > 0; n -= len(blanks) {
		b = append(b, blanks[:min(n, len(blanks))]...)
	}
	return b
}
