package render

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"
)

// Write renders v to w with the view its shape picks
// (docs/rendering.md#views): text verbatim, an array of objects as a table,
// any other array as a list, an object as a property view, another JSON value
// as its JSON text. Final text is written byte for byte. On a terminal
// (o.TTY) foreign text is made safe first; color (o.Color) only bolds table
// headers. Notes for standard error, such as
// "(2 more columns: a, b; use --output json or | jq)", go to notes (may be
// nil). Error wrappers are the caller's to detect first (ErrorMessage): they
// change the stream and the exit status.
func Write(w, notes io.Writer, v Value, o Options) error {
	if v.Final {
		return writeString(w, o.clean()(v.Text))
	}
	if !v.IsJSON {
		if v.prose && o.TTY {
			return writeText(w, wrapProse(o.clean()(v.Text), o.width()), Options{})
		}
		return writeText(w, v.Text, o)
	}
	if v.parts {
		return writeParts(w, notes, v, o)
	}
	if t := scanRows(v.JSON, v.checkedRows(), o.cleanLabel()); t != nil {
		if lines := partRows(t); lines != nil {
			return writeText(w, strings.Join(lines, "\n"), o)
		}
		return writeTable(w, notes, t, o)
	}
	n, nv, err := decodeValue(v)
	if err != nil {
		// Not JSON after all: show the bytes as text rather than fail.
		return writeText(w, string(v.JSON), o)
	}
	if n == nil {
		return writeText(w, nv.Text, o)
	}
	switch n.Kind {
	case kindArray:
		if len(n.Vals) == 0 {
			return nil
		}
		if t := scanTable(n.Raw, o.cleanLabel()); t != nil {
			if lines := partRows(t); lines != nil {
				return writeText(w, strings.Join(lines, "\n"), o)
			}
			return writeTable(w, notes, t, o)
		}
		return writeLines(w, listLines(n, o.cleanLabel()))
	case kindObject:
		if isMCPWhole(n) {
			if !hasNonText(n) {
				// Kept whole for its annotations or _meta: the text view
				// is that of its text.
				return Write(w, notes, mcpTextValue(n), o)
			}
			if o.TTY && o.Color {
				return writeMCPPreview(w, n, o)
			}
			return writeText(w, mcpText(n), o)
		}
		if isContentPart(n) {
			return writeLines(w, []string{o.clean()(partLine(n))})
		}
		return writeLines(w, propertyLines(nil, n, 0, o.width(), o.cleanLabel()))
	default:
		return writeText(w, string(n.Raw), o)
	}
}

// writeParts writes the values of an MCP result's several text parts one
// after another, each by its own view; a blank line goes between two parts
// when either is a structured view (a property view or a table), so that two
// JSON reports in a row do not read as one.
func writeParts(w, notes io.Writer, v Value, o Options) error {
	n, err := v.parsed()
	if err != nil || n.Kind != kindArray {
		v.parts = false
		return Write(w, notes, v, o)
	}
	for i, el := range n.Vals {
		if i > 0 && (el.Kind != kindString || n.Vals[i-1].Kind != kindString) {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		pv := Value{JSON: json.RawMessage(el.Raw), IsJSON: true, tree: el}
		if el.Kind == kindString {
			pv = Value{Text: el.Str(), prose: true}
		}
		if err := Write(w, notes, pv, o); err != nil {
			return err
		}
	}
	return nil
}

// writeText prints text verbatim with one trailing newline added when it
// has none; empty text prints nothing.
func writeText(w io.Writer, s string, o Options) error {
	if s == "" {
		return nil
	}
	s = o.clean()(s)
	if err := writeString(w, s); err != nil || strings.HasSuffix(s, "\n") {
		return err
	}
	// Not s + "\n": a big text is not copied for its last byte.
	return writeString(w, "\n")
}

func writeString(w io.Writer, s string) error {
	if s == "" {
		return nil
	}
	_, err := io.WriteString(w, s)
	return err
}

// listLines gives one line per element of an array of scalars (or mixed):
// strings as text, objects and arrays as compact JSON.
func listLines(arr *node, clean func(string) string) []string {
	lines := make([]string, len(arr.Vals))
	for i, el := range arr.Vals {
		lines[i] = scalarText(el, clean)
	}
	return lines
}

// writeLines writes each line followed by a newline.
func writeLines(w io.Writer, lines []string) error {
	bw := bufio.NewWriter(w)
	for _, l := range lines {
		bw.WriteString(l)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}
