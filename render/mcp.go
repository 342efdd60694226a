package render

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"strings"

	"github.com/agsh-dev/agsh/internal/jsontext"
)

// bytesHint follows the placeholder of a part whose bytes the text view
// leaves out: it says how to get them.
const bytesHint = " (the bytes: --output json)"

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

// hasNonText reports whether some content part of an MCP result is not
// text: the result is kept whole (step 1 of
// docs/rendering.md#the-value-to-render).
func hasNonText(n *node) bool {
	for _, part := range n.Field("content").Vals {
		if part.Field("type").Str() != "text" {
			return true
		}
	}
	return false
}

// carriesMore reports whether an MCP result carries what its text alone
// would lose (docs/rendering.md#mcp-text-results): a content part with
// annotations or a _meta of its own, or a result _meta with a key other
// than the next-page cursor. Keys under a prefix MCP reserves for itself
// (io.modelcontextprotocol/serverInfo, which newer servers put on every
// answer) are the protocol's bookkeeping, as the cursor is.
func carriesMore(n *node) bool {
	for _, part := range n.Field("content").Vals {
		if nonEmpty(part.Field("annotations")) || metaKeys(part.Field("_meta")) {
			return true
		}
	}
	return metaKeys(n.Field("_meta"))
}

// metaKeys reports whether a _meta object has a key other than the cursor
// and the protocol's own.
func metaKeys(m *node) bool {
	if m == nil || m.Kind != kindObject {
		return false
	}
	for _, k := range m.Keys {
		if k != "nextCursor" && !reservedMetaKey(k) {
			return true
		}
	}
	return false
}

// reservedMetaKey reports a _meta key whose prefix MCP reserves: the
// labels before the "/" have "modelcontextprotocol" or "mcp" second
// ("io.modelcontextprotocol/serverInfo", "dev.mcp/x").
func reservedMetaKey(k string) bool {
	prefix, _, ok := strings.Cut(k, "/")
	if !ok {
		return false
	}
	labels := strings.Split(prefix, ".")
	return len(labels) >= 2 && (labels[1] == "modelcontextprotocol" || labels[1] == "mcp")
}

// mcpWhole reports whether an MCP result is kept whole as the value: some
// content part is not text, or the result carries annotations or _meta
// beyond the cursor.
func mcpWhole(n *node) bool { return hasNonText(n) || carriesMore(n) }

// isMCPWhole reports whether n is an MCP result that FromResult keeps whole:
// its text view is mcpTextLines (with a part that is not text) or that of
// its text value (mcpTextValue).
func isMCPWhole(n *node) bool {
	return n != nil && n.Kind == kindObject && isMCPResult(n) && mcpWhole(n)
}

// fromMCP normalizes an MCP tool result (docs/rendering.md#mcp-text-results):
//   - a part that is not text, or annotations or _meta beyond the cursor:
//     the result object itself, as received, so that --output json and
//     filters get everything (the text view shows the parts);
//   - else its text value (mcpTextValue).
//
// The next-page cursor never changes the value.
func fromMCP(n *node) Value {
	isErr := false
	if e := n.Field("isError"); e != nil && e.Kind == kindBool && string(e.Raw) == "true" {
		isErr = true
	}
	var v Value
	if mcpWhole(n) {
		v = Value{JSON: json.RawMessage(n.Raw), IsJSON: true}
	} else {
		v = mcpTextValue(n)
	}
	v.IsError = isErr
	v.Result = json.RawMessage(n.Raw)
	return v
}

