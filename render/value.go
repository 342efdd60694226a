package render

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/agsh-dev/agsh/internal/jsontext"
)

// Value is what a call produced, after steps 1 and 2 of
// docs/rendering.md#the-value-to-render: text, or a structured JSON value.
type Value struct {
	// Text is the value when IsJSON is false.
	Text string
	// JSON is the value when IsJSON is true: an object, array or other JSON
	// value, bytes as received.
	JSON json.RawMessage
	// IsJSON says the value is structured.
	IsJSON bool
	// Final marks curated reformatted output or filter text: never taken for
	// JSON, written byte for byte.
	Final bool
	// IsError is set by FromResult when the result was an MCP tool result
	// carrying "isError": true (the call answer's own isError is the
	// caller's to check).
	IsError bool
	// Result is the MCP tool result as received, when FromResult saw one
	// (every content part as sent, structuredContent, isError, _meta),
	// whatever the value became; nil otherwise. NextCursor reads its _meta.
	Result json.RawMessage

	// tree is JSON parsed, when FromResult parsed it: a result is parsed
	// once, not again by each view (parsed).
	tree *node
	// checked is JSON when FromResult checked it without building its
	// tree (an array: the table view reads the bytes, and a view that
	// needs the tree builds it then).
	checked []byte
	// rows indexes checked when the caller's check indexed it
	// (FromCheckedResult): the table reads its cells from it.
	rows *indexed
	// parts marks JSON as the array of the values of an MCP result's
	// several text parts: the text view shows them one after another.
	parts bool
	// prose marks Text as an MCP result's text part: on a terminal its
	// long lines wrap at spaces (wrapProse).
	prose bool
}

// isChecked reports that v.JSON is still the bytes FromResult checked.
func (v Value) isChecked() bool {
	c := v.checked
	return len(c) > 0 && len(c) == len(v.JSON) && &c[0] == &v.JSON[0]
}

// checkedRows is the index of v.JSON when the caller's check gave one and
// v.JSON is still the bytes it indexed.
func (v Value) checkedRows() *indexed {
	if v.rows != nil && v.isChecked() {
		return v.rows
	}
	return nil
}

// parsed is v.JSON's tree: the one FromResult built when v.JSON is still
// the bytes it parsed, else a new one.
func (v Value) parsed() (*node, error) {
	if t := v.tree; t != nil && len(v.JSON) > 0 && len(t.Raw) == len(v.JSON) && &t.Raw[0] == &v.JSON[0] {
		return t, nil
	}
	return parseJSON(v.JSON)
}

// TextValue returns a text value. Text that parses as a JSON object or
// array is not reinterpreted: that is FromResult's job.
func TextValue(s string) Value {
	return Value{Text: s}
}

// FinalValue returns final text: curated reformatted output or filter
// output, written byte for byte (on a terminal made safe first).
func FinalValue(s string) Value {
	return Value{Text: s, Final: true}
}

// FromResult normalizes a call's result (raw JSON) per
// docs/rendering.md#the-value-to-render: a string is text, unless it is JSON
// text that parses as an object or array; an MCP tool result (an object with
// a "content" array of typed parts) whose parts are all text becomes its
// structuredContent (unless that merely wraps the text), else its text parts
// joined with "\n" (JSON text parsed); an MCP result with any other part
// stays the result object itself, nothing dropped (Write shows its text
// view); any other JSON value is structured. It never fails: bytes that are
// not JSON at all become text.
func FromResult(result json.RawMessage) Value {
	return fromResult(result, false)
}

// FromCheckedResult is FromResult for a result its caller checked is
// exactly one JSON value nested at most 10,000 deep (catalog's answer
// splice, CallResult.Checked): a string or an array is not checked again.
// rows, when not nil, is the index of the array result found by that
// check (jsontext.IndexArray over result: CallResult.Rows); a table reads
// its cells from it instead of scanning the bytes. The index is the
// Value's from then on (its tables only read it).
func FromCheckedResult(result json.RawMessage, rows *jsontext.Rows) Value {
	v := fromResult(result, true)
	if rows != nil && v.isChecked() && len(result) > 0 && &v.checked[0] == &result[0] {
		v.rows = &indexed{rows: rows} // the offsets are the result's: no white space was cut before it
	}
	return v
}

