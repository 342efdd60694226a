package devserver_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/devserver/devservertest"
)

func TestStatePersistsAcrossRestarts(t *testing.T) {
	dir := t.TempDir()
	cfg := testConfig()
	cfg.StateDir = dir
	first := devservertest.Start(t, cfg)
	exec := first.AgentURL("executor")
	id, tok := devservertest.NewSession(t, exec, "", "persist me")
	post(t, exec, "recorder", "", `{"sessionId":"`+id+`","input":{ "k" :  "v" }}`)
	devservertest.SetTurn(t, exec, "", devservertest.Turn{SessionID: id, Queued: devservertest.Ptr(true)})
	before := listSessions(t, exec, "")
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	// A stray file and a broken one are skipped, not fatal.
	if err := os.WriteFile(filepath.Join(dir, "executor", "ses_broken.json"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}

	var logs strings.Builder
	cfg.Logf = func(f string, a ...any) {
		if line := fmt.Sprintf(f, a...); strings.HasPrefix(line, "devserver: skipping") {
			logs.WriteString(line)
		}
	}
	second := devservertest.Start(t, cfg)
	exec = second.AgentURL("executor")
	after := listSessions(t, exec, "")
	if len(after) != 1 || after[0] != before[0] || after[0].ContinuationToken != tok || !after[0].Queued {
		t.Fatalf("after restart %+v\nbefore %+v", after, before)
	}
	if logs.Len() == 0 {
		t.Fatalf("the broken file was not reported")
	}
	calls := sessionCalls(t, exec, id)
	if len(calls) != 1 || calls[0].ToolName != "recorder" || string(calls[0].Input) != `{ "k" :  "v" }` {
		t.Fatalf("calls after restart: %+v", calls)
	}
	// The token still binds, and the busy state survived.
	status, body := post(t, exec, "echo_write", "", map[string]any{"continuationToken": tok})
	expectError(t, status, body, 409, "session_busy", "")
	// A new session is newer than everything loaded.
	newer, _ := devservertest.NewSession(t, exec, "", "newer")
	if rows := listSessions(t, exec, ""); rows[0].SessionID != newer {
		t.Fatalf("new session is not first: %+v", rows)
	}
}