// mcpTextValue is the value of an MCP result whose parts are all text:
// its structuredContent when present and not null, unless that merely
// wraps the joined text (an object whose only member equals it); else one
// part's text, read as text or JSON text (so are several parts whose joined
// text is one JSON value: a JSON text sent in pieces); else, for several
// parts, the array of the parts' values, each part read as text or JSON
// text, shown part after part in the text view.
func mcpTextValue(n *node) Value {
	parts := n.Field("content").Vals
	texts := make([]string, len(parts))
	for i, part := range parts {
		texts[i] = stringField(part, "text")
	}
	joined := strings.Join(texts, "\n")
	if sc := n.Field("structuredContent"); sc != nil && sc.Kind != kindNull && !wrapsText(sc, joined) {
		return fromNode(sc, false)
	}
	if v := textOrJSON(joined); len(texts) <= 1 || v.IsJSON {
		v.prose = !v.IsJSON
		return v // one part; or one JSON text split into parts
	}
	arr := []byte{'['}
	for i, t := range texts {
		if i > 0 {
			arr = append(arr, ',')
		}
		if pv := textOrJSON(t); pv.IsJSON {
			arr = appendCompact(arr, pv.JSON)
		} else {
			arr = append(arr, jsontext.MarshalOrNull(t)...)
		}
	}
	arr = append(arr, ']')
	return Value{JSON: json.RawMessage(arr), IsJSON: true, parts: true}
}

// mcpTexts is the text parts of an MCP result joined with "\n".
func mcpTexts(n *node) string {
	var texts []string
	for _, part := range n.Field("content").Vals {
		if part.Field("type").Str() == "text" {
			texts = append(texts, stringField(part, "text"))
		}
	}
	return strings.Join(texts, "\n")
}

// wrapsText reports whether structured content merely wraps the text of
// the content parts: an object with one member that equals the text (a
// string with the same text, trailing newlines aside, or a JSON value equal
// to the text's JSON: {"result": [...]} or {"result": 42}).
func wrapsText(sc *node, text string) bool {
	if sc.Kind != kindObject || len(sc.Keys) != 1 {
		return false
	}
	m := sc.Vals[0]
	if m.Kind == kindString {
		return strings.TrimRight(m.Str(), "\r\n") == strings.TrimRight(text, "\r\n")
	}
	if m.Kind != kindObject && m.Kind != kindArray {
		// A number, true, false or null: FastMCP's {"result": 42} of "42".
		return strings.TrimSpace(text) == string(m.Raw)
	}
	t, err := parseJSON([]byte(strings.TrimSpace(text)))
	if err != nil {
		return false
	}
	return bytes.Equal(appendCompact(nil, t.Raw), appendCompact(nil, m.Raw))
}

// mcpTextLines is the text view of an MCP result kept whole: the text
// parts, and one line for each other part ("[image image/png, 14.2 KiB]
// (the bytes: --output json)", "[resource_link file:///x.log x — A log]");
// an embedded text resource prints its text under its "[resource uri,
// mimeType]" line.
func mcpTextLines(n *node) []string {
	var lines []string
	for _, part := range n.Field("content").Vals {
		lines = append(lines, partLines(part)...)
	}
	return lines
}

