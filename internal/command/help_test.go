package command

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

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
	for _, w := range []string{"Not read-only (readOnlyHint: false).\n", "Destructive: ", "Not idempotent: ", "Open world: "} {
		if !strings.Contains(got, w) {
			t.Errorf("writing tool notes lack %q:\n%s", w, got)
		}
	}
	// readOnlyHint false is stated, and /v1/info is not asked then.
	d := &catalog.ToolDetail{Name: "t", InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: &catalog.Annotations{ReadOnlyHint: &no}}
	cmd, err := New(d)
	if err != nil {
		t.Fatal(err)
	}
	page := HelpPage(cmd, func() *catalog.Info { t.Error("info asked"); return nil })
	if strings.Join(page.Notes, "\n") != "Not read-only (readOnlyHint: false).\n"+noEffectNote {
		t.Errorf("notes %q", page.Notes)
	}
}

// TestRequiredBooleanFacts: a required valueless flag says how to send
// false; an optional one says nothing of it.
func TestRequiredBooleanFacts(t *testing.T) {
	d := &catalog.ToolDetail{Name: "write_to_sheet", InputSchema: json.RawMessage(`{"type":"object","properties":{"newSheet":{"type":"boolean","description":"Create a new sheet if true"},"quiet":{"type":"boolean","default":false}},"required":["newSheet"]}`)}
	cmd, err := New(d)
	if err != nil {
		t.Fatal(err)
	}
	page := HelpPage(cmd, func() *catalog.Info { return nil })
	if got := page.Options[0].Facts; got != "Required: --new-sheet sends true, --new-sheet=false sends false." {
		t.Errorf("--new-sheet facts %q", got)
	}
	if got := page.Options[1].Facts; got != "Default: false." {
		t.Errorf("--quiet facts %q", got)
	}
}

// agsh --help keeps to 80 columns.
func TestUsageWidth(t *testing.T) {
	for i, line := range strings.Split(Usage(), "\n") {
		if n := utf8.RuneCountInString(line); n > helpWidth {
			t.Errorf("line %d is %d columns: %q", i+1, n, line)
		}
	}
	if got := wrapWords("aa bb [--last <n>] cc", 10); strings.Join(got, "|") != "aa bb|[--last <n>]|cc" {
		t.Errorf("wrapWords = %q", got)
	}
}

// agsh --help writes a meta command's required flag without brackets, its
// others in them, as the command's own usage line does.
func TestUsageRequiredMetaFlags(t *testing.T) {
	u := Usage()
	for _, want := range []string{"--for <state> [--timeout <duration>]", "--as <script|md|json> [-o <file>]"} {
		if !strings.Contains(u, want) {
			t.Errorf("agsh --help lacks %q", want)
		}
	}
}
