package render

import (
	"strconv"
	"strings"
)

// isMCPResult reports whether an object is an MCP tool result: it has a
// "content" array whose elements are all objects with a string "type".
func isMCPResult(n *node) bool {
	c := n.Field("content")
	if c == nil || c.Kind != kindArray {
		return false
	}
	for _, part := range c.Vals {
		t := part.Field("type")
		if t == nil || t.Kind != kindString {
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
	if e := n.Field("isError"); e != nil && e.Kind == kindBool && string(e.Raw) == "true" {
		isErr = true
	}
	if sc := n.Field("structuredContent"); sc != nil && sc.Kind != kindNull {
		v := fromNode(sc, false)
		v.IsError = isErr
		return v
	}
	var lines []string
	for _, part := range n.Field("content").Vals {
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
	typ := part.Field("type").Str()
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
		res := part.Field("resource")
		appendWord(&b, stringField(res, "uri"))
		if mt := stringField(res, "mimeType"); mt != "" {
			b.WriteString(", " + mt)
		}
		if t := res.Field("text"); t != nil && t.Kind == kindString {
			b.WriteString(", " + formatSize(len(t.Str())))
		} else if d := res.Field("blob"); d != nil && d.Kind == kindString {
			b.WriteString(", " + formatSize(base64Len(d.Str())))
		}
	default: // image, audio and anything else with data
		appendWord(&b, stringField(part, "mimeType"))
		if d := part.Field("data"); d != nil && d.Kind == kindString {
			b.WriteString(", " + formatSize(base64Len(d.Str())))
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
	f := n.Field(key)
	if f == nil || f.Kind != kindString {
		return ""
	}
	return f.Str()
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