// writeMCPPreview writes the text view of an MCP result on a color
// terminal: the parts' lines made safe, each PNG, JPEG or GIF image followed
// by its half-block preview (agsh's own color sequences, added after).
func writeMCPPreview(w io.Writer, n *node, o Options) error {
	var lines []string
	clean := o.clean()
	light := -1 // asked once, when an image is about to be shown
	for _, part := range n.Field("content").Vals {
		for _, l := range partLines(part) {
			lines = append(lines, clean(l))
		}
		if stringField(part, "type") == "image" && previewable(stringField(part, "mimeType")) {
			if light < 0 {
				light = 0
				if o.Light != nil && o.Light() {
					light = 1
				}
			}
			lines = append(lines, imagePreview(stringField(part, "data"), o.width(), light == 1)...)
		}
	}
	text := strings.Join(lines, "\n")
	if text == "" {
		return nil
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return writeString(w, text)
}

// mcpText is mcpTextLines joined into text.
func mcpText(n *node) string {
	return strings.Join(mcpTextLines(n), "\n")
}

// partLines renders one content part: a text part's text; an embedded text
// resource as its summary line and its text; anything else as one line.
func partLines(part *node) []string {
	switch part.Field("type").Str() {
	case "text":
		return []string{stringField(part, "text")}
	case "resource":
		res := part.Field("resource")
		if t := res.Field("text"); t != nil && t.Kind == kindString && res.Field("blob") == nil {
			head := "[resource" + word(stringField(res, "uri"))
			if mt := stringField(res, "mimeType"); mt != "" {
				head += ", " + flat(mt)
			}
			return []string{head + "]", t.Str()}
		}
	}
	return []string{partLine(part)}
}

// partLine is the one-line placeholder of a part that is not text, such as
// "[image image/png, 14.2 KiB] (the bytes: --output json)" or
// "[resource_link file:///x.log x — A log]".
func partLine(part *node) string {
	typ := part.Field("type").Str()
	var b strings.Builder
	b.WriteString("[")
	b.WriteString(flat(typ))
	hint := false
	switch typ {
	case "text":
		return flat(stringField(part, "text"))
	case "resource_link":
		b.WriteString(word(stringField(part, "uri")))
		name := stringField(part, "name")
		if name == "" {
			name = stringField(part, "title")
		}
		b.WriteString(word(name))
		if d := stringField(part, "description"); d != "" {
			b.WriteString(" — " + flat(d))
		}
	case "resource":
		res := part.Field("resource")
		b.WriteString(word(stringField(res, "uri")))
		if mt := stringField(res, "mimeType"); mt != "" {
			b.WriteString(", " + flat(mt))
		}
		if t := res.Field("text"); t != nil && t.Kind == kindString {
			b.WriteString(", " + formatSize(len(t.Str())))
		} else if d := res.Field("blob"); d != nil && d.Kind == kindString {
			b.WriteString(", " + formatSize(base64Len(d.Str())))
			hint = true
		}
	default: // image, audio and anything else with data
		b.WriteString(word(stringField(part, "mimeType")))
		if d := part.Field("data"); d != nil && d.Kind == kindString {
			b.WriteString(", " + formatSize(base64Len(d.Str())))
			hint = true
		}
	}
	b.WriteString("]")
	if hint {
		b.WriteString(bytesHint)
	}
	return b.String()
}

// isContentPart reports whether an object is shaped as a content part that
// carries bytes: type image or audio with string data, or type resource
// whose resource has a string blob. The text view shows it as its
// placeholder (partLine) instead of its base64.
func isContentPart(n *node) bool {
	if n == nil || n.Kind != kindObject {
		return false
	}
	switch stringField(n, "type") {
	case "image", "audio":
		d := n.Field("data")
		return d != nil && d.Kind == kindString
	case "resource":
		b := n.Field("resource").Field("blob")
		return b != nil && b.Kind == kindString
	}
	return false
}

// partRows is the text view of a table whose rows are content parts, as a
// server's JSON text of its content (every row an object with a string
// "type", one at least carrying bytes): each part as in an MCP result's
// text view, never a table of base64. nil for any other table.
func partRows(t *tableData) []string {
	has := map[string]bool{}
	for _, c := range t.cols {
		has[c] = true
	}
	if !has["type"] || !has["data"] && !has["resource"] {
		return nil
	}
	n, err := parseJSON(t.data)
	if err != nil || n.Kind != kindArray {
		return nil
	}
	bytesPart := false
	for _, el := range n.Vals {
		if el.Field("type") == nil || el.Field("type").Kind != kindString {
			return nil
		}
		bytesPart = bytesPart || isContentPart(el)
	}
	if !bytesPart {
		return nil
	}
	var lines []string
	for _, el := range n.Vals {
		lines = append(lines, partLines(el)...)
	}
	return lines
}

// word is " "+s on one line, or "" for "".
func word(s string) string {
	if s == "" {
		return ""
	}
	return " " + flat(s)
}

// flat puts text on one line: line breaks and tabs become spaces.
func flat(s string) string {
	if !strings.ContainsAny(s, "\r\n\t") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
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
