package meta

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/agsh-dev/agsh/catalog"
)

// TestAdviseSpellsSettings: the settings catalog's messages name are spelled
// as agsh's flags and variables.
func TestAdviseSpellsSettings(t *testing.T) {
	c, _ := catalog.New("http://127.0.0.1:1/a", catalog.Options{})
	_, err := c.Call(context.Background(), "x", nil, catalog.Binding{SessionID: "s", ContinuationToken: "t"})
	if got, want := Advise(err), "--session and --continuation-token cannot be used together; pass only one"; got != want {
		t.Errorf("Advise = %q, want %q", got, want)
	}
	if got, want := err.Error(), "a session id and a continuation token cannot be used together; pass only one"; got != want {
		t.Errorf("Error = %q, want %q", got, want)
	}
	for s, word := range spelling {
		if word == "" || s == "" {
			t.Errorf("setting %q has no spelling", s)
		}
	}
}

func TestAdvise(t *testing.T) {
	busy := &catalog.Error{ErrCode: catalog.CodeSessionBusy, Status: 409, Remote: true, SessionID: "ses_1"}
	cases := []struct {
		err  error
		want string
	}{
		{busy, "session ses_1 is busy (a model turn is running or queued); :tail ses_1 shows what it runs, :wait ses_1 --for waiting waits for it, or pass --session <another id>"},
		{&catalog.Error{ErrCode: catalog.CodeUnknownTool, Status: 404, Remote: true, Tool: "rd"},
			`unknown tool "rd"; 'agsh help' lists the tools of this deployment`},
		{&catalog.Error{ErrCode: catalog.CodeUnauthorized, Status: 401, Remote: true},
			"the deployment refused the credentials (HTTP 401); pass --bearer-token (or set AGENT_SHELL_BEARER_TOKEN), or run agent-sdk login"},
		{fmt.Errorf("wrapped: %w", busy), "wrapped: session ses_1 is busy (a model turn is running or queued); :tail ses_1 shows what it runs, :wait ses_1 --for waiting waits for it, or pass --session <another id>"},
		{&catalog.Error{ErrCode: catalog.CodeSessionBusy, Status: 409, Remote: true}, "the bound session is busy (a model turn is running or queued); wait for it to finish, or pass --session <another id>"},
		{&catalog.Error{ErrCode: catalog.CodeSessionBusy, Message: "not remote"}, "not remote"},
		{catalog.NoTarget(), "no target deployment: pass --target <url|name> or set AGENT_SHELL_TARGET"},
		{fmt.Errorf("w: %w", catalog.NoTarget()), "w: no target deployment: pass --target <url|name> or set AGENT_SHELL_TARGET"},
		{errors.New("plain"), "plain"},
		// An unknown session is as often an operand (:trace ses_x, :wait
		// ses_x) as --session: the advice names the listing, not the flag.
		{&catalog.Error{ErrCode: catalog.CodeUnknownSession, Status: 404, Remote: true, Message: "no session ses_x", SessionID: "ses_x"},
			"the deployment does not know session ses_x: no session ses_x; :sessions lists the ones it has"},
	}
	for _, tc := range cases {
		if got := Advise(tc.err); got != tc.want {
			t.Errorf("Advise(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}

// Once the meta table has a word that waits for a session (WaitWord), the
// advice of a busy session names it with the session's id.
func TestAdviseBusyNamesWait(t *testing.T) {
	old := WaitWord
	WaitWord = ":wait"
	defer func() { WaitWord = old }()
	busy := &catalog.Error{ErrCode: catalog.CodeSessionBusy, Status: 409, Remote: true, SessionID: "ses_1", Message: "session ses_1 has a model turn running"}
	want := "session ses_1 is busy (a model turn is running); :tail ses_1 shows what it runs, :wait ses_1 --for waiting waits for it, or pass --session <another id>"
	if got := Advise(busy); got != want {
		t.Errorf("Advise = %q, want %q", got, want)
	}
}
