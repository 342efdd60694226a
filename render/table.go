package render

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// tableColumns returns the union of the keys of an array of objects in
// first-seen order, and false when the array is not all objects or has no
// keys at all (then it is a list).
func tableColumns(arr *node) ([]string, bool) {
	var cols []string
	seen := map[string]bool{}
	for _, el := range arr.Vals {
		if el.Kind != kindObject {
			return nil, false
		}
		for _, k := range el.Keys {
			if !seen[k] {
				seen[k] = true
				cols = append(cols, k)
			}
		}
	}
	return cols, len(cols) > 0
}

// cellText is the one-line text of a cell: a string's text, a number as
// received, true/false, null blank, a nested value its compact JSON;
// newlines show as ⏎ and tabs as spaces.
func cellText(n *node, clean func(string) string) string {
	return string(cellBytes(n, clean, nil))
}

// cellBytes is cellText without allocating in the common case: a plain
// ASCII string, a number or a literal is returned as a slice of the input,
// compact JSON is built in buf.
func cellBytes(n *node, clean func(string) string, buf []byte) []byte {
	var b []byte
	switch n.Kind {
	case kindNull:
		return nil
	case kindString:
		b = n.Raw[1 : len(n.Raw)-1]
		if !plainASCII(b) {
			return []byte(clean(oneLine(n.Str())))
		}
		return b
	case kindArray, kindObject:
		b = appendCompact(buf[:0], n.Raw)
		if !plainASCII(b) {
			return []byte(clean(oneLine(string(b))))
		}
		return b
	default:
		return n.Raw
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

// oneLine replaces line breaks with ⏎ and tabs with spaces.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\n\t") {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.NewReplacer("\n", "⏎", "\t", " ").Replace(s)
}

// table renders an array of objects; the cells are computed twice (once
// for the widths, once for the output) instead of being stored, so memory
// stays that of the parsed input.
type table struct {
	cols  []string
	index map[string]int
	clean func(string) string
	cells [][]byte // the current row
	bufs  [][]byte // per column scratch for compact JSON
}

// row fills t.cells with the cells of one object. Keys usually come in
// column order, so the position is tried before the map.
func (t *table) row(el *node) {
	for i := range t.cells {
		t.cells[i] = nil
	}
	for j, k := range el.Keys {
		i, ok := j, j < len(t.cols) && t.cols[j] == k
		if !ok {
			i = t.index[k]
		}
		t.cells[i] = cellBytes(el.Vals[j], t.clean, t.bufs[i])
		if cap(t.cells[i]) > cap(t.bufs[i]) && inScratch(el.Vals[j]) {
			t.bufs[i] = t.cells[i][:0]
		}
	}
}

// inScratch reports whether a value's cell is built in the column's scratch
// buffer (never true for a slice of the input, which must not be reused).
func inScratch(n *node) bool { return n.Kind == kindArray || n.Kind == kindObject }

// bytesWidth is the display width of a cell.
func bytesWidth(b []byte) int {
	if plainASCII(b) {
		return len(b)
	}
	return textWidth(string(b))
}

// writeTable renders an array of objects as a table fitted to o's width;
// the "(N more columns; use --output json)" note goes to notes.
func writeTable(w, notes io.Writer, arr *node, cols []string, o Options) error {
	t := &table{cols: cols, index: make(map[string]int, len(cols)), clean: o.clean(),
		cells: make([][]byte, len(cols)), bufs: make([][]byte, len(cols))}
	header := make([][]byte, len(cols))
	widths := make([]int, len(cols))
	for i, c := range cols {
		header[i] = []byte(t.clean(oneLine(strings.ToUpper(c))))
		widths[i] = bytesWidth(header[i])
		t.index[c] = i
	}
	for _, el := range arr.Vals {
		t.row(el)
		for i, c := range t.cells {
			if cw := bytesWidth(c); cw > widths[i] {
				widths[i] = cw
			}
		}
	}
	caps, shown := fitColumns(widths, o.width())
	bw := bufio.NewWriterSize(w, 64*1024)
	line := appendRow(nil, header, caps, shown)
	if o.Color {
		bw.WriteString(sgrBold)
		bw.Write(line)
		bw.WriteString(sgrReset)
	} else {
		bw.Write(line)
	}
	bw.WriteByte('\n')
	for _, el := range arr.Vals {
		t.row(el)
		line = appendRow(line[:0], t.cells, caps, shown)
		bw.Write(line)
		bw.WriteByte('\n')
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if more := len(cols) - shown; more > 0 && notes != nil {
		if _, err := fmt.Fprintf(notes, "(%d more columns; use --output json)\n", more); err != nil {
			return err
		}
	}
	return nil
}

// appendRow appends one table line: each shown cell cut to its column's
// width and padded, columns separated by two spaces, no trailing spaces.
func appendRow(dst []byte, cells [][]byte, caps []int, shown int) []byte {
	for i := 0; i < shown; i++ {
		if i > 0 {
			dst = append(dst, ' ', ' ')
		}
		c := cells[i]
		cw := bytesWidth(c)
		if cw > caps[i] {
			c = []byte(cut(string(c), caps[i]))
			cw = textWidth(string(c))
		}
		dst = append(dst, c...)
		if i < shown-1 {
			for ; cw < caps[i]; cw++ {
				dst = append(dst, ' ')
			}
		}
	}
	end := len(dst)
	for end > 0 && dst[end-1] == ' ' {
		end--
	}
	return dst[:end]
}
