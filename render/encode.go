package render

import (
	"bytes"
	"encoding/json"
	"io"
)

// EncodeJSON writes v as one JSON document (indented two spaces when indent
// is set) without HTML escapes, and with the characters termsafe.Unsafe
// reports and invalid UTF-8 inside strings escaped (SafeJSON), so that text from the deployment cannot
// drive a terminal through JSON output either: agsh's help and error lines
// under --output json.
func EncodeJSON(w io.Writer, v any, indent bool) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if indent {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(SafeJSON(buf.Bytes()))
	return err
}
