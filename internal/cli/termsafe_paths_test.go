package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agsh-dev/agsh/internal/iostreams"
	"github.com/agsh-dev/agsh/internal/termsafe"
)

// hostile is one string with every kind of character a terminal acts on or
// hides: a right-to-left override, an OSC 52 clipboard write, a zero-width
// space, a tag character, a C1 control and DEL.
const hostile = "A\u202eB\x1b]52;c;aGk=\x07C\u200bD\U000e0041E\u0085F\x7fG"

// TestEveryPathToATerminalEscapes runs every path by which the deployment's
// text reaches a terminal over the same hostile string: the text view, the
// streamed and structured --output json, a table, the error line (text and
// JSON), the console's :trace (text and JSON), :sessions, :status,
// :approvals, :curl, :export (each form), :describe and :wait (:tail on a
// terminal follows until Ctrl-C: internal/console's TestTailTerminalEscapes
// covers it). None writes one of termsafe's unsafe characters raw
// (docs/rendering.md#terminal-safety); each but :status and :wait, which
// show none of the deployment's text here, shows the override escaped.
func TestEveryPathToATerminalEscapes(t *testing.T) {
	t.Parallel()
	srv, _ := startRepoDeployment(t, map[string]string{
		"h.txt":                   "line " + hostile + "\nnext\n",
		"f" + hostile + ".txt":    "x\n",
		"doc.md":                  "# T " + hostile + "\n",
		"data/" + hostile + ".md": "y\n",
	})
	exe := srv.AgentURL("executor")
	body, _ := json.Marshal(map[string]string{
		"title": "title " + hostile,
		"message": `call read {"path": "/repo/h.txt"}` + "\nsay said " + hostile +
			"\ncall report_change_issue " + mustJSON(map[string]any{"title": "t " + hostile, "details": hostile}),
	})
	resp, err := http.Post(exe+"/v1/session", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var created struct {
		SessionID string `json:"sessionId"`
	}
	if json.Unmarshal(b, &created) != nil || created.SessionID == "" {
		t.Fatalf("create: %s %s", resp.Status, b)
	}
	id := created.SessionID
	waitState(t, exe, id, "waiting_approval")

	// :status shows none of the deployment's text here (only its own
	// counts and ids): it is run for the raw check alone.
	for _, args := range [][]string{
		{"read", "/repo/h.txt"},
		{"read", "/repo/h.txt", "--output", "json"},
		{"read", "/repo/doc.md"},
		{"ls", "/repo"},
		{"ls", "/repo", "--output", "json"},
		{"glob", "**/*.md", "/repo"},
		{"read", "/repo/missing" + hostile},
		{"read", "/repo/missing" + hostile, "--output", "json"},
		{":trace", id},
		{":trace", id, "--output", "json"},
		{":sessions"},
		{":sessions", "--output", "json"},
		{":status", "--session", id},
		{":status", "--session", id, "--output", "json"},
		{":approvals", "--session", id},
		{":approvals", "--session", id, "--output", "json"},
		{":curl", "read", "/repo/" + hostile},
		{":export", id, "--as", "script"},
		{":export", id, "--as", "md"},
		{":export", id, "--as", "json"},
		{":describe", id},
		{":describe", id, "--output", "json"},
		{":wait", id, "--for", "approval"},
		{":wait", id, "--for", "approval", "--output", "json"},
	} {
		ios, out, errOut := iostreams.Test("")
		ios.ErrTTY, ios.OutTTY = true, true
		Main(append([]string{"--target", exe}, args...), ios, ttySafeEnv{"NO_COLOR": "1"})
		all := out.String() + errOut.String()
		if r, at := firstUnsafe(all); at >= 0 {
			t.Errorf("%q wrote %U raw at byte %d:\n%q", args, r, at, all)
		}
		if args[0] != ":status" && args[0] != ":wait" && !strings.Contains(strings.ToLower(all), `\u202e`) {
			t.Errorf("%q never showed the override escaped:\n%q", args, all)
		}
	}
}

// firstUnsafe is the first character of s that termsafe escapes (but
// newline and tab) or a byte that is not UTF-8, and its offset; -1 if none.
func firstUnsafe(s string) (rune, int) {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size <= 1 {
				return r, i
			}
		}
		if r != '\n' && r != '\t' && termsafe.Unsafe(r) {
			return r, i
		}
	}
	return 0, -1
}
