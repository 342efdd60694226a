package catalog

import (
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// TestRun: a run binds once (the latest session, looked up beside the first
// request), fetches each thing once, takes the answer's session for the
// session line, and counts as reached only what a deployment answered.
func TestRun(t *testing.T) {
	var details, listings atomic.Int64
	c, _ := serve(t, "/executor", func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/executor/v1/sessions":
			writeJSON(w, 200, `{"ok":true,"sessions":[{"sessionId":"ses_1","updatedAt":"2026-01-01T00:00:00Z"}]}`)
		case r.URL.Path == "/executor/v1/tools" && r.Method == http.MethodGet:
			listings.Add(1)
			writeJSON(w, 200, `{"ok":true,"tools":[{"name":"read"}]}`)
		case r.URL.Path == "/executor/v1/tools/read" && r.Method == http.MethodGet:
			details.Add(1)
			writeJSON(w, 200, `{"ok":true,"tool":{"name":"read","inputSchema":{"type":"object"}}}`)
		case r.URL.Path == "/executor/v1/tools/read":
			if body, _ := io.ReadAll(r.Body); !strings.Contains(string(body), `"sessionId":"ses_1"`) {
				writeJSON(w, 400, `{"ok":false,"error":"invalid_input","message":"unbound"}`)
				return
			}
			writeJSON(w, 200, `{"ok":true,"toolName":"read","result":"x","sessionId":"ses_2"}`)
		default:
			writeJSON(w, 404, `{"ok":false,"error":"unknown_tool","availableTools":["read"]}`)
		}
	})
	run := NewRun(c, Binding{})
	if run.Reached() || run.SessionLine() != "→ no session (ephemeral workspace)" {
		t.Fatalf("a fresh run: reached %v, line %q", run.Reached(), run.SessionLine())
	}
	ctx := ctxT(t)
	for i := 0; i < 2; i++ {
		if _, err := run.Tool(ctx, "read"); err != nil {
			t.Fatal(err)
		}
		if _, err := run.Tools(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if details.Load() != 1 || listings.Load() != 1 || run.Binding().SessionID != "ses_1" || !run.Reached() {
		t.Fatalf("details %d, listings %d, binding %+v", details.Load(), listings.Load(), run.Binding())
	}
	if _, err := run.Call(ctx, "read", nil); err != nil {
		t.Fatal(err)
	}
	if got := run.SessionLine(); got != "→ ses_2" {
		t.Errorf("session line %q, want the answer's session", got)
	}
}

// TestRunRotated: a message's rotated token replaces the old one in the
// binding, binds a run that was not bound yet, and is named on the session
// line.
func TestRunRotated(t *testing.T) {
	for _, tt := range []struct {
		name     string
		explicit Binding
		want     Binding
		line     string
	}{
		{"bound by token", Binding{ContinuationToken: "tok_1"}, Binding{ContinuationToken: "tok_2"},
			"→ ses_1 (continuation token tok_2)"},
		{"bound by id", Binding{SessionID: "ses_1"}, Binding{SessionID: "ses_1"}, "→ ses_1 (continuation token tok_2)"},
		{"the latest", Binding{}, Binding{SessionID: "ses_1"}, "→ ses_1 (continuation token tok_2)"},
		{"another session", Binding{SessionID: "ses_0"}, Binding{SessionID: "ses_0"}, "→ ses_0"},
	} {
		r := NewRun(nil, tt.explicit)
		r.Rotated("ses_1", "tok_1", "tok_2")
		got := r.Binding()
		if got.IsZero() {
			got = r.Explicit()
		}
		if got != tt.want || r.SessionLine() != tt.line || r.Token("ses_1") != "tok_2" || !r.Reached() {
			t.Errorf("%s: binding %+v, line %q, token %q", tt.name, got, r.SessionLine(), r.Token("ses_1"))
		}
	}
}
