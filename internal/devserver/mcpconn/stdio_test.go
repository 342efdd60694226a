//go:build unix

package mcpconn

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/internal/devserver/tool"
)

func TestStdioServer(t *testing.T) {
	bin := testServer(t)
	logs := &logSink{}
	s := startSet(t, Config{MCP: []string{"Local.Test=" + bin + " 'an arg' two"}, Logf: logs.logf})
	if logs.String() != "" {
		t.Fatalf("unexpected reports:\n%s", logs)
	}
	planner := s.Tools("planner")
	// Five tools listed two per page: all three pages are read, in server
	// order.
	if got, want := toolNames(planner), "datadog_get_monitor,datadog_list_monitors,datadog_mute_monitor,local_test_echo_raw,local_test_fail,local_test_note,local_test_wait,local_test_whoami"; got != want {
		t.Fatalf("planner tools = %s, want %s", got, want)
	}
	if got, want := toolNames(s.Tools("executor")), "datadog_get_monitor,datadog_list_monitors,datadog_mute_monitor"; got != want {
		t.Fatalf("executor tools = %s, want %s", got, want)
	}

	echo := toolNamed(t, planner, "local_test_echo_raw")
	// The schema is served as the server sent it: property order, the
	// decimal default, the big bound and the unescaped <first>.
	if want := `{"type":"object","properties":{"zeta":{"type":"string","description":"last <first>"},"alpha":{"type":"number","default":1.50},"big":{"type":"integer","maximum":12345678901234567890},"mid":{"type":"object","properties":{"y":{"type":"boolean"},"x":{"type":"string"}}}},"required":["zeta"]}`; string(echo.InputSchema) != want {
		t.Errorf("InputSchema = %s\nwant %s", echo.InputSchema, want)
	}
	if want := `{"type":"object","properties":{"zeta":{"type":"string"}}}`; string(echo.OutputSchema) != want {
		t.Errorf("OutputSchema = %s, want %s", echo.OutputSchema, want)
	}
	if echo.Title != "Echo raw" || echo.Description != "Answers its arguments." || echo.Validate || echo.Effect != "" {
		t.Errorf("echo_raw = title %q description %q validate %v effect %q", echo.Title, echo.Description, echo.Validate, echo.Effect)
	}
	if echo.Source.Kind != "connection" || echo.Source.Connection != "Local.Test" || echo.Source.Connector != "" {
		t.Errorf("Source = %+v", echo.Source)
	}

	input := `{"zeta":"z","big":123456789012345678901234567890,"alpha":0.10000000000000000555,"mid":{"y":true,"x":"1e2"}}`
	r, _ := callTool(t, echo, input)
	if string(r.StructuredContent) != input || r.text() != input || r.IsError {
		t.Errorf("echo_raw answered structured %s, text %s, isError %v; want %s", r.StructuredContent, r.text(), r.IsError, input)
	}

	r, res := callTool(t, toolNamed(t, planner, "local_test_fail"), `{"reason":"on purpose"}`)
	if !res.IsError || r.text() != "failed: on purpose" {
		t.Errorf("fail answered %s (IsError %v)", res.Value, res.IsError)
	}

	note := toolNamed(t, planner, "local_test_note")
	if note.Title != "Take a note" || note.ReadOnly() {
		t.Errorf("note: title %q, read-only %v; want the annotations' title and a write", note.Title, note.ReadOnly())
	}
	who := toolNamed(t, planner, "local_test_whoami")
	if !who.ReadOnly() || who.Title != "Who am I" {
		t.Errorf("whoami: title %q, read-only %v", who.Title, who.ReadOnly())
	}
	// The command line was split like a shell line.
	if r, _ := callTool(t, who, `{}`); r.text() != "an arg two" {
		t.Errorf("whoami answered %q, want the arguments %q", r.text(), "an arg two")
	}
	// An empty input is sent as {}; anything but an object is refused.
	if r, _ := callTool(t, echo, ``); string(r.StructuredContent) != `{}` {
		t.Errorf("empty input echoed %s, want {}", r.StructuredContent)
	}
	for in, want := range map[string]string{`[1]`: "[]: input must be a JSON object", `{"a":`: "[]: input is not valid JSON"} {
		if _, err := echo.Call(context.Background(), &tool.Call{Input: json.RawMessage(in)}); err == nil || err.Error() != want {
			t.Errorf("input %s: err = %v, want %s", in, err, want)
		}
	}
}

func TestStdioServerFailsToStart(t *testing.T) {
	bin := testServer(t)
	logs := &logSink{}
	s := startSet(t, Config{
		MCP: []string{
			"missing=/nonexistent/mcp-server --flag",
			"quits=" + bin + " -exit",
			"good=" + bin,
		},
		Logf: logs.logf,
	})
	got := logs.String()
	for _, want := range []string{
		`mcp missing: starting "/nonexistent/mcp-server --flag": fork/exec /nonexistent/mcp-server: no such file or directory; its tools are absent`,
		`mcp quits: starting "` + bin + ` -exit": `,
		`its standard error says: stdioserver: told to exit before serving; its tools are absent`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("reports lack %q:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "\n") + 1; n != 2 {
		t.Errorf("want 2 reports, got %d:\n%s", n, got)
	}
	names := toolNames(s.Tools("planner"))
	if strings.Contains(names, "missing_") || strings.Contains(names, "quits_") || !strings.Contains(names, "good_echo_raw") {
		t.Errorf("planner tools = %s", names)
	}
}

func TestStdioServerHangsAtStart(t *testing.T) {
	logs := &logSink{}
	start := time.Now()
	s := startSet(t, Config{MCP: []string{"mute=sleep 30"}, Logf: logs.logf, StartTimeout: 300 * time.Millisecond})
	if got, want := logs.String(), `mcp mute: not ready within 300ms (--mcp-start-timeout); it keeps starting, and its tools appear when it is ready`; got != want {
		t.Errorf("reports = %q, want %q", got, want)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("Start took %s for a server that never answers", d)
	}
	// Close ends the start still going on: the process is killed, and
	// nothing more is reported as ready.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(logs.String(), "ready after") {
		t.Errorf("reports = %q", logs.String())
	}
}