func fromResult(result json.RawMessage, checked bool) Value {
	trimmed := bytes.TrimSpace(result)
	if len(trimmed) == 0 {
		return Value{}
	}
	if checked && trimmed[0] == '"' || !checked && stringToken(trimmed) {
		// A string result (a file's text, say): checked as parseJSON
		// would, eight bytes at a time, without building a node.
		return textOrJSON(jsontext.Unquote(trimmed))
	}
	if trimmed[0] == '[' {
		// An array is no MCP result: it is checked, and its tree left for
		// the views that need one (a table reads the bytes).
		if !checked && !jsontext.Valid(trimmed, maxDepth) {
			return Value{Text: string(result)}
		}
		return Value{JSON: json.RawMessage(trimmed), IsJSON: true, checked: trimmed}
	}
	n, err := parseJSON(trimmed)
	if err != nil {
		return Value{Text: string(result)}
	}
	return fromNode(n, true)
}

// stringToken reports whether data is exactly one valid string token.
func stringToken(data []byte) bool {
	end, ok := jsontext.StringEnd(data, 0)
	return ok && end == len(data)
}

// fromNode applies steps 1–2 to a decoded value; mcp enables MCP result
// detection (only at the top level).
func fromNode(n *node, mcp bool) Value {
	switch n.Kind {
	case kindString:
		return textOrJSON(jsontext.Unquote(n.Raw))
	case kindObject:
		if mcp && isMCPResult(n) {
			return fromMCP(n)
		}
	}
	return Value{JSON: json.RawMessage(n.Raw), IsJSON: true, tree: n}
}

// textOrJSON is step 2 of docs/rendering.md#the-value-to-render: text that
// parses as a JSON object or array counts as that structured value; any other
// text stays text.
func textOrJSON(s string) Value {
	// Look before converting: a 50 MB file text is not copied to find out
	// that it does not start with a bracket.
	ts := strings.TrimSpace(s)
	if len(ts) >= 2 && ts[0] == '[' {
		if b := []byte(ts); jsontext.Valid(b, maxDepth) {
			return Value{JSON: json.RawMessage(b), IsJSON: true, checked: b}
		}
		return Value{Text: s}
	}
	if len(ts) >= 2 && ts[0] == '{' {
		if n, err := parseJSON([]byte(ts)); err == nil {
			return Value{JSON: json.RawMessage(n.Raw), IsJSON: true, tree: n}
		}
	}
	return Value{Text: s}
}

// decodeValue parses a structured value for rendering. A JSON string is
// normalized as text (step 2 of docs/rendering.md#the-value-to-render again,
// for values built by callers).
func decodeValue(v Value) (*node, Value, error) {
	n, err := v.parsed()
	if err != nil {
		return nil, v, err
	}
	if n.Kind == kindString {
		nv := textOrJSON(jsontext.Unquote(n.Raw))
		if !nv.IsJSON {
			return nil, nv, nil
		}
		return nv.tree, nv, nil
	}
	return n, v, nil
}

// IsEmpty reports an empty answer: empty text, an empty array or an empty
// object (what the text view prints nothing, or "{}", for).
func IsEmpty(v Value) bool {
	if !v.IsJSON {
		return v.Text == ""
	}
	t := bytes.TrimSpace(v.JSON)
	if len(t) < 2 || t[0] != '[' && t[0] != '{' {
		return false
	}
	inner := bytes.TrimSpace(t[1 : len(t)-1])
	return len(inner) == 0 && (t[0] == '[' && t[len(t)-1] == ']' || t[0] == '{' && t[len(t)-1] == '}')
}
