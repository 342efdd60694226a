package devserver_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/agsh-dev/agsh/internal/devserver/devservertest"
)

// TestConsoleConcurrently drives several sessions at once — turns with
// approvals, follow-ups, direct calls beside the turns, interrupts and
// streams — and checks each stream's indexes go up by one (run it with
// -race).
func TestConsoleConcurrently(t *testing.T) {
	t.Parallel()
	exec := startJSON(t)
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := script(t, exec, `call echo_write {"n": `+fmt.Sprint(i)+`}`, `call report_change_issue {"title": "t"}`, "sleep 2ms", "say done")
			s := openStream(t, exec, "", c.SessionID, "0")
			var seen []ev
			seen = append(seen, s.until("approval.requested")...)
			callID := seen[len(seen)-1].str("callId")
			tok := c.ContinuationToken
			var inner sync.WaitGroup
			inner.Add(3)
			go func() {
				defer inner.Done()
				decide(t, exec, "", c.SessionID, callID, map[string]any{"decision": "approve"})
			}()
			go func() {
				defer inner.Done()
				devservertest.Do(t, http.MethodPost, exec+"/v1/tools/echo_read", "", map[string]any{"sessionId": c.SessionID})
			}()
			go func() {
				defer inner.Done()
				tok = send(t, exec, "", map[string]any{"message": "sleep 10m", "continuationToken": tok}).ContinuationToken
			}()
			inner.Wait()
			last := send(t, exec, "", map[string]any{"message": "say last", "continuationToken": tok})
			seen = append(seen, s.until("turn.started", "source", "follow-up")...)
			interrupt(t, exec, c.SessionID)
			seen = append(seen, s.until("turn.completed", "turnId", last.TurnID)...)
			for k := 1; k < len(seen); k++ {
				if seen[k].Index != seen[k-1].Index+1 {
					t.Errorf("session %d: index %d after %d", i, seen[k].Index, seen[k-1].Index)
				}
			}
			if all := events(t, exec, "", c.SessionID); len(all) < len(seen) {
				t.Errorf("session %d: %d events, the stream saw %d", i, len(all), len(seen))
			}
		}()
	}
	wg.Wait()
}