// TestStdioServerReadyLate: a server that misses the start timeout keeps
// starting; when it is ready its tools join the planner's (Tools) and go to
// OnLate, icons and _meta included, and the log says so. A late server that
// fails is logged and left out.
func TestStdioServerReadyLate(t *testing.T) {
	bin := testServer(t)
	dir := t.TempDir()
	gate, failGate := filepath.Join(dir, "go"), filepath.Join(dir, "fail")
	logs := &logSink{}
	s := startSet(t, Config{MCP: []string{"slow=" + bin + " -gate " + gate, "dies=" + bin + " -gate " + failGate + " -exit"}, Logf: logs.logf, StartTimeout: 100 * time.Millisecond})
	if names := toolNames(s.Tools("planner")); strings.Contains(names, "slow_") || strings.Contains(names, "dies_") {
		t.Fatalf("a server not ready yet has tools: %s", names)
	}
	if !strings.Contains(logs.String(), "mcp slow: not ready within 100ms (--mcp-start-timeout); it keeps starting") {
		t.Fatalf("reports = %q", logs.String())
	}
	got := make(chan []*tool.Tool, 4)
	s.OnLate(func(ts []*tool.Tool) { got <- ts })
	// Both are starting, in flag order, and OnStarting hears each change.
	if st := s.Starting(); strings.Join(st, ",") != "slow,dies" {
		t.Errorf("Starting = %v", st)
	}
	var stMu sync.Mutex
	var heard []string
	s.OnStarting(func(names []string) {
		stMu.Lock()
		defer stMu.Unlock()
		heard = append(heard, strings.Join(names, ","))
	})
	for _, g := range []string{gate, failGate} {
		if err := os.WriteFile(g, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var late []*tool.Tool
	select {
	case late = <-got:
	case <-time.After(time.Minute):
		t.Fatalf("the late server's tools never came; reports %q", logs.String())
	}
	who := toolNamed(t, late, "slow_whoami")
	if string(who.Icons) != `[{"src":"https://example.com/whoami.png","mimeType":"image/png","sizes":["48x48"]}]` || string(who.Meta) != `{"com.example/ui":{"resourceUri":"ui://whoami/card"}}` {
		t.Errorf("icons %s, _meta %s", who.Icons, who.Meta)
	}
	toolNamed(t, s.Tools("planner"), "slow_echo_raw")
	res, err := who.Call(context.Background(), &tool.Call{Input: json.RawMessage(`{}`)})
	if err != nil || res.IsError || !strings.Contains(string(res.Value), `"type":"text"`) {
		t.Errorf("call of a late tool: %v %s", err, res.Value)
	}
	waitFor(t, func() bool {
		// The dying server's own report, not its "not ready" line.
		return strings.Contains(logs.String(), "mcp dies: starting") && strings.Contains(logs.String(), "ready after")
	})
	waitFor(t, func() bool { stMu.Lock(); defer stMu.Unlock(); return len(heard) == 3 })
	stMu.Lock()
	if len(heard) != 3 || heard[0] != "slow,dies" || heard[2] != "" {
		t.Errorf("OnStarting heard %q", heard)
	}
	stMu.Unlock()
	text := logs.String()
	if !regexp.MustCompile(`(?m)^mcp slow: ready after [0-9.]+m?s; its 5 tools are served from now on$`).MatchString(text) ||
		!regexp.MustCompile(`(?m)^mcp dies: starting ".*-exit": .*told to exit before serving; its tools are absent$`).MatchString(text) {
		t.Errorf("reports:\n%s", text)
	}
}

func TestCloseKillsServers(t *testing.T) {
	bin := testServer(t)
	s, err := Start(context.Background(), Config{MCP: []string{"k=" + bin}})
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	for _, c := range s.conns {
		if c.name == "k" {
			pid = c.pid
		}
	}
	if pid == 0 {
		t.Fatal("no process recorded for connection k")
	}
	who := toolNamed(t, s.Tools("planner"), "k_whoami")
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := syscall.Kill(pid, 0); err == nil {
		t.Errorf("process %d still runs after Close", pid)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	_, err = who.Call(context.Background(), &tool.Call{Input: json.RawMessage(`{}`)})
	if err == nil || !strings.HasPrefix(err.Error(), "connection k is closed: ") {
		t.Errorf("call after Close: err = %v", err)
	}
}

// waitFor polls cond until it holds, failing the test after a minute (an
// event's arrival, not a measured time).
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(time.Minute); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the awaited event never came")
		}
	}
}
