package mcpconn

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/internal/devserver/tool"
)

// TestConcurrentCallsGetTheirOwnResults checks the raw-result capture under
// load: calls in flight together on one session each answer their own
// result, over the in-memory transport and over stdio.
func TestConcurrentCallsGetTheirOwnResults(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"e.json": `{"name":"echo","inputSchema":{}}`})
	s := startSet(t, Config{MCP: []string{"stdio=" + testServer(t)}, EchoTools: []string{dir + "/e.json"}, Logf: t.Errorf})
	planner := s.Tools("planner")
	for _, name := range []string{"e_echo", "stdio_echo_raw"} {
		tl := toolNamed(t, planner, name)
		var wg sync.WaitGroup
		for i := range 40 {
			wg.Go(func() {
				in := fmt.Sprintf(`{"zeta":"call %d","big":1%d23456789012345678901}`, i, i)
				res, err := tl.Call(context.Background(), &tool.Call{Input: json.RawMessage(in)})
				if err != nil {
					t.Errorf("%s call %d: %v", name, i, err)
					return
				}
				var r struct {
					StructuredContent json.RawMessage `json:"structuredContent"`
				}
				if err := json.Unmarshal(res.Value, &r); err != nil || string(r.StructuredContent) != in {
					t.Errorf("%s call %d answered %s", name, i, res.Value)
				}
			})
		}
		wg.Wait()
	}
}

func TestCallCancelled(t *testing.T) {
	s := startSet(t, Config{})
	get := toolNamed(t, s.Tools("executor"), "datadog_get_monitor")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := get.Call(ctx, &tool.Call{Input: json.RawMessage(`{"id":4101266}`)})
	if err == nil || err.Error() != "connection datadog: context canceled" {
		t.Errorf("cancelled call: err = %v", err)
	}
	// The session still works.
	if r, _ := callTool(t, get, `{"id":4101266}`); r.IsError {
		t.Errorf("call after a cancelled one: %s", r.text())
	}
}

// TestCancelledCallsAreForgotten checks that calls cancelled before their
// answer leave nothing registered in the capture.
func TestCancelledCallsAreForgotten(t *testing.T) {
	s := startSet(t, Config{MCP: []string{"slow=" + testServer(t)}, Logf: t.Errorf})
	wait := toolNamed(t, s.Tools("planner"), "slow_wait")
	for range 3 {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		_, err := wait.Call(ctx, &tool.Call{Input: json.RawMessage(`{}`)})
		cancel()
		if err == nil || err.Error() != "connection slow: context deadline exceeded" {
			t.Errorf("cancelled wait: err = %v", err)
		}
	}
	var cc *captureConn
	for _, c := range s.conns {
		if c.name == "slow" {
			cc = c.capture
		}
	}
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if len(cc.pending) != 0 {
		t.Errorf("%d calls still registered", len(cc.pending))
	}
}

// TestCloseEndsCallsInFlight checks that Close does not wait for a call the
// server never answers, and that the call ends with an error.
func TestCloseEndsCallsInFlight(t *testing.T) {
	s, err := Start(context.Background(), Config{MCP: []string{"slow=" + testServer(t)}, Logf: t.Errorf})
	if err != nil {
		t.Fatal(err)
	}
	wait := toolNamed(t, s.Tools("planner"), "slow_wait")
	done := make(chan error, 1)
	go func() {
		_, err := wait.Call(context.Background(), &tool.Call{Input: json.RawMessage(`{}`)})
		done <- err
	}()
	time.Sleep(100 * time.Millisecond) // let the call reach the server
	closed := make(chan struct{})
	go func() {
		_ = s.Close()
		close(closed)
	}()
	select {
	case err := <-done:
		if err == nil || !strings.HasPrefix(err.Error(), "connection slow") {
			t.Errorf("call in flight during Close: err = %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the call in flight never ended after Close")
	}
	select {
	case <-closed:
	case <-time.After(time.Minute):
		t.Fatal("Close hangs")
	}
}
