package render

import (
	"encoding/json"
	"io"
	"testing"
)

// TestResultParsedOnce: a JSON result is parsed by FromResult and by no
// view after it (error check, text view, JSON view).
func TestResultParsedOnce(t *testing.T) {
	for _, raw := range []string{
		`"[{\"sha\":\"1\",\"files\":[\"a\"]},{\"sha\":\"2\",\"files\":[]}]"`,
		`[{"a":1},{"a":2}]`,
		`{"a":{"b":[1,2]}}`,
		`"{\"error\":\"x\"}"`,
	} {
		v := FromResult(json.RawMessage(raw))
		before := parses.Load()
		ErrorMessage(v)
		if err := Write(io.Discard, io.Discard, v, Options{Width: 80}); err != nil {
			t.Fatal(err)
		}
		if err := WriteJSON(io.Discard, v); err != nil {
			t.Fatal(err)
		}
		if n := parses.Load() - before; n != 0 {
			t.Errorf("%s: parsed %d more times after FromResult", raw, n)
		}
	}
}

// TestArrayResultNotBuilt: an array result (or JSON text of one) is
// checked by FromResult, not parsed into a tree: the table view reads its
// bytes, and no view after it parses it either; invalid JSON stays text.
func TestArrayResultNotBuilt(t *testing.T) {
	for _, raw := range []string{
		`[{"a":1},{"a":2,"b":[1,2]}]`,
		`"[{\"sha\":\"1\"},{\"sha\":\"2\"}]"`,
		` [ {"a": 1.50} ] `,
	} {
		before := parses.Load()
		v := FromResult(json.RawMessage(raw))
		if !v.IsJSON {
			t.Fatalf("%s: not JSON: %+v", raw, v)
		}
		ErrorMessage(v)
		NextCursor(v)
		if err := Write(io.Discard, io.Discard, v, Options{Width: 80}); err != nil {
			t.Fatal(err)
		}
		if err := WriteJSON(io.Discard, v); err != nil {
			t.Fatal(err)
		}
		if n := parses.Load() - before; n != 0 {
			t.Errorf("%s: parsed %d times", raw, n)
		}
	}
	for _, raw := range []string{`[1,]`, `"[1,]"`, `[{"a":01}]`} {
		if v := FromResult(json.RawMessage(raw)); v.IsJSON {
			t.Errorf("%s: taken for JSON", raw)
		}
	}
}
