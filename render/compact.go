package render

import (
	"bytes"

	"github.com/agsh-dev/agsh/internal/jsontext"
	"github.com/agsh-dev/agsh/internal/termsafe"
)

// appendCompact appends raw (valid JSON) with the whitespace between tokens
// removed (jsontext.AppendCompact).
func appendCompact(dst, raw []byte) []byte { return jsontext.AppendCompact(dst, raw) }

// compactString returns the compact JSON text of a node.
func compactString(n *node) string {
	if n.Kind != kindArray && n.Kind != kindObject {
		return string(n.Raw)
	}
	return string(appendCompact(make([]byte, 0, len(n.Raw)), n.Raw))
}

// appendIndented appends raw (valid JSON) indented two spaces per level,
// like encoding/json.Indent, but keeping every string's bytes except that
// the characters termsafe.AppendJSON escapes become \u escapes, so the
// output can be written to a terminal as is.
func appendIndented(dst, raw []byte) []byte {
	dst, _ = indent(dst, raw, nil)
	return dst
}

// indentFlush is how much indented output indent gathers before it hands
// it to flush.
const indentFlush = 64 << 10

// indent is appendIndented; with flush, the output is handed to it every
// indentFlush bytes or so (dst is then reused), so that a large value is
// not held a second time as its indented text.
func indent(dst, raw []byte, flush func([]byte) error) ([]byte, error) {
	depth := 0
	var err error
	// newline starts a line at depth; with flush, what was gathered goes
	// out first once it is indentFlush (at a comma, or between brackets
	// of a value nested deep enough that its lines are mostly indent).
	newline := func() {
		if flush != nil && len(dst) >= indentFlush && err == nil {
			err = flush(dst)
			dst = dst[:0]
		}
		dst = append(dst, '\n')
		for i := 0; i < depth; i++ {
			dst = append(dst, ' ', ' ')
		}
	}
	raw = bytes.TrimSpace(raw)
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch c {
		case ' ', '\t', '\n', '\r':
		case '"':
			dst, i = termsafe.AppendJSONString(dst, raw, i)
		case '{', '[':
			dst = append(dst, c)
			// An empty container stays on one line.
			j := i + 1
			for j < len(raw) && (raw[j] == ' ' || raw[j] == '\t' || raw[j] == '\n' || raw[j] == '\r') {
				j++
			}
			if j < len(raw) && (raw[j] == '}' || raw[j] == ']') {
				dst = append(dst, raw[j])
				i = j
				continue
			}
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline()
		case ':':
			dst = append(dst, ':', ' ')
		default:
			dst = append(dst, c)
		}
		if err != nil {
			return dst, err
		}
	}
	return dst, nil
}

// SafeJSON returns encoded JSON (such as encoding/json's output) with every
// character that is not safe on a terminal (termsafe.Unsafe: DEL, the C1
// controls, bidi, zero-width and tag characters) inside strings written as a
// \u escape and invalid UTF-8 as \ufffd, every other byte kept: the same JSON
// value, safe to write to a terminal (termsafe.AppendJSON, the one JSON form).
// encoding/json escapes only the C0 controls.
func SafeJSON(raw []byte) []byte {
	return termsafe.AppendJSON(make([]byte, 0, len(raw)+8), raw)
}
