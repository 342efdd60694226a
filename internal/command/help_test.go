package command

import (
	"encoding/json"
	"testing"
)

func TestOutputNote(t *testing.T) {
	cases := []struct{ schema, want string }{
		{``, ""},
		{`null`, ""},
		{`{"type":"object","properties":{"issueId":{"type":"string"},"line":{"type":"integer"},"tags":{"type":["array","null"]}}}`,
			"Output: {issueId: string, line: integer, tags: array|null}."},
		{`{"type":"array","items":{"type":"object","properties":{"sha":{"type":"string"},"files":{"type":"array"}}}}`,
			"Output: [{sha: string, files: array}]."},
		{`{"type":"array","items":{"type":"string"}}`, "Output: array."},
		{`{"type":"string"}`, "Output: string."},
		{`{}`, "Output: any."},
	}
	for _, c := range cases {
		if got := OutputNote(json.RawMessage(c.schema)); got != c.want {
			t.Errorf("OutputNote(%s) = %q, want %q", c.schema, got, c.want)
		}
	}
}
