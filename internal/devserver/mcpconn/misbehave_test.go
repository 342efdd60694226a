//go:build unix

package mcpconn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/internal/devserver/tool"
)

// call calls tl with input, returning the result or the error.
func call(tl *tool.Tool, input string) (tool.Result, error) {
	return tl.Call(context.Background(), &tool.Call{Input: json.RawMessage(input)})
}

// wantConnectionFailed checks err is the 502 connection_failed answer.
func wantConnectionFailed(t *testing.T, err error, contains string) {
	t.Helper()
	var se *tool.StatusError
	if !errors.As(err, &se) || se.Status != http.StatusBadGateway || se.Code != "connection_failed" || !strings.Contains(se.Message, contains) {
		t.Fatalf("got %v, want 502 connection_failed containing %q", err, contains)
	}
}

// TestNoisyServerTolerated: a server that prints log lines on standard output
// (plain text, JSON records that are not JSON-RPC, blank lines, escapes)
// works; the lines are logged and skipped. A tool that requires MCP tasks is
// left out with a log line; an optional one stays.
func TestNoisyServerTolerated(t *testing.T) {
	bin := testServer(t)
	logs := &logSink{}
	s := startSet(t, Config{MCP: []string{"noisy=" + bin + " -raw -noisy"}, Logf: logs.logf})
	got := toolNames(s.Tools("planner"))
	if !strings.HasSuffix(got, ",noisy_echo,noisy_crash,noisy_lookup,noisy_panic,noisy_maybe_task") {
		t.Fatalf("tools: %s\nlogs:\n%s", got, logs)
	}
	for _, want := range []string{
		"mcp noisy: skipped a line on standard output that is not JSON-RPC: stdioserver 1.0 listening on stdio",
		`mcp noisy: skipped a line on standard output that is not JSON-RPC: {"level":"info","msg":"starting"`,
		`mcp noisy: tool "tasky" is left out: it requires MCP tasks (execution.taskSupport "required")`,
	} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("logs lack %q:\n%s", want, logs)
		}
	}
	for range 3 {
		res, err := call(toolNamed(t, s.Tools("planner"), "noisy_echo"), `{"x":1}`)
		if err != nil || res.IsError || !strings.Contains(string(res.Value), `{\"x\":1} pid`) {
			t.Fatalf("echo through the noise: %v %s\nlogs:\n%s", err, res.Value, logs)
		}
	}
	if !strings.Contains(logs.String(), "not JSON-RPC: handling tools/call") {
		t.Errorf("the noise between answers was not logged:\n%s", logs)
	}
}

// TestDeadConnectionRestartsOnNextCall: a connection that dies mid-call
// answers that call 502 connection_failed; its tools stay listed; the next
// call restarts the server and goes through.
func TestDeadConnectionRestartsOnNextCall(t *testing.T) {
	bin := testServer(t)
	logs := &logSink{}
	s := startSet(t, Config{MCP: []string{"r=" + bin + " -raw"}, Logf: logs.logf})
	echo, crash := toolNamed(t, s.Tools("planner"), "r_echo"), toolNamed(t, s.Tools("planner"), "r_crash")
	first, err := call(echo, `{}`)
	if err != nil {
		t.Fatal(err)
	}
	_, err = call(crash, `{}`)
	wantConnectionFailed(t, err, "connection r ended during the call")
	if !strings.Contains(err.Error(), "crashing on purpose") {
		t.Errorf("the message lacks the server's last words: %v", err)
	}
	if got := toolNames(s.Tools("planner")); !strings.Contains(got, "r_echo,r_crash") {
		t.Fatalf("tools after the death: %s", got)
	}
	second, err := call(echo, `{}`)
	if err != nil || string(second.Value) == string(first.Value) {
		t.Fatalf("after a restart: %v %s (before %s)\nlogs:\n%s", err, second.Value, first.Value, logs)
	}
	if !strings.Contains(logs.String(), "mcp r: restarted") {
		t.Errorf("logs:\n%s", logs)
	}
}

// TestFailedRestartBacksOff: a restart that fails answers 502; until the
// backoff has passed calls answer 502 at once without another attempt; a
// later call restarts.
func TestFailedRestartBacksOff(t *testing.T) {
	bin := testServer(t)
	once := filepath.Join(t.TempDir(), "once")
	logs := &logSink{}
	s := startSet(t, Config{MCP: []string{"b=" + bin + " -raw -once " + once}, Logf: logs.logf, RestartBackoff: time.Hour})
	echo, crash := toolNamed(t, s.Tools("planner"), "b_echo"), toolNamed(t, s.Tools("planner"), "b_crash")
	_, err := call(crash, `{}`)
	wantConnectionFailed(t, err, "ended during the call")
	_, err = call(echo, `{}`)
	wantConnectionFailed(t, err, "restarting it failed")
	_, err = call(echo, `{}`)
	wantConnectionFailed(t, err, "the next restart is tried in")
	attempts := 0
	for _, l := range strings.Split(logs.String(), "\n") {
		if l == "mcp b: restarting" {
			attempts++
		}
	}
	if attempts != 1 {
		t.Errorf("%d restart attempts, want 1 before the backoff passes:\n%s", attempts, logs)
	}
}

