package devserver_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/devserver"
	"github.com/agsh-dev/agsh/internal/devserver/devservertest"
)

// The attack of 30 sessions each bound to one large call, at a thousandth
// of its size: what the sessions keep stays within the caps (the newest
// call always kept), the oldest sessions' calls and events are dropped and
// their routes say so, and the ledger agrees with the sessions.
func TestKeptBytesCappedAcrossSessions(t *testing.T) {
	const perPrincipal, total = 400_000, 600_000
	devserver.SetKeptCaps(t, perPrincipal, total)
	cfg := testConfig()
	cfg.BearerTokens = []string{"tok-a", "tok-b"}
	s := devservertest.Start(t, cfg)
	exec := s.AgentURL("executor")
	pad := strings.Repeat("x", 60_000)
	var ids []string
	for i := range 30 {
		id, _ := devservertest.NewSession(t, exec, "tok-a", fmt.Sprint("big ", i))
		ids = append(ids, id)
		if status, body := post(t, exec, "echo_read", "tok-a", fmt.Sprintf(`{"sessionId":%q,"input":{"i":%d,"pad":%q}}`, id, i, pad)); status != 200 {
			t.Fatalf("call %d: %d %.200s", i, status, body)
		}
		all, own, _ := devserver.Kept(s, principalOf("tok-a"))
		if own > perPrincipal+200_000 || all != devserver.Measured(s) {
			t.Fatalf("after call %d: the principal keeps %d bytes (cap %d); the ledger says %d in all, the sessions %d", i, own, perPrincipal, all, devserver.Measured(s))
		}
	}
	newest := getCallsAs(t, exec, ids[29], "tok-a")
	if len(newest.Calls) != 1 || !strings.Contains(string(newest.Calls[0].Input), `"i":29`) {
		t.Fatalf("the newest session lost its call: %+v", newest)
	}
	oldest := getCallsAs(t, exec, ids[0], "tok-a")
	if len(oldest.Calls) != 0 || oldest.DroppedCalls != 1 ||
		!strings.Contains(oldest.Note, "and the sessions of one principal keep 400000 bytes of calls and events together") {
		t.Fatalf("the oldest session's call was not dropped, or not said so: %+v", oldest)
	}
	status, body := devservertest.Do(t, http.MethodGet, exec+"/v1/session/"+ids[0]+"/events", "tok-a", nil)
	if status != 200 || !strings.Contains(string(body), `"type":"record.truncated"`) || strings.Contains(string(body), pad) {
		t.Fatalf("the oldest session's record: %d %.300s", status, body)
	}

	// Another principal's sessions are not dropped for the first one's
	// cap; the server's cap drops what is oldest, whoever's it is.
	idB, _ := devservertest.NewSession(t, exec, "tok-b", "b")
	post(t, exec, "echo_read", "tok-b", fmt.Sprintf(`{"sessionId":%q,"input":{"b":%q}}`, idB, pad))
	for i := range 3 {
		post(t, exec, "echo_read", "tok-a", fmt.Sprintf(`{"sessionId":%q,"input":{"again":%d,"pad":%q}}`, ids[29], i, pad))
	}
	if got := getCallsAs(t, exec, idB, "tok-b"); len(got.Calls) != 1 {
		t.Fatalf("principal b's call was dropped for principal a's cap: %+v", got)
	}
	for i := range 12 {
		post(t, exec, "echo_read", "tok-b", fmt.Sprintf(`{"sessionId":%q,"input":{"more":%d,"pad":%q}}`, idB, i, pad))
	}
	if all, _, _ := devserver.Kept(s, ""); all > total+200_000 || all != devserver.Measured(s) {
		t.Fatalf("the server keeps %d bytes (cap %d); the sessions %d", all, total, devserver.Measured(s))
	}
}

// getCallsAs is getCalls with a token.
func getCallsAs(t *testing.T, exec, id, token string) callsAnswer {
	t.Helper()
	status, body := devservertest.Do(t, http.MethodGet, exec+"/v1/dev/sessions/"+id+"/calls", token, nil)
	var out callsAnswer
	if status != 200 || json.Unmarshal(body, &out) != nil {
		t.Fatalf("calls: %d %s", status, clipBody(body))
	}
	return out
}

