package render

import (
	"encoding/json"
	"errors"
	"strings"
)

// PropertyLines returns the lines of the property view of an object, with no
// color and no terminal escaping, for the shell's filters. The view does not
// depend on the width (docs/rendering.md#property-view: it never wraps);
// width is accepted so callers need not care.
func PropertyLines(obj json.RawMessage, width int) ([]string, error) {
	n, err := parseJSON(obj)
	if err != nil {
		return nil, err
	}
	if n.Kind != kindObject {
		return nil, errors.New("render: property view needs a JSON object")
	}
	_ = width
	if isMCPWhole(n) {
		// An MCP result kept whole: filters see its text view.
		return strings.Split(mcpText(n), "\n"), nil
	}
	if isContentPart(n) {
		return []string{partLine(n)}, nil
	}
	return propertyLines(nil, n, 0, 0, func(s string) string { return s }), nil
}

// maxPropertyDepth is the nesting level below which values show as compact
// JSON: indentation grows with depth, and deeply nested input must not make
// the output quadratic in its size.
const maxPropertyDepth = 32

// propertyLines appends the lines of an object's property view at the given
// indentation: keys of one level aligned (`key:` padded to the longest key),
// scalars after them, scalar lists as "- item" lines, nested objects and
// arrays of objects indented two spaces under their key. A value line wider
// than width (0: no limit) wraps at its spaces under the value's column.
func propertyLines(lines []string, obj *node, indent, width int, clean func(string) string) []string {
	pad := spaces(indent)
	if len(obj.Keys) == 0 {
		return append(lines, pad+"{}")
	}
	keys := make([]string, len(obj.Keys))
	col := 0
	for i, k := range obj.Keys {
		keys[i] = clean(oneLine(k)) + ":"
		col = max(col, textWidth(keys[i]))
	}
	deep := indent >= 2*maxPropertyDepth
	for i, v := range obj.Vals {
		key := keys[i]
		switch {
		case deep:
			lead := pad + key + spaces(col-textWidth(key)) + " "
			lines = appendValueLines(lines, lead, spaces(indent+col+1), scalarText(v, clean), width)
		case isContentPart(v):
			lines = append(lines, pad+key+spaces(col-textWidth(key))+" "+clean(partLine(v)))
		case v.Kind == kindObject && len(v.Keys) > 0:
			lines = append(lines, pad+key)
			lines = propertyLines(lines, v, indent+2, width, clean)
		case v.Kind == kindArray && len(v.Vals) > 0:
			lines = append(lines, pad+key)
			lines = arrayLines(lines, v, indent+2, width, clean)
		default:
			lead := pad + key + spaces(col-textWidth(key)) + " "
			lines = appendValueLines(lines, lead, spaces(indent+col+1), scalarText(v, clean), width)
		}
	}
	return lines
}

// arrayLines appends the lines of a non-empty array under a key: an array of
// objects as property blocks separated by blank lines, anything else as
// "- item" lines (objects and arrays among them as compact JSON).
func arrayLines(lines []string, arr *node, indent, width int, clean func(string) string) []string {
	pad := spaces(indent)
	allObjects := true
	for _, el := range arr.Vals {
		if el.Kind != kindObject {
			allObjects = false
			break
		}
	}
	for i, el := range arr.Vals {
		if allObjects && isContentPart(el) {
			if i > 0 {
				lines = append(lines, "")
			}
			lines = append(lines, pad+clean(partLine(el)))
			continue
		}
		if allObjects {
			if i > 0 {
				lines = append(lines, "")
			}
			lines = propertyLines(lines, el, indent, width, clean)
			continue
		}
		lines = appendValueLines(lines, pad+"- ", spaces(indent+2), scalarText(el, clean), width)
	}
	return lines
}

// scalarText is how a value shows after its key or dash: strings unquoted,
// numbers as received, true/false, null, {} and [] literally, other
// containers as compact JSON.
func scalarText(n *node, clean func(string) string) string {
	switch n.Kind {
	case kindString:
		return clean(strings.ReplaceAll(n.Str(), "\r\n", "\n"))
	case kindObject:
		if isContentPart(n) {
			return clean(partLine(n))
		}
		return clean(compactString(n))
	case kindArray:
		return clean(compactString(n))
	default:
		return string(n.Raw)
	}
}

// appendValueLines appends lead+text, continuing a multi-line text on lines
// indented by cont; no line ends in spaces. A line wider than width (0: no
// limit) wraps at its spaces onto lines indented by cont, a hanging indent
// under the value (two spaces past lead's own indentation when the value's
// column leaves too little room); a word is never broken.
func appendValueLines(lines []string, lead, cont, text string, width int) []string {
	if width > 0 && width-len(cont) < minValueRoom {
		cont = spaces(len(lead) - len(strings.TrimLeft(lead, " ")) + 2)
	}
	add := func(first, l string) {
		if width <= 0 || textWidth(first+l) <= width {
			lines = append(lines, strings.TrimRight(first+l, " \t"))
			return
		}
		room := width - textWidth(first)
		for {
			// wordCut looks only as far as the cut: a long value costs
			// its length, not its length times its lines.
			i := wordCut(l, room)
			if i <= 0 || i >= len(l) {
				break
			}
			lines = append(lines, strings.TrimRight(first+l[:i], " \t"))
			l = strings.TrimLeft(l[i:], " ")
			first, room = cont, width-len(cont)
		}
		lines = append(lines, strings.TrimRight(first+l, " \t"))
	}
	first, rest, more := strings.Cut(text, "\n")
	add(lead, first)
	for more {
		var l string
		l, rest, more = strings.Cut(rest, "\n")
		if strings.TrimSpace(l) == "" {
			lines = append(lines, "")
		} else {
			add(cont, l)
		}
	}
	return lines
}

// minValueRoom is the narrowest a wrapped value may be under its column;
// a value column further right wraps under its key instead.
const minValueRoom = 24
