package meta

import (
	"strings"
	"testing"
	"time"
)

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
