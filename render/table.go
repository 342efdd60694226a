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
	for _, el := range arr.vals {
		if el.kind != kindObject {
			return nil, false
		}
		for _, k := range el.keys {
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
	var s string
	switch n.kind {
	case kindNull:
		return ""
	case kindString:
		s = n.str()
	case kindArray, kindObject:
		s = compactString(n)
	default:
		return string(n.raw)
	}
	return clean(oneLine(s))
}

// oneLine replaces line breaks with ⏎ and tabs with spaces.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\n\t") {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.NewReplacer("\n", "⏎", "\t", " ").Replace(s)
}

// writeTable renders an array of objects as a table fitted to o's width;
// the "(N more columns; use --output json)" note goes to notes.
func writeTable(w, notes io.Writer, arr *node, cols []string, o Options) error {
	clean := o.clean()
	header := make([]string, len(cols))
	widths := make([]int, len(cols))
	index := make(map[string]int, len(cols))
	for i, c := range cols {
		header[i] = clean(oneLine(strings.ToUpper(c)))
		widths[i] = textWidth(header[i])
		index[c] = i
	}
	rows := make([][]string, len(arr.vals))
	for r, el := range arr.vals {
		row := make([]string, len(cols))
		for j, k := range el.keys {
			i := index[k]
			row[i] = cellText(el.vals[j], clean)
		}
		for i, c := range row {
			if cw := textWidth(c); cw > widths[i] {
				widths[i] = cw
			}
		}
		rows[r] = row
	}
	caps, shown := fitColumns(widths, o.width())
	bw := bufio.NewWriterSize(w, 32*1024)
	var line []byte
	line = appendRow(line[:0], header, caps, shown)
	if o.Color {
		bw.WriteString(sgrBold)
		bw.Write(line)
		bw.WriteString(sgrReset)
	} else {
		bw.Write(line)
	}
	bw.WriteByte('\n')
	for _, row := range rows {
		line = appendRow(line[:0], row, caps, shown)
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
func appendRow(dst []byte, cells []string, caps []int, shown int) []byte {
	for i := 0; i < shown; i++ {
		if i > 0 {
			dst = append(dst, ' ', ' ')
		}
		c := cells[i]
		cw := textWidth(c)
		if cw > caps[i] {
			c = cut(c, caps[i])
			cw = textWidth(c)
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