// Past the caps on sessions, creating one forgets the idle session with the
// oldest activity (its routes then say unknown_session); one running a turn
// is kept; with every session busy, creating is 429 too_many_sessions.
func TestSessionCountCapped(t *testing.T) {
	devserver.SetSessionCountCaps(t, 3, 100)
	_, exec := start(t)
	var ids []string
	for i := range 3 {
		id, _ := devservertest.NewSession(t, exec, "", fmt.Sprint("s", i))
		ids = append(ids, id)
	}
	devservertest.SetTurn(t, exec, "", devservertest.Turn{SessionID: ids[0], Running: devservertest.Ptr(true)})
	id3, _ := devservertest.NewSession(t, exec, "", "s3")
	rows := listSessions(t, exec, "")
	if len(rows) != 3 {
		t.Fatalf("%d sessions kept, want 3", len(rows))
	}
	status, body := devservertest.Do(t, http.MethodGet, exec+"/v1/dev/sessions/"+ids[1]+"/calls", "", nil)
	expectError(t, status, body, 404, "unknown_session", "")
	for _, id := range []string{ids[0], ids[2], id3} {
		if status, _ := devservertest.Do(t, http.MethodGet, exec+"/v1/dev/sessions/"+id+"/calls", "", nil); status != 200 {
			t.Fatalf("session %s was forgotten", id)
		}
	}
	for _, id := range []string{ids[2], id3} {
		devservertest.SetTurn(t, exec, "", devservertest.Turn{SessionID: id, Running: devservertest.Ptr(true)})
	}
	status, body = devservertest.Do(t, http.MethodPost, exec+"/v1/session", "", `{"message":"one more"}`)
	expectError(t, status, body, 429, "too_many_sessions",
		"this principal has 3 sessions, the most allowed, and each runs a turn; retry when one ends")
}

// The attack of faults with large bodies, at a smaller size: past the
// caps on a principal's faults (count, bytes) and the server's, arming is
// 429 too_many_faults; clearing or using faults gives the room back.
func TestFaultsCapped(t *testing.T) {
	devserver.SetFaultCaps(t, 3, 5, 10_000, 15_000)
	cfg := testConfig()
	cfg.BearerTokens = []string{"tok-a", "tok-b", "tok-c"}
	s := devservertest.Start(t, cfg)
	exec := s.AgentURL("executor")
	arm := func(token string, route string, size int) (int, []byte) {
		return devservertest.Do(t, http.MethodPost, exec+"/v1/dev/faults", token,
			fmt.Sprintf(`{"route":%q,"body":%q}`, route, strings.Repeat("x", size)))
	}
	for i, size := range []int{4000, 4000} {
		if status, body := arm("tok-a", fmt.Sprint("GET /v1/tools/x", i), size); status != 200 {
			t.Fatalf("fault %d: %d %s", i, status, body)
		}
	}
	status, body := arm("tok-a", "GET /v1/tools/x2", 4000)
	expectError(t, status, body, 429, "too_many_faults",
		"the bodies of this principal's armed faults would pass 10000 bytes, the most allowed; clear them (DELETE /v1/dev/faults) or let them fire")
	if status, body := arm("tok-a", "GET /v1/tools/x2", 10); status != 200 {
		t.Fatalf("a small third fault: %d %s", status, body)
	}
	status, body = arm("tok-a", "GET /v1/tools/x3", 0)
	expectError(t, status, body, 429, "too_many_faults",
		"this principal has 3 faults armed, the most allowed; clear them (DELETE /v1/dev/faults) or let them fire")
	// A fault that fires gives its room back.
	if status, _ := devservertest.Do(t, http.MethodGet, exec+"/v1/tools/x2", "tok-a", nil); status != 200 {
		t.Fatalf("the fault did not fire: %d", status)
	}
	if status, body := arm("tok-a", "GET /v1/tools/x3", 10); status != 200 {
		t.Fatalf("after a fault fired: %d %s", status, body)
	}
	// The server's caps count every principal.
	if status, body := arm("tok-b", "GET /v1/tools/y", 6000); status != 200 {
		t.Fatalf("principal b: %d %s", status, body)
	}
	status, body = arm("tok-c", "GET /v1/tools/z", 2000)
	expectError(t, status, body, 429, "too_many_faults",
		"the bodies of the server's armed faults would pass 15000 bytes, the most allowed; retry later")
	if status, body := arm("tok-b", "GET /v1/tools/y2", 0); status != 200 {
		t.Fatalf("the server's fifth fault: %d %s", status, body)
	}
	status, body = arm("tok-b", "GET /v1/tools/y3", 0)
	expectError(t, status, body, 429, "too_many_faults", "the server has 5 faults armed, the most allowed; retry later")
	if status, _ := devservertest.Do(t, http.MethodDelete, exec+"/v1/dev/faults", "tok-a", nil); status != 200 {
		t.Fatal("clearing")
	}
	if status, body := arm("tok-c", "GET /v1/tools/z", 2000); status != 200 {
		t.Fatalf("after principal a cleared its faults: %d %s", status, body)
	}
}

// principalOf is the principal of a bearer token.
func principalOf(token string) string {
	sum := sha256.Sum256([]byte(token))
	return "bearer:" + hex.EncodeToString(sum[:])[:12]
}
