package devserver_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/internal/devserver"
	"github.com/agsh-dev/agsh/internal/devserver/devservertest"
)

// logLines collects what a server logs, formatted.
type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func (l *logLines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

// rawRequest writes a request line and headers as given (no client
// escaping) and returns the status line of the answer.
func rawRequest(t *testing.T, base, request string) string {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Write([]byte(request)); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	return strings.TrimSpace(line)
}

// TestLogEscapesControlCharacters: an unauthenticated request whose path
// holds a terminal escape (OSC 2, retitle the terminal) is logged with the
// control characters escaped; no raw control character reaches the log.
func TestLogEscapesControlCharacters(t *testing.T) {
	var logs logLines
	cfg := testConfig()
	cfg.BearerTokens = []string{"s3cret"}
	cfg.Logf = logs.logf
	s := devservertest.Start(t, cfg)
	rawRequest(t, s.URL(), "GET /%1b]2;pwned%07 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
	rawRequest(t, s.URL(), "GET /executor/v1/%9b31m%0d%0aforged HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
	rawRequest(t, s.URL(), "GET /%c2%9b2J HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
	got := logs.String()
	for _, l := range logs.lines {
		for _, r := range l {
			if r < 0x20 && r != '\t' || r == 0x7f || r >= 0x80 && r <= 0x9f {
				t.Fatalf("a raw control character %U reached the log: %q", r, l)
			}
		}
	}
	for _, want := range []string{`GET /\x1b]2;pwned\x07 404`, `\x9b31m\r\nforged`, `GET /\u009b2J 404`} {
		if !strings.Contains(got, want) {
			t.Fatalf("log lacks %q:\n%s", want, got)
		}
	}
}

// TestFaultsBelongToTheirPrincipal: a fault applies only to the requests of
// the principal that armed it; DELETE clears and GET lists only one's own.
func TestFaultsBelongToTheirPrincipal(t *testing.T) {
	cfg := testConfig()
	cfg.BearerTokens = []string{"alice-token", "bob-token"}
	s := devservertest.Start(t, cfg)
	exec := s.AgentURL("executor")
	devservertest.ArmFault(t, exec, "alice-token", devservertest.Fault{Route: "POST /v1/tools/echo_read", Count: 5, Status: 503})
	devservertest.ArmFault(t, exec, "bob-token", devservertest.Fault{Route: "GET /v1/info", Count: 5, Body: devservertest.Ptr("forged")})

	// Bob's calls are his own: neither forged nor failed by Alice's fault.
	if status, body := post(t, exec, "echo_read", "bob-token", `{"input":{"x":1}}`); status != 200 {
		t.Fatalf("bob's call hit alice's fault: %d %s", status, body)
	}
	if status, body := devservertest.Do(t, http.MethodGet, exec+"/v1/info", "alice-token", nil); status != 200 || string(body) == "forged" {
		t.Fatalf("alice's info was forged by bob's fault: %d %s", status, body)
	}
	// Alice's own fault applies to her.
	if status, _ := post(t, exec, "echo_read", "alice-token", `{}`); status != 503 {
		t.Fatalf("alice's fault did not apply to her: %d", status)
	}
	// Bob sees and clears only his own.
	_, body := devservertest.Do(t, http.MethodGet, exec+"/v1/dev/faults", "bob-token", nil)
	if strings.Contains(string(body), "echo_read") || !strings.Contains(string(body), "GET /v1/info") {
		t.Fatalf("bob's listing: %s", body)
	}
	if _, body := devservertest.Do(t, http.MethodDelete, exec+"/v1/dev/faults", "bob-token", nil); string(body) != `{"cleared":1,"ok":true}` {
		t.Fatalf("bob's clear: %s", body)
	}
	if status, _ := post(t, exec, "echo_read", "alice-token", `{}`); status != 503 {
		t.Fatalf("bob's DELETE cleared alice's fault: %d", status)
	}
}

// TestFaultsOfLoopbackAreShared: anonymous loopback callers are one
// principal, "local".
func TestFaultsOfLoopbackAreShared(t *testing.T) {
	_, exec := start(t)
	devservertest.ArmFault(t, exec, "", devservertest.Fault{Route: "GET /v1/info", Status: 502})
	if status, _ := devservertest.Do(t, http.MethodGet, exec+"/v1/info", "", nil); status != 502 {
		t.Fatalf("got %d", status)
	}
}

// writeSession writes a saved session file in the old whole-session form.
func writeSession(t *testing.T, dir, id, token, created, updated string) {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"sessionId": id, "continuationToken": token, "title": id, "mode": "chat",
		"owner": "local", "createdAt": created, "updatedAt": updated, "calls": []any{}, "records": []any{}})
	if err := os.MkdirAll(filepath.Join(dir, "executor"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "executor", id+".json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestStateFutureStampDoesNotPin: a saved session stamped in the future does
// not pin later stamps: new activity is stamped with the current time and is
// the latest.
func TestStateFutureStampDoesNotPin(t *testing.T) {
	dir := t.TempDir()
	writeSession(t, dir, "ses_future00000000", "http:future", "2999-01-01T00:00:00.000Z", "2999-01-01T00:00:00.000Z")
	var logs logLines
	cfg := testConfig()
	cfg.StateDir = dir
	cfg.Logf = logs.logf
	s := devservertest.Start(t, cfg)
	exec := s.AgentURL("executor")
	if n := strings.Count(logs.String(), "has a time in the future"); n != 1 {
		t.Fatalf("the future stamps were logged %d times, want one line:\n%s", n, logs.String())
	}
	id, _ := devservertest.NewSession(t, exec, "", "now")
	rows := listSessions(t, exec, "")
	if len(rows) != 2 || rows[0].SessionID != id {
		t.Fatalf("the new session is not the latest: %+v", rows)
	}
	year := time.Now().UTC().Year()
	for _, r := range rows {
		if !strings.HasPrefix(r.UpdatedAt, fmt.Sprint(year)) && !strings.HasPrefix(r.UpdatedAt, fmt.Sprint(year+1)) {
			t.Fatalf("a stamp is not current: %+v", rows)
		}
	}
}

// TestStateDuplicateTokensRefused: two saved sessions with one continuation
// token are both refused on load (either could be the token's).
func TestStateDuplicateTokensRefused(t *testing.T) {
	dir := t.TempDir()
	writeSession(t, dir, "ses_aaaaaaaaaaaaaaaa", "http:same", "2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z")
	writeSession(t, dir, "ses_bbbbbbbbbbbbbbbb", "http:same", "2026-01-02T00:00:00.000Z", "2026-01-02T00:00:00.000Z")
	writeSession(t, dir, "ses_cccccccccccccccc", "http:other", "2026-01-03T00:00:00.000Z", "2026-01-03T00:00:00.000Z")
	var logs logLines
	cfg := testConfig()
	cfg.StateDir = dir
	cfg.Logf = logs.logf
	s := devservertest.Start(t, cfg)
	exec := s.AgentURL("executor")
	rows := listSessions(t, exec, "")
	if len(rows) != 1 || rows[0].SessionID != "ses_cccccccccccccccc" {
		t.Fatalf("sessions after load: %+v", rows)
	}
	if n := strings.Count(logs.String(), "continuation token is also another saved session's"); n != 2 {
		t.Fatalf("%d refusals logged:\n%s", n, logs.String())
	}
	// The token binds to no session now: it runs scratch-bound.
	status, body := post(t, exec, "echo_read", "", map[string]any{"continuationToken": "http:same"})
	if status != 200 || strings.Contains(string(body), "ses_aaaa") || strings.Contains(string(body), "ses_bbbb") {
		t.Fatalf("the duplicate token bound a session: %d %s", status, body)
	}
}

var _ = devserver.Config{}
