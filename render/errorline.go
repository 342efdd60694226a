package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/agsh-dev/agsh/internal/jsontext"
)

// errorWrapperKeys are the only keys an error wrapper may have.
// "success" is "ok" under another name: servers such as dbhub, duckdb and
// git-mcp-server answer {"success": false, "error": …} without isError
// (docs/rendering.md#error-line).
var errorWrapperKeys = [...]string{"ok", "success", "error", "message", "code", "status", "details"}

// failureKeys are the keys whose false marks a wrapper without an error.
var failureKeys = [...]string{"ok", "success"}

// IsErrorWrapper reports whether v is an object that is nothing but an error
// wrapper (docs/rendering.md#error-line): all its keys are among ok,
// success, error, message, code, status and details, and either ok or
// success is false or error is present and non-empty.
func IsErrorWrapper(v Value) bool {
	_, ok := ErrorMessage(v)
	return ok
}

// ErrorMessage returns the text of the error line for an error wrapper —
// "<message, else error>" with " (<code>)" when a code is given — and true;
// for any other value it returns "" and false.
func ErrorMessage(v Value) (string, bool) {
	if !v.IsJSON || v.Final || !startsObject(v.JSON) {
		return "", false
	}
	n, err := v.parsed()
	if err != nil || n.Kind != kindObject || !isErrorWrapper(n) {
		return "", false
	}
	return wrapperText(n), true
}

// startsObject: the JSON text's first character opens an object (only an
// object can be an error wrapper; an array is not parsed to find out).
func startsObject(raw []byte) bool {
	i := jsontext.SkipSpace(raw, 0)
	return i < len(raw) && raw[i] == '{'
}

// ErrorText is the text of the error line for a call answered with isError:
// for an MCP result whose parts are all text, those parts' text read as
// below (not its structuredContent); the error wrapper's text when the
// value is one, else the text (trailing newlines dropped), else a message
// or error field of an object, else the value's compact JSON; for an error
// with none of these (no result, an empty text), that the tool gave no
// message.
func ErrorText(v Value) string {
	if msg := errorText(v); strings.TrimSpace(msg) != "" {
		return msg
	}
	return "the tool reported an error without a message"
}

func errorText(v Value) string {
	if len(v.Result) > 0 {
		// An MCP result: an error keeps its text, whatever its
		// structuredContent says.
		if n, err := parseJSON(v.Result); err == nil && isMCPResult(n) && !hasNonText(n) {
			if t := mcpTexts(n); strings.TrimSpace(t) != "" {
				return errorText(textOrJSON(t))
			}
		}
	}
	if msg, ok := ErrorMessage(v); ok {
		return msg
	}
	if !v.IsJSON {
		return strings.TrimRight(v.Text, "\r\n")
	}
	n, err := v.parsed()
	if err != nil {
		return strings.TrimSpace(string(v.JSON))
	}
	if n.Kind == kindString {
		return strings.TrimRight(n.Str(), "\r\n")
	}
	if isMCPWhole(n) {
		return strings.TrimRight(mcpText(n), "\r\n")
	}
	if n.Kind == kindObject && (nonEmpty(n.Field("message")) || nonEmpty(n.Field("error"))) {
		return wrapperText(n)
	}
	return compactString(n)
}

func isErrorWrapper(n *node) bool {
	for _, k := range n.Keys {
		known := false
		for _, w := range errorWrapperKeys {
			if k == w {
				known = true
				break
			}
		}
		if !known {
			return false
		}
	}
	return failedKey(n) != "" || nonEmpty(n.Field("error"))
}

// failedKey is the first of failureKeys that is false in n, else "".
func failedKey(n *node) string {
	for _, k := range failureKeys {
		if f := n.Field(k); f != nil && string(f.Raw) == "false" {
			return k
		}
	}
	return ""
}

// nonEmpty: present and not null, false, "", {} or [].
func nonEmpty(n *node) bool {
	if n == nil {
		return false
	}
	switch n.Kind {
	case kindNull:
		return false
	case kindBool:
		return string(n.Raw) == "true"
	case kindString:
		return n.Str() != ""
	case kindArray, kindObject:
		return len(n.Vals) > 0
	}
	return true
}

