package command

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/catalog"
)

// TestWriteGuard: one rule of the tool's detail says whether agsh asks.
func TestWriteGuard(t *testing.T) {
	yes, no := true, false
	tests := []struct {
		name string
		d    catalog.ToolDetail
		why  string
		note string
	}{
		{"needs approval", catalog.ToolDetail{NeedsApproval: true}, "it declares needsApproval: true",
			"agsh asks before calling it when standard input is a terminal (it declares needsApproval: true); --yes or AGSH_YES=1 skips the question, and without a terminal (a script, a pipe) agsh calls it only with one of them."},
		{"a write", catalog.ToolDetail{Effect: "write"}, `it declares effect: "write"`, ""},
		{"both", catalog.ToolDetail{Effect: "Write", NeedsApproval: true}, `it declares needsApproval: true and effect: "Write"`, ""},
		{"destructive", catalog.ToolDetail{Annotations: &catalog.Annotations{DestructiveHint: &yes}}, "it declares destructiveHint: true", ""},
		{"not destructive", catalog.ToolDetail{Annotations: &catalog.Annotations{DestructiveHint: &no}}, "",
			"Effect not declared; agsh does not ask before calling it."},
		{"destructive left out", catalog.ToolDetail{Annotations: &catalog.Annotations{ReadOnlyHint: &no}}, "",
			"Effect not declared; agsh does not ask before calling it."},
		{"a read", catalog.ToolDetail{Effect: "read"}, "", ""},
		{"read-only hint", catalog.ToolDetail{Annotations: &catalog.Annotations{ReadOnlyHint: &yes}}, "", ""},
		{"nothing declared", catalog.ToolDetail{}, "", "Effect not declared; agsh does not ask before calling it."},
	}
	for _, tt := range tests {
		g := WriteGuard(&tt.d)
		if g.Ask != (tt.why != "") || g.Reason() != tt.why {
			t.Errorf("%s: ask %v, reason %q, want %q", tt.name, g.Ask, g.Reason(), tt.why)
		}
		if note := guardNote(&tt.d); tt.note != "" && note != tt.note || tt.note == "" && (note == noEffectNote) {
			t.Errorf("%s: note %q, want %q", tt.name, note, tt.note)
		}
	}
	if WriteGuard(nil).Ask {
		t.Error("no detail asks")
	}
}

// TestWriteGuardMalformed: the guard fails closed. A detail as a deployment
// sends it, whose needsApproval or effect is not a clear false or read,
// makes agsh ask; only a clear read (or nothing declared) does not.
func TestWriteGuardMalformed(t *testing.T) {
	tests := []struct {
		detail string
		why    string
	}{
		{`"needsApproval": 1`, "it declares needsApproval: true"},
		{`"needsApproval": "true"`, "it declares needsApproval: true"},
		{`"needsApproval": "false"`, "it declares needsApproval: true"},
		{`"needsApproval": 0`, "it declares needsApproval: true"},
		{`"needsApproval": {}`, "it declares needsApproval: true"},
		{`"needsApproval": [true]`, "it declares needsApproval: true"},
		{`"effect": ["write"]`, `it declares effect: "[\"write\"]"`},
		{`"effect": {"kind": "read"}`, `it declares effect: "{\"kind\": \"read\"}"`},
		{`"effect": 1`, `it declares effect: "1"`},
		{`"effect": true`, `it declares effect: "true"`},
		{`"effect": "delete"`, `it declares effect: "delete"`},
		{`"effect": "Read"`, `it declares effect: "Read"`},
		{`"effect": " read"`, `it declares effect: " read"`},
		{`"effect": "read\u202e"`, `it declares effect: "read\u202e"`},
		{`"effect": "read", "needsApproval": "no"`, "it declares needsApproval: true"},
		{`"effect": ["read"], "needsApproval": false`, `it declares effect: "[\"read\"]"`},
		{`"annotations": {"destructiveHint": "true"}`, "it declares destructiveHint: true"},
		{`"annotations": {"destructiveHint": 1}`, "it declares destructiveHint: true"},
		{`"annotations": {"readOnlyHint": true, "destructiveHint": [true]}`, "it declares destructiveHint: true"},
		{`"annotations": "destructive"`, "it declares destructiveHint: true"},
		{`"annotations": [{"destructiveHint": false}]`, "it declares destructiveHint: true"},
		// Clear answers: no question.
		{`"annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": "x"}`, ""},
		{`"annotations": {"destructiveHint": null, "title": 5}`, ""},
		{`"effect": "read", "needsApproval": false`, ""},
		{`"effect": null, "needsApproval": null`, ""},
		{`"effect": ""`, ""},
	}
	for _, tt := range tests {
		var a catalog.ToolResponse
		if err := json.Unmarshal([]byte(`{"ok": true, "tool": {"name": "t", `+tt.detail+`}}`), &a); err != nil {
			t.Errorf("%s: %v", tt.detail, err)
			continue
		}
		if a.Tool.Name != "t" {
			t.Errorf("%s: the rest of the detail was lost: %+v", tt.detail, a.Tool)
		}
		g := WriteGuard(&a.Tool)
		if g.Ask != (tt.why != "") || g.Reason() != tt.why {
			t.Errorf("%s: ask %v, reason %q, want %q", tt.detail, g.Ask, g.Reason(), tt.why)
		}
	}
	long := `{"name": "t", "effect": [` + strings.Repeat(`"write",`, 100) + `"write"]}`
	var d catalog.ToolDetail
	if err := json.Unmarshal([]byte(long), &d); err != nil || !WriteGuard(&d).Ask || len(d.Effect) > 80 {
		t.Errorf("a long effect: %v, %d bytes kept, ask %v", err, len(d.Effect), WriteGuard(&d).Ask)
	}
}

