package cli

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/iostreams"
)

// newSession starts a session on the deployment with message and returns
// its id.
func newSession(t *testing.T, exe, message string) string {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"message": message})
	resp, err := http.Post(exe+"/v1/session", "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var a struct{ SessionID string }
	b, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(b, &a); err != nil || a.SessionID == "" {
		t.Fatalf("POST /v1/session: %s %s", resp.Status, b)
	}
	return a.SessionID
}

// TestStopEndsASleepingTurn: :stop of a turn sleeping for ten minutes ends
// it with turn.failed (reason interrupted), which the record's stream
// delivers while the sleep would still run: the wait is bounded at 60 s (a
// hang detector, not a timing assertion); the latency is logged.
func TestStopEndsASleepingTurn(t *testing.T) {
	t.Parallel()
	exe := startDeployment(t).AgentURL("executor")
	id := newSession(t, exe, "sleep 10m")
	c, err := catalog.New(exe, catalog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	started, failed := make(chan struct{}), make(chan catalog.EventData, 1)
	go func() {
		_ = c.Follow(ctx, id, 0, func(ev *catalog.Event) error {
			switch ev.Type {
			case catalog.EventTurnStarted:
				close(started)
			case catalog.EventTurnFailed, catalog.EventTurnCompleted:
				failed <- ev.Fields()
				cancel()
			}
			return nil
		}, nil)
	}()
	select {
	case <-started:
	case <-ctx.Done():
		t.Fatal("the turn never started")
	}
	ios, out, errOut := iostreams.Test("")
	begin := time.Now()
	if status := Main([]string{"--target", exe, ":stop", id}, ios, ttySafeEnv{}); status != 0 {
		t.Fatalf(":stop exited %d: %s", status, errOut)
	}
	if !strings.HasPrefix(out.String(), "Interrupted the running turn of session "+id) {
		t.Errorf(":stop said %q", out)
	}
	select {
	case d := <-failed:
		if d.Reason != "interrupted" {
			t.Errorf("the turn ended with %+v, want turn.failed (interrupted)", d)
		}
		t.Logf(":stop to turn.failed on the stream: %v", time.Since(begin))
	case <-time.After(60 * time.Second):
		t.Fatal("no turn.failed within 60 s of :stop, while the turn sleeps for 10 minutes")
	}
}

// TestGuardFailsClosed: a terminal agsh cannot read a key from (standard
// input claims a terminal but has no descriptor) never calls the write
// tool: exit 2, nothing sent; --yes calls it.
func TestGuardFailsClosed(t *testing.T) {
	t.Parallel()
	exe := startDeployment(t).AgentURL("executor")
	id := newSession(t, exe, "hello")
	ios, out, errOut := iostreams.Test("")
	ios.InTTY, ios.ErrTTY = true, true
	status := Main([]string{"--target", exe, "--session", id, "report_change_issue", "--title", "x"}, ios, ttySafeEnv{})
	if status != 2 || !strings.Contains(errOut.String(), "cannot ask on the terminal") ||
		!strings.Contains(errOut.String(), "pass --yes") || out.Len() != 0 {
		t.Fatalf("status %d, stdout %q, stderr %q", status, out, errOut)
	}
	if n := callsOf(t, exe, id, "report_change_issue"); n != 0 {
		t.Fatalf("%d calls were sent", n)
	}
	for _, args := range [][]string{{"--yes", "report_change_issue", "--title", "x"}, {"report_change_issue", "--title", "x", "--yes"}} {
		ios, _, errOut = iostreams.Test("")
		ios.InTTY, ios.ErrTTY = true, true
		if status := Main(append([]string{"--target", exe, "--session", id}, args...), ios, ttySafeEnv{}); status != 0 {
			t.Fatalf("%q: status %d: %s", args, status, errOut)
		}
	}
	if n := callsOf(t, exe, id, "report_change_issue"); n != 2 {
		t.Fatalf("%d calls were sent with --yes, want 2", n)
	}
	// A tool that declares no write never asks.
	ios, _, errOut = iostreams.Test("")
	ios.InTTY, ios.ErrTTY = true, true
	if status := Main([]string{"--target", exe, "ls"}, ios, ttySafeEnv{}); status != 0 {
		t.Fatalf("ls: status %d: %s", status, errOut)
	}
}

// callsOf counts the calls of tool the deployment recorded on session id.
func callsOf(t *testing.T, exe, id, tool string) int {
	t.Helper()
	resp, err := http.Get(exe + "/v1/dev/sessions/" + id + "/calls")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return strings.Count(string(b), `"toolName":"`+tool+`"`)
}