// wrapperText is "<message, else error>" plus " (<code>)" when a code is
// given. An error that is an object contributes its own message.
func wrapperText(n *node) string {
	text := ""
	for _, key := range []string{"message", "error"} {
		f := n.Field(key)
		if !nonEmpty(f) {
			continue
		}
		switch {
		case f.Kind == kindString:
			text = f.Str()
		case f.Kind == kindObject && nonEmpty(f.Field("message")):
			text = valueWord(f.Field("message"))
		default:
			text = compactString(f)
		}
		break
	}
	if text == "" {
		key := failedKey(n)
		if key == "" {
			key = "ok"
		}
		text = "the tool reported failure (" + key + ": false)"
	}
	if c := n.Field("code"); nonEmpty(c) {
		text += " (" + valueWord(c) + ")"
	}
	return text
}

// valueWord is a string's text or any other value's compact JSON.
func valueWord(n *node) string {
	if n.Kind == kindString {
		return n.Str()
	}
	return compactString(n)
}

// ErrorValue is what a data format writes for a tool-reported error, so
// that a script tells it from data without the exit status: the MCP result
// as received when it carries "isError": true, else {"isError": true,
// "result": <the value>}.
func ErrorValue(v Value) Value {
	if v.IsError && len(v.Result) > 0 {
		return Value{JSON: v.Result, IsJSON: true}
	}
	inner := []byte("null")
	switch {
	case v.IsJSON && !v.Final:
		if n, err := v.parsed(); err == nil {
			inner = n.Raw
		} else {
			inner = jsontext.MarshalOrNull(string(v.JSON))
		}
	case v.Text != "" || v.Final:
		inner = jsontext.MarshalOrNull(v.Text)
	}
	out := append([]byte(`{"isError":true,"result":`), inner...)
	return Value{JSON: json.RawMessage(append(out, '}')), IsJSON: true}
}

// errorLabel is the label of the error line; a text that already begins
// with it (any case) does not get it twice.
const errorLabel = "Error:"

// WriteError writes "Error: <text>\n" ("Error:" red when o.Color; the text
// made safe when o.TTY). Trailing newlines of text are dropped, and so is
// an "Error:" the text itself begins with.
func WriteError(w io.Writer, text string, o Options) error {
	text = strings.TrimRight(text, "\r\n")
	if len(text) > len(errorLabel) && strings.EqualFold(text[:len(errorLabel)], errorLabel) {
		if rest := strings.TrimLeft(text[len(errorLabel):], " \t"); rest != "" {
			text = rest
		}
	}
	text = o.clean()(text)
	label := errorLabel
	if o.Color {
		label = sgrRed + label + sgrReset
	}
	_, err := fmt.Fprintf(w, "%s %s\n", label, text)
	return err
}

// WriteJSON writes the value as JSON indented two spaces, numbers exactly as
// received and key order kept; a text value becomes a JSON string. DEL, C1
// controls and invalid UTF-8 inside strings are written as \u escapes, so
// the output is safe on a terminal.
func WriteJSON(w io.Writer, v Value) error {
	var out []byte
	if v.IsJSON && !v.Final {
		raw := bytes.TrimSpace(v.JSON)
		if !v.isChecked() {
			n, err := v.parsed()
			if err != nil {
				return fmt.Errorf("render: %w", err)
			}
			raw = n.Raw
		}
		flush := func(p []byte) error { _, err := w.Write(p); return err }
		var err error
		out, err = indent(make([]byte, 0, min(len(raw)+1, indentFlush+1024)), raw, flush)
		if err != nil {
			return err
		}
	} else {
		// Text as a JSON string, encoded piece by piece (writeJSONText):
		// a 50 MB text is not copied twice more to be written.
		return writeJSONText(w, v.Text)
	}
	out = append(out, '\n')
	_, err := w.Write(out)
	return err
}
