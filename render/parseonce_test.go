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
