package devserver_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/agsh-dev/agsh/internal/devserver"
	"github.com/agsh-dev/agsh/internal/devserver/devservertest"
)

// TestRecordStateRoundTrip: with --state, records, rotated tokens and
// task endings survive a restart; a turn running at Close is recorded as
// interrupted, and indexes go on from where they were.
func TestRecordStateRoundTrip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := testConfig()
	cfg.StateDir = dir
	first := devservertest.Start(t, cfg)
	exec := first.AgentURL("executor")
	c := script(t, exec, `call echo_read {"k": 1.50}`, "say done")
	waitFor(t, exec, c.SessionID, "session.waiting")
	next := send(t, exec, "", map[string]any{"message": "sleep 10m", "continuationToken": c.ContinuationToken})
	waitFor(t, exec, c.SessionID, "turn.started", "turnId", next.TurnID)
	task := send(t, exec, "", map[string]any{"message": "say once", "mode": "task"})
	waitFor(t, exec, task.SessionID, "turn.completed")
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	second := devservertest.Start(t, cfg)
	before := events(t, second.AgentURL("executor"), "", c.SessionID)
	if err := second.Close(); err != nil {
		t.Fatal(err)
	}
	exec = startAgain(t, cfg)
	after := events(t, exec, "", c.SessionID)
	if !reflect.DeepEqual(after, before) {
		t.Fatalf("a restart changed the record:\n%v\n%v", types(before), types(after))
	}
	want := []string{"turn.started", "actions.requested", "action.result", "message.completed", "turn.completed", "session.waiting",
		"turn.started", "turn.failed", "session.waiting"}
	if !reflect.DeepEqual(types(after), want) {
		t.Fatalf("events %v, want %v", types(after), want)
	}
	if e := after[7]; e.str("turnId") != next.TurnID || e.str("reason") != "interrupted" || e.str("message") != "the development deployment stopped" {
		t.Fatalf("turn.failed: %+v", e)
	}
	status, body := post(t, exec, "echo_read", "", map[string]any{"continuationToken": c.ContinuationToken})
	expectError(t, status, body, 409, "stale_continuation_token", "")
	if status, body := post(t, exec, "echo_read", "", map[string]any{"continuationToken": next.ContinuationToken}); status != 200 {
		t.Fatalf("the current token: %d %s", status, body)
	}
	if e := events(t, exec, "", c.SessionID)[9]; e.Index != 9 || e.Type != "turn.started" || e.str("source") != "direct" {
		t.Fatalf("the next event: %+v", e)
	}
	if r := row(t, exec, "", task.SessionID); r["status"] != "completed" {
		t.Fatalf("task row: %v", r)
	}
	if r := row(t, exec, "", c.SessionID); r["running"] != false || r["status"] != "waiting" {
		t.Fatalf("row: %v", r)
	}
}

// startAgain starts a server on cfg's state and answers its executor URL.
func startAgain(t *testing.T, cfg devserver.Config) string {
	t.Helper()
	return devservertest.Start(t, cfg).AgentURL("executor")
}

// TestRecordStateAfterACrash: a record whose turn never recorded its end
// (the server died) gets that end when it is loaded.
func TestRecordStateAfterACrash(t *testing.T) {
	t.Parallel()
	dir, copyDir := t.TempDir(), t.TempDir()
	cfg := testConfig()
	cfg.StateDir = dir
	srv := devservertest.Start(t, cfg)
	exec := srv.AgentURL("executor")
	c := script(t, exec, "sleep 10m")
	queued := send(t, exec, "", map[string]any{"message": "say later", "continuationToken": c.ContinuationToken})
	waitFor(t, exec, c.SessionID, "turn.queued")
	copyTree(t, filepath.Join(dir, "executor"), filepath.Join(copyDir, "executor"))
	cfg.StateDir = copyDir
	evs := events(t, startAgain(t, cfg), "", c.SessionID)
	want := []string{"turn.started", "turn.queued", "turn.failed", "turn.failed", "session.waiting"}
	if !reflect.DeepEqual(types(evs), want) {
		t.Fatalf("events %v, want %v", types(evs), want)
	}
	if evs[2].str("turnId") != c.TurnID || evs[3].str("turnId") != queued.TurnID ||
		evs[2].str("message") != "the development deployment stopped before the turn ended" {
		t.Fatalf("ends: %+v", evs[2:])
	}
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	if err := os.MkdirAll(to, 0o755); err != nil {
		t.Fatal(err)
	}
	des, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, de := range des {
		b, err := os.ReadFile(filepath.Join(from, de.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, de.Name()), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRecordStateCompacted: the record's file is rewritten once it holds
// twice what the record keeps, and reads back the same, stand-in included.
func TestRecordStateCompacted(t *testing.T) {
	devserver.SetRecordCaps(t, 10, 64<<20)
	dir := t.TempDir()
	cfg := testConfig()
	cfg.StateDir = dir
	srv := devservertest.Start(t, cfg)
	exec := srv.AgentURL("executor")
	c := send(t, exec, "", map[string]any{"message": "hi"})
	pad := strings.Repeat("p", 100000)
	for range 10 {
		post(t, exec, "echo_read", "", map[string]any{"sessionId": c.SessionID, "input": map[string]any{"pad": pad}})
	}
	before := events(t, exec, "", c.SessionID)
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, "executor", c.SessionID+".events.jsonl"))
	if err != nil || fi.Size() > 5<<20 {
		t.Fatalf("the record's file: %v, %d bytes", err, fi.Size())
	}
	after := events(t, startAgain(t, cfg), "", c.SessionID)
	if !reflect.DeepEqual(after, before) || after[0].Type != "record.truncated" || after[0].Index != 33 {
		t.Fatalf("after a restart:\n%v\nbefore:\n%v", indexes(after), indexes(before))
	}
}

// TestRecordStateHostileFile: a record file with broken lines, indexes that
// go backwards, a gap and an endless line loads what it can and says so.
func TestRecordStateHostileFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := testConfig()
	cfg.StateDir = dir
	srv := devservertest.Start(t, cfg)
	c := send(t, srv.AgentURL("executor"), "", map[string]any{"message": "hi"})
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	line := func(i int, typ string) string {
		return fmt.Sprintf(`{"index":%d,"type":"%s","data":{},"at":"2026-01-01T00:00:00.000Z"}`, i, typ)
	}
	file := strings.Join([]string{
		line(0, "a"), "{not json", line(1, "b"), line(1, "again"), line(0, "backwards"),
		`{"type":"no index"}`, `{"index":-3,"type":"negative"}`, `[1,2]`, "",
		`{"index":2,"type":"` + strings.Repeat("x", 9<<20) + `"}`,
		line(5, "after a gap"), line(6, "c"),
	}, "\n") + "\n" + `{"index":7,"type":"cut short`
	if err := os.WriteFile(filepath.Join(dir, "executor", c.SessionID+".events.jsonl"), []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var logs []string
	cfg.Logf = func(f string, a ...any) {
		mu.Lock()
		defer mu.Unlock()
		logs = append(logs, fmt.Sprintf(f, a...))
	}
	evs := events(t, startAgain(t, cfg), "", c.SessionID)
	if got := types(evs); !reflect.DeepEqual(got, []string{"record.truncated", "after a gap", "c"}) || evs[0].Index != 4 {
		t.Fatalf("loaded %v %v", got, indexes(evs))
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(strings.Join(logs, "\n"), "devserver: session "+c.SessionID+": skipped 8 unreadable or out-of-order line(s) of its record, 1 gap(s)") {
		t.Fatalf("logs:\n%s", strings.Join(logs, "\n"))
	}
}