func TestRestartAfterBackoff(t *testing.T) {
	bin := testServer(t)
	once := filepath.Join(t.TempDir(), "once")
	logs := &logSink{}
	s := startSet(t, Config{MCP: []string{"b=" + bin + " -raw -once " + once}, Logf: logs.logf, RestartBackoff: 10 * time.Millisecond})
	echo, crash := toolNamed(t, s.Tools("planner"), "b_echo"), toolNamed(t, s.Tools("planner"), "b_crash")
	_, err := call(crash, `{}`)
	wantConnectionFailed(t, err, "ended during the call")
	_, err = call(echo, `{}`)
	wantConnectionFailed(t, err, "restarting it failed")
	if err := os.Remove(once); err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		res, err := call(echo, `{}`)
		if err == nil && !res.IsError {
			break
		}
		wantConnectionFailed(t, err, "")
		if i == 300 {
			t.Fatalf("never restarted:\n%s", logs)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestDefaultStartTimeoutIsTenSeconds: a silent server delays start-up by at
// most the default budget.
func TestDefaultStartTimeoutIsThirtySeconds(t *testing.T) {
	if DefaultStartTimeout != 30*time.Second {
		t.Fatalf("DefaultStartTimeout = %s", DefaultStartTimeout)
	}
}

// TestServerErrorReadsAsItsOwnMessage: a call the server refuses with a
// JSON-RPC error answers an error result whose text is the server's own
// message alone; the connection, the tool, the code and the error's data
// are in its structuredContent and in the log.
func TestServerErrorReadsAsItsOwnMessage(t *testing.T) {
	bin := testServer(t)
	logs := &logSink{}
	s := startSet(t, Config{MCP: []string{"kg=" + bin + " -raw"}, Logf: logs.logf})
	res, err := call(toolNamed(t, s.Tools("planner"), "kg_lookup"), `{}`)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Content []struct {
			Type, Text string
		}
		StructuredContent map[string]any
		IsError           bool
	}
	if json.Unmarshal(res.Value, &got) != nil || !res.IsError || !got.IsError || len(got.Content) != 1 || got.Content[0].Text != "Relation not found" {
		t.Fatalf("result %s (IsError %v)", res.Value, res.IsError)
	}
	if sc := got.StructuredContent; sc["connection"] != "kg" || sc["tool"] != "lookup" || sc["jsonrpcCode"] != float64(-32603) || sc["data"] == nil {
		t.Errorf("structuredContent %v", sc)
	}
	if want := `mcp kg: tool "lookup" answered JSON-RPC error -32603: Relation not found`; !strings.Contains(logs.String(), want) {
		t.Errorf("log lacks %q:\n%s", want, logs)
	}
}

// TestCrashedServerSaysWhatHappened: a Go server that panics writes a 2 KB
// "panic:" line and kilobytes of stacks; the call's 502 keeps that line
// whole, then at most three lines, never a word cut.
func TestCrashedServerSaysWhatHappened(t *testing.T) {
	bin := testServer(t)
	s := startSet(t, Config{MCP: []string{"kg=" + bin + " -raw"}, Logf: (&logSink{}).logf})
	_, err := call(toolNamed(t, s.Tools("planner"), "kg_panic"), `{}`)
	wantConnectionFailed(t, err, "connection kg ended during the call")
	msg := err.Error()
	_, said, ok := strings.Cut(msg, "its standard error says: ")
	if !ok || !strings.HasPrefix(said, "panic: runtime error: invalid memory address") {
		t.Fatalf("the message does not start the server's words at its panic line: %s", msg)
	}
	lines := strings.Split(said, " | ")
	if !strings.HasSuffix(lines[0], " store entry end") || len(lines[0]) < 2048 {
		t.Errorf("the panic line is not whole (%d bytes): …%s", len(lines[0]), lines[0][max(0, len(lines[0])-40):])
	}
	if len(lines) != 4 || !strings.HasPrefix(lines[1], "[signal SIGSEGV") || lines[2] != "goroutine 1 [running]:" || !strings.HasPrefix(lines[3], "main.frame0(...))") {
		t.Errorf("the lines after the panic line: %q", lines[1:])
	}
}

func TestStderrSummary(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", ""},
		{"starting\nlistening on stdio\nbye\n", "starting | listening on stdio | bye"},
		{"a\nb\nc\nd\ne\n", "b | c | d | e"},
		{"Traceback (most recent call last):\n  File \"/srv/app.py\", line 3, in <module>\n    main()\nValueError: bad relation\n", "ValueError: bad relation"},
		{"/app/index.js:10\n    throw err;\n    ^\n\nError: Cannot find module 'x'\n    at a\n    at b\n    at c\n    at d\n", "Error: Cannot find module 'x' | at a | at b | at c"},
		{"thread 'main' panicked at src/main.rs:4:5:\nboom\nnote: run with `RUST_BACKTRACE=1`\n", "thread 'main' panicked at src/main.rs:4:5: | boom | note: run with `RUST_BACKTRACE=1`"},
		{"log line\nfatal error: all goroutines are asleep - deadlock!\n", "fatal error: all goroutines are asleep - deadlock!"},
	} {
		if got := stderrSummary(strings.Split(tt.in, "\n")); got != tt.want {
			t.Errorf("stderrSummary(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	long := "panic: " + strings.Repeat("word ", 1000)
	if got := cutAtSpace(long, 100); len(got) > 100+len(" …") || !strings.HasSuffix(got, "word …") {
		t.Errorf("cutAtSpace cut a word: %q", got)
	}
	// The tail after the kept head starts at a whole line.
	var b tailBuffer
	b.max = 64
	fmt.Fprint(&b, "panic: first\n"+strings.Repeat("x", stderrHead)+"\n"+strings.Repeat("y", 200)+"\nlast words\n")
	if got := b.String(); !strings.HasPrefix(got, "panic: first | ") || strings.Contains(got, "yyy") && !strings.Contains(got, "last words") {
		t.Errorf("tailBuffer = %q", got)
	}
}
