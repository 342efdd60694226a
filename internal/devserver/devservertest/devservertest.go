// Package devservertest starts the development deployment in-process for
// tests of other packages: on a free loopback port, closed when the test
// ends, with small helpers for the development routes (sessions, turns,
// faults) and synthetic tools.
package devservertest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"testing"

	"github.com/agsh-dev/agsh/internal/devserver"
	"github.com/agsh-dev/agsh/internal/devserver/tool"
	"github.com/agsh-dev/agsh/internal/wire"
)

// Start starts a server with cfg on 127.0.0.1 (a free port unless cfg.Addr
// says otherwise) and registers its Close with t.Cleanup. Without a Logf,
// server logs go to t.Logf while the test runs. With no agents configured
// it serves one agent, "executor", carrying the authored JSON tools and
// Echo tools "echo_read" (effect read) and "echo_write" (no effect).
func Start(t testing.TB, cfg devserver.Config) *devserver.Server {
	t.Helper()
	if cfg.Addr == "" {
		cfg.Addr = "127.0.0.1:0"
	}
	if cfg.Logf == nil {
		cfg.Logf = testLogf(t)
	}
	if len(cfg.Agents) == 0 {
		tools := append(devserver.JSONTools(), Echo("echo_read", "read"), Echo("echo_write", ""))
		cfg.Agents = []devserver.AgentConfig{{Slug: "executor", Name: "change-monitor-executor",
			Description: "Executes monitoring plans against changed code.", Tools: tools}}
	}
	s, err := devserver.New(cfg)
	if err != nil {
		t.Fatalf("devservertest: %v", err)
	}
	if err := s.Start(); err != nil {
		t.Fatalf("devservertest: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// testLogf logs through t until the test's cleanups start (a server
// goroutine may outlive the test by a moment; logging then would panic).
func testLogf(t testing.TB) func(string, ...any) {
	var mu sync.Mutex
	done := false
	t.Cleanup(func() { mu.Lock(); done = true; mu.Unlock() })
	return func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		if !done {
			t.Logf(format, args...)
		}
	}
}

// Echo is a synthetic tool answering its input object as the result. effect
// is "read", "write" or "" (undeclared). Its schema is open.
func Echo(name, effect string) *tool.Tool {
	return &tool.Tool{
		Name:        name,
		Description: "Answers its input.",
		InputSchema: json.RawMessage(`{"type":"object"}`),
		Effect:      effect,
		Source:      wire.Source{Kind: "authored"},
		Call: func(_ context.Context, c *tool.Call) (tool.Result, error) {
			return tool.Result{Value: c.Input}, nil
		},
	}
}

// Do sends a request to url with an optional JSON body (a string or []byte
// is sent as is, anything else is marshaled) and bearer token, and returns
// the status and body. It fails the test on a transport error.
func Do(t testing.TB, method, url, token string, body any) (int, []byte) {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = bytes.NewBufferString(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		enc, err := json.Marshal(b)
		if err != nil {
			t.Fatalf("devservertest: %v", err)
		}
		rd = bytes.NewReader(enc)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatalf("devservertest: %v", err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("devservertest: %s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("devservertest: reading %s %s: %v", method, url, err)
	}
	return resp.StatusCode, out
}

// NewSession creates a session on the agent at agentURL and returns its id
// and continuation token.
func NewSession(t testing.TB, agentURL, token, message string) (id, continuationToken string) {
	t.Helper()
	status, body := Do(t, http.MethodPost, agentURL+"/v1/session", token, map[string]string{"message": message})
	var out struct {
		SessionID         string `json:"sessionId"`
		ContinuationToken string `json:"continuationToken"`
	}
	if status != http.StatusOK || json.Unmarshal(body, &out) != nil || out.SessionID == "" {
		t.Fatalf("devservertest: creating a session: %d %s", status, body)
	}
	return out.SessionID, out.ContinuationToken
}

// Turn is the body of POST /v1/dev/turn; nil fields are left as they are.
type Turn struct {
	SessionID string  `json:"sessionId"`
	Running   *bool   `json:"running,omitempty"`
	Queued    *bool   `json:"queued,omitempty"`
	Workspace *string `json:"workspace,omitempty"` // "available" or "unavailable"
}

// SetTurn posts turn to the agent's /v1/dev/turn.
func SetTurn(t testing.TB, agentURL, token string, turn Turn) {
	t.Helper()
	if status, body := Do(t, http.MethodPost, agentURL+"/v1/dev/turn", token, turn); status != http.StatusOK {
		t.Fatalf("devservertest: setting a turn: %d %s", status, body)
	}
}

// Fault is the body of POST /v1/dev/faults
// (docs/wire.md#development-only-routes). Body, when non-nil, replaces the
// answer's body byte for byte.
type Fault struct {
	Route    string  `json:"route"`
	Count    int     `json:"count,omitempty"`
	Status   int     `json:"status,omitempty"`
	DelayMs  int     `json:"delayMs,omitempty"`
	HangMs   int     `json:"hangMs,omitempty"`
	Body     *string `json:"body,omitempty"`
	Truncate bool    `json:"truncate,omitempty"`
}

// ArmFault arms f on the agent at agentURL.
func ArmFault(t testing.TB, agentURL, token string, f Fault) {
	t.Helper()
	if status, body := Do(t, http.MethodPost, agentURL+"/v1/dev/faults", token, f); status != http.StatusOK {
		t.Fatalf("devservertest: arming a fault: %d %s", status, body)
	}
}

// Ptr returns a pointer to v, for the optional fields of Turn and Fault.
func Ptr[T any](v T) *T { return &v }

// StartDeployment builds the real development deployment (devserver.Build:
// workspace file tools over opts.Root, the JSON tools, the datadog
// connection, opts' --mcp and --echo-tools connections) and starts it on a
// free loopback port; the server and its connections close when the test
// ends. opts.Root defaults to a fresh empty directory.
func StartDeployment(t testing.TB, opts devserver.Options) *devserver.Server {
	t.Helper()
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:0"
	}
	if opts.Root == "" {
		opts.Root = t.TempDir()
	}
	if opts.Logf == nil {
		opts.Logf = testLogf(t)
	}
	s, cleanup, err := devserver.Build(context.Background(), opts)
	if err != nil {
		t.Fatalf("devservertest: %v", err)
	}
	t.Cleanup(func() { _ = cleanup() })
	if err := s.Start(); err != nil {
		t.Fatalf("devservertest: %v", err)
	}
	return s
}