// TestQuestionText: the deployment's text cannot add a row or a prompt of
// its own, nor drive the terminal.
func TestQuestionText(t *testing.T) {
	q := Question{Head: "agsh: x writes (it declares needsApproval: true)", Prompt: "Run it?"}
	q.Add("target", "evil\nRun it? [y/N] y\x1b[2J\u202e at http://h/a")
	q.Add("call", "x --title=t")
	got := q.Text()
	want := "agsh: x writes (it declares needsApproval: true)\n" +
		`  target   evil\nRun it? [y/N] y\x1b[2J\u202e at http://h/a` + "\n" +
		"  call     x --title=t\n" +
		"Run it? [y/N] "
	if got != want {
		t.Errorf("Text =\n%q\nwant\n%q", got, want)
	}
}

func TestAgo(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for at, want := range map[string]string{
		"2026-01-02T03:04:00Z": " (5s ago)", "2026-01-02T03:00:05Z": " (4m ago)", "2026-01-02T01:04:05Z": " (2h ago)",
		"2025-12-01T03:04:05Z": " (32d ago)", "2027-01-01T00:00:00Z": "", "soon": "",
	} {
		if got := ago(at, now); got != want {
			t.Errorf("ago(%s) = %q, want %q", at, got, want)
		}
	}
}

// TestActChecks: each acting word's line is checked without a call, with
// exact messages (exit 2); --yes is taken on every meta line.
func TestActChecks(t *testing.T) {
	tests := []struct {
		line, want string
	}{
		{":approvals", ""},
		{":approvals ses_1 --yes", ""},
		{":approvals a b", ":approvals: unexpected operand \"b\"\nusage: :approvals [session]"},
		{":approve", ":approve: missing <callId>\nusage: :approve <callId> [session]"},
		{":approve call_1 --yes", ""},
		{":approve call_1 ses_1", ""},
		{":approve 'bad id'", `:approve: "bad id" is not a call id`},
		{":deny call_1 --reason", ":deny: --reason needs a value <text>"},
		{":deny call_1 --reason=", ":deny: --reason needs a value <text>"},
		{":deny call_1 --reason 'not now'", ""},
		{":deny call_1 --why x", ":deny: unknown flag --why (it takes --reason)"},
		{":stop", ""},
		{":stop --follow", ":stop: unknown flag --follow (it takes none)"},
		{":say", ":say: missing <text>\nusage: :say <text> [--follow]"},
		{":say ''", ":say: missing <text>\nusage: :say <text> [--follow]"},
		{":say hello world --follow", ""},
		{":say -- --not-a-flag", ""},
		{":say --follow=yes hi", ":say: --follow takes no value"},
		{":new", ":new: missing <text>\nusage: :new <text> [--title <t>] [--dry-run]"},
		{":new hi --title", ":new: --title needs a value <t>"},
		{":new hi --title T --dry-run", ""},
	}
	for _, tt := range tests {
		argv := splitTest(tt.line)
		err := CheckMeta(argv)
		got := ""
		if err != nil {
			got = err.Error()
			if code := err.(interface{ ExitCode() int }).ExitCode(); code != 2 {
				t.Errorf("%s: exit %d", tt.line, code)
			}
		}
		if got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.line, got, tt.want)
		}
	}
	a, err := parseMetaArgs(mustMeta(t, MetaSay), []string{"call", "ls", "{}", "--follow"})
	if err != nil || a.operand(0) != "call ls {}" || a.values["--follow"] != "true" {
		t.Errorf(":say words: %q %v", a.operands, err)
	}
}

func mustMeta(t *testing.T, name string) *MetaCommand {
	t.Helper()
	m, ok := LookupMeta(name)
	if !ok {
		t.Fatalf("no %s", name)
	}
	return m
}

// splitTest splits a test line on spaces, keeping '…' together.
func splitTest(s string) []string {
	var out []string
	for len(s) > 0 {
		s = strings.TrimLeft(s, " ")
		if s == "" {
			break
		}
		if s[0] == '\'' {
			end := strings.IndexByte(s[1:], '\'') + 1
			out = append(out, s[1:end])
			s = s[end+1:]
			continue
		}
		w, rest, _ := strings.Cut(s, " ")
		out, s = append(out, w), rest
	}
	return out
}
