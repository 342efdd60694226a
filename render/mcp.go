package render

import (
	"strconv"
	"strings"
)

// isMCPResult reports whether an object is an MCP tool result: it has a
// "content" array whose elements are all objects with a string "type".
func isMCPResult(n *node) bool {
	c := n.field("content")
	if c == nil || c.kind != kindArray {
		return false
	}
	for _, part := range c.vals {
		t := part.field("type")
		if t == nil || t.kind != kindString {
			return false
		}
	}
	return true
}

// fromMCP normalizes an MCP tool result: structuredContent when present
// (and not null), else the text parts joined with "\n" and one line for
// each other part, the whole then read as text or JSON text (step 2).
func fromMCP(n *node) Value {
	isErr := false
	if e := n.field("isError"); e != nil && e.kind == kindBool && string(e.raw) == "true" {
		isErr = true
	}
	if sc := n.field("structuredContent"); sc != nil && sc.kind != kindNull {
		v := fromNode(sc, false)
		v.IsError = isErr
		return v
	}
	var lines []string
	for _, part := range n.field("content").vals {
		lines = append(lines, partLine(part))
	}
	v := textOrJSON(strings.Join(lines, "\n"))
	v.IsError = isErr
	return v
}

// partLine renders one content part: a text part's text, else a bracketed
// one-line summary such as "[image image/png, 14.2 KiB]" or
// "[resource_link file:///x.log]".
func partLine(part *node) string {
	typ := part.field("type").str()
	if typ == "text" {
		return stringField(part, "text")
	}
	var b strings.Builder
	b.WriteString("[")
	b.WriteString(typ)
	switch typ {
	case "resource_link":
		appendWord(&b, stringField(part, "uri"))
	case "resource":
		res := part.field("resource")
		appendWord(&b, stringField(res, "uri"))
		if mt := stringField(res, "mimeType"); mt != "" {
			b.WriteString(", " + mt)
		}
		if t := res.field("text"); t != nil && t.kind == kindString {
			b.WriteString(", " + formatSize(len(t.str())))
		} else if d := res.field("blob"); d != nil && d.kind == kindString {
			b.WriteString(", " + formatSize(base64Len(d.str())))
		}
	default: // image, audio and anything else with data
		appendWord(&b, stringField(part, "mimeType"))
		if d := part.field("data"); d != nil && d.kind == kindString {
			b.WriteString(", " + formatSize(base64Len(d.str())))
		}
	}
	b.WriteString("]")
	return b.String()
}

func appendWord(b *strings.Builder, s string) {
	if s != "" {
		b.WriteString(" " + s)
	}
}

// stringField returns the text of a string field of an object, else "".
func stringField(n *node, key string) string {
	f := n.field(key)
	if f == nil || f.kind != kindString {
		return ""
	}
	return f.str()
}

// base64Len is the decoded length of base64 text (padding and line breaks
// allowed).
func base64Len(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '=', '\n', '\r', ' ':
		default:
			n++
		}
	}
	return n * 3 / 4
}

// formatSize gives a size as "512 B", "14.2 KiB", "3.0 MiB" or "1.2 GiB".
func formatSize(n int) string {
	if n < 1024 {
		return strconv.Itoa(n) + " B"
	}
	f := float64(n) / 1024
	unit := "KiB"
	for _, u := range []string{"MiB", "GiB"} {
		if f < 1024 {
			break
		}
		f /= 1024
		unit = u
	}
	return strconv.FormatFloat(f, 'f', 1, 64) + " " + unit
}
