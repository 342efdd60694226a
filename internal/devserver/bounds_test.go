package devserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/devserver"
	"github.com/agsh-dev/agsh/internal/devserver/devservertest"
)

// callsAnswer is GET /v1/dev/sessions/{id}/calls with the drop counts.
type callsAnswer struct {
	Calls []struct {
		ToolName string          `json:"toolName"`
		Input    json.RawMessage `json:"input"`
		At       string          `json:"at"`
	} `json:"calls"`
	Records        []json.RawMessage `json:"records"`
	DroppedCalls   int               `json:"droppedCalls"`
	DroppedRecords int               `json:"droppedRecords"`
	Note           string            `json:"note"`
}

func getCalls(t *testing.T, exec, id string) callsAnswer {
	t.Helper()
	status, body := devservertest.Do(t, http.MethodGet, exec+"/v1/dev/sessions/"+id+"/calls", "", nil)
	var out callsAnswer
	if status != 200 || json.Unmarshal(body, &out) != nil {
		t.Fatalf("calls: %d %s", status, clipBody(body))
	}
	return out
}

// TestSessionCallsCapped: a session keeps its last calls and records (a count
// and a byte cap); the older ones are dropped and the calls route says so.
func TestSessionCallsCapped(t *testing.T) {
	devserver.SetSessionCaps(t, 10, 4, 1<<30)
	_, exec := start(t)
	id, _ := devservertest.NewSession(t, exec, "", "many calls")
	for i := range 13 {
		tool := "echo_read"
		if i%2 == 1 {
			tool = "recorder"
		}
		if status, body := post(t, exec, tool, "", fmt.Sprintf(`{"sessionId":%q,"input":{"i":%d}}`, id, i)); status != 200 {
			t.Fatalf("call %d: %d %s", i, status, body)
		}
	}
	got := getCalls(t, exec, id)
	if len(got.Calls) != 10 || string(got.Calls[0].Input) != `{"i":3}` || string(got.Calls[9].Input) != `{"i":12}` {
		t.Fatalf("kept calls: %+v", got.Calls)
	}
	if len(got.Records) != 4 || got.DroppedCalls != 3 || got.DroppedRecords != 2 || !strings.Contains(got.Note, "3 older calls and 2 older records were dropped") {
		t.Fatalf("records %d, dropped %d/%d, note %q", len(got.Records), got.DroppedCalls, got.DroppedRecords, got.Note)
	}
}

func TestSessionBytesCapped(t *testing.T) {
	devserver.SetSessionCaps(t, 1000, 1000, 20_000)
	_, exec := start(t)
	id, _ := devservertest.NewSession(t, exec, "", "big calls")
	big := strings.Repeat("x", 6000)
	for i := range 6 {
		post(t, exec, "echo_read", "", fmt.Sprintf(`{"sessionId":%q,"input":{"i":%d,"pad":%q}}`, id, i, big))
	}
	got := getCalls(t, exec, id)
	if len(got.Calls) != 3 || got.DroppedCalls != 3 || !strings.Contains(string(got.Calls[0].Input), `"i":3`) {
		t.Fatalf("kept %d calls, dropped %d: %.200s", len(got.Calls), got.DroppedCalls, got.Calls)
	}
	// One call over the cap on its own is still kept: the newest stays.
	post(t, exec, "echo_read", "", fmt.Sprintf(`{"sessionId":%q,"input":{"pad":%q}}`, id, strings.Repeat("y", 30_000)))
	if got := getCalls(t, exec, id); len(got.Calls) != 1 || got.DroppedCalls != 6 {
		t.Fatalf("kept %d calls, dropped %d", len(got.Calls), got.DroppedCalls)
	}
}

