package devserver_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/internal/devserver"
	"github.com/agsh-dev/agsh/internal/devserver/devservertest"
)

// TestDemoSessions: --demo-sessions N starts N sessions at once in mixed
// states: parked approvals, running (busy and sleeping), a queued turn,
// failed and stopped turns in the records, finished task sessions; and the
// operator's own idle session, which DemoSession names.
func TestDemoSessions(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv, stop, err := devserver.Build(ctx, devserver.Options{Addr: "127.0.0.1:0", Root: t.TempDir(), DemoSessions: 20})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	exe := srv.AgentURL("executor")
	var rows []struct {
		SessionID, Status, Mode, Title string
		Queued                         bool
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, body := devservertest.Do(t, http.MethodGet, exe+"/v1/sessions", "", nil)
		var out struct {
			Sessions json.RawMessage `json:"sessions"`
		}
		if err := json.Unmarshal(body, &out); err != nil {
			t.Fatal(err)
		}
		_ = json.Unmarshal(out.Sessions, &rows)
		n := map[string]int{}
		for _, r := range rows {
			n[r.Status]++
			if r.Queued {
				n["queued"]++
			}
		}
		// 20 sessions of 10 kinds: 2 parked a call each of report_change_issue
		// and report_change_succeeded, 2 task sessions completed.
		if len(rows) == 21 && n["waiting_approval"] == 4 && n["completed"] == 2 && n["queued"] == 2 && n["running"] >= 6 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("demo sessions never settled: %v", n)
		}
		time.Sleep(50 * time.Millisecond)
	}
	failed, stopped := 0, 0
	for _, r := range rows {
		if !strings.Contains(r.Title, "(demo") {
			t.Errorf("title %q", r.Title)
		}
		_, body := devservertest.Do(t, http.MethodGet, exe+"/v1/session/"+r.SessionID+"/events", "", nil)
		if strings.Contains(string(body), `"reason":"error"`) {
			failed++
		}
		if strings.Contains(string(body), `"reason":"interrupted"`) {
			stopped++
		}
	}
	own := false
	for _, r := range rows {
		own = own || r.Title == "your session (demo)" && r.SessionID == srv.DemoSession() && r.Status == "waiting"
	}
	if failed != 2 || stopped != 2 || !own {
		t.Errorf("records: %d failed, %d stopped turns; want 2 and 2; the operator's own session listed: %v", failed, stopped, own)
	}
	if _, err := srv.StartDemoSessions("executor", devserver.MaxDemoSessions+1); err == nil {
		t.Error("past the bound: no error")
	}
}
