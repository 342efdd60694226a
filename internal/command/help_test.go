package command

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/catalog"
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

// TestAnnotationNotes: NOTES word every declared hint, except idempotentHint
// false on a read-only tool (meaningless there, and what the Go SDK writes
// for every annotated tool).
func TestAnnotationNotes(t *testing.T) {
	yes, no := true, false
	notes := func(a *catalog.Annotations) []string {
		d := &catalog.ToolDetail{Name: "t", InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: a}
		cmd, err := New(d)
		if err != nil {
			t.Fatal(err)
		}
		return HelpPage(cmd, func() *catalog.Info { return nil }).Notes
	}
	got := strings.Join(notes(&catalog.Annotations{ReadOnlyHint: &yes, IdempotentHint: &no, OpenWorldHint: &no}), "\n")
	if want := "Effect: read (performs no writes).\nClosed world: it works only within its own system (openWorldHint: false)."; got != want {
		t.Errorf("read-only tool notes:\n%s\nwant\n%s", got, want)
	}
	got = strings.Join(notes(&catalog.Annotations{ReadOnlyHint: &no, DestructiveHint: &yes, IdempotentHint: &no, OpenWorldHint: &yes}), "\n")
	for _, w := range []string{"Destructive: ", "Not idempotent: ", "Open world: "} {
		if !strings.Contains(got, w) {
			t.Errorf("writing tool notes lack %q:\n%s", w, got)
		}
	}
}