// TestStateAppendsCalls: with --state a call appends to the session's call
// log; the session file is not rewritten per call, and everything survives a
// restart in order, caps applied.
func TestStateAppendsCalls(t *testing.T) {
	dir := t.TempDir()
	cfg := testConfig()
	cfg.StateDir = dir
	first := devservertest.Start(t, cfg)
	exec := first.AgentURL("executor")
	id, _ := devservertest.NewSession(t, exec, "", "append")
	head := filepath.Join(dir, "executor", id+".json")
	before, err := os.ReadFile(head)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 30 {
		post(t, exec, "recorder", "", fmt.Sprintf(`{"sessionId":%q,"input":{"i":%d}}`, id, i))
	}
	after, _ := os.ReadFile(head)
	if string(after) != string(before) {
		t.Fatalf("the session file was rewritten by calls:\n%s\nthen\n%s", before, after)
	}
	log, err := os.ReadFile(filepath.Join(dir, "executor", id+".calls.jsonl"))
	if err != nil || strings.Count(string(log), "\n") != 60 {
		t.Fatalf("call log (%v): %d lines", err, strings.Count(string(log), "\n"))
	}
	want := getCalls(t, exec, id)
	rows := listSessions(t, exec, "")
	_ = first.Close()

	// A cut-short last line (a crash mid-append) is skipped.
	f, _ := os.OpenFile(filepath.Join(dir, "executor", id+".calls.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	_, _ = f.WriteString(`{"call":{"callId":"call_cut","tool`)
	_ = f.Close()
	var logs logLines
	cfg.Logf = logs.logf
	second := devservertest.Start(t, cfg)
	exec = second.AgentURL("executor")
	got := getCalls(t, exec, id)
	if len(got.Calls) != 30 || len(got.Records) != 30 || fmt.Sprint(got.Calls) != fmt.Sprint(want.Calls) {
		t.Fatalf("after restart %d calls, %d records", len(got.Calls), len(got.Records))
	}
	if r := listSessions(t, exec, ""); r[0].UpdatedAt != rows[0].UpdatedAt || r[0].UpdatedAt != got.Calls[29].At {
		t.Fatalf("activity time after restart %s, before %s, last call %s", r[0].UpdatedAt, rows[0].UpdatedAt, got.Calls[29].At)
	}
	if !strings.Contains(logs.String(), "skipped 1 unreadable line(s) of its call log") {
		t.Fatalf("the cut line was not reported:\n%s", logs.String())
	}
}

// The call log is compacted when it outgrows what the session keeps, and
// the drop counts survive a restart.
func TestStateCallLogCompacted(t *testing.T) {
	devserver.SetSessionCaps(t, 5, 5, 1<<30)
	dir := t.TempDir()
	cfg := testConfig()
	cfg.StateDir = dir
	first := devservertest.Start(t, cfg)
	exec := first.AgentURL("executor")
	id, _ := devservertest.NewSession(t, exec, "", "compact")
	pad := strings.Repeat("z", 20_000)
	for i := range 200 {
		post(t, exec, "echo_read", "", fmt.Sprintf(`{"sessionId":%q,"input":{"i":%d,"pad":%q}}`, id, i, pad))
	}
	fi, err := os.Stat(filepath.Join(dir, "executor", id+".calls.jsonl"))
	if err != nil || fi.Size() > 3<<20 {
		t.Fatalf("call log not compacted: %v, %d bytes", err, fi.Size())
	}
	_ = first.Close()
	second := devservertest.Start(t, cfg)
	got := getCalls(t, second.AgentURL("executor"), id)
	if len(got.Calls) != 5 || got.DroppedCalls != 195 || !strings.Contains(string(got.Calls[4].Input), `"i":199`) {
		t.Fatalf("after restart: %d calls, %d dropped", len(got.Calls), got.DroppedCalls)
	}
}

// A session file of the first format (calls inside) is loaded, and its
// calls move to the call log, so a later save keeps them.
func TestStateFirstFormatMigrates(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "executor"), 0o755); err != nil {
		t.Fatal(err)
	}
	old := `{"sessionId":"ses_0123456789abcdef","continuationToken":"http:old","mode":"chat","owner":"local",` +
		`"createdAt":"2026-01-01T00:00:00.000Z","updatedAt":"2026-01-01T00:00:01.000Z","running":false,"queued":false,` +
		`"calls":[{"callId":"call_1","toolName":"echo_read","input":"{\"a\":1}","turnId":"turn_1","isError":false,"at":"2026-01-01T00:00:01.000Z"}],"records":[]}`
	if err := os.WriteFile(filepath.Join(dir, "executor", "ses_0123456789abcdef.json"), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := testConfig()
	cfg.StateDir = dir
	first := devservertest.Start(t, cfg)
	exec := first.AgentURL("executor")
	devservertest.SetTurn(t, exec, "", devservertest.Turn{SessionID: "ses_0123456789abcdef", Queued: devservertest.Ptr(true)})
	_ = first.Close()
	second := devservertest.Start(t, cfg)
	got := getCalls(t, second.AgentURL("executor"), "ses_0123456789abcdef")
	if len(got.Calls) != 1 || string(got.Calls[0].Input) != `{"a":1}` {
		t.Fatalf("calls after migration and a save: %+v", got.Calls)
	}
}
