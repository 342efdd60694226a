package devserver_test

import (
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/devserver"
	"github.com/agsh-dev/agsh/internal/devserver/devservertest"
)

func TestEventsRoute(t *testing.T) {
	t.Parallel()
	cfg := testConfig()
	cfg.BearerTokens = []string{"alice", "bob"}
	exec := devservertest.Start(t, cfg).AgentURL("executor")
	c := send(t, exec, "alice", map[string]any{"message": "hi"})
	status, body := devservertest.Do(t, http.MethodGet, exec+"/v1/session/"+c.SessionID+"/events", "alice", nil)
	re := `^\{"ok":true,"sessionId":"` + c.SessionID + `","firstIndex":0,"nextIndex":4,"events":\[` +
		`\{"index":0,"type":"turn.started","data":\{"turnId":"` + c.TurnID + `","source":"message","message":"hi"\},"at":"[^"]+"\},` +
		`\{"index":1,"type":"message.completed","data":\{"text":"\(dev agent\) no steps in the message","finishReason":"stop","turnId":"` + c.TurnID + `"\},"at":"[^"]+"\},` +
		`\{"index":2,"type":"turn.completed","data":\{"turnId":"` + c.TurnID + `"\},"at":"[^"]+"\},` +
		`\{"index":3,"type":"session.waiting","data":\{\},"at":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"\}\]\}$`
	if status != 200 || !regexp.MustCompile(re).Match(body) {
		t.Fatalf("events: %d %s", status, body)
	}
	forbidden := "session " + c.SessionID + " belongs to another principal; use the identity that created it"
	for _, path := range []string{"/events", "/stream", "/stream?startIndex=0", "/interrupt"} {
		method := http.MethodGet
		if path == "/interrupt" {
			method = http.MethodPost
		}
		status, body := devservertest.Do(t, method, exec+"/v1/session/"+c.SessionID+path, "bob", nil)
		expectError(t, status, body, 403, "forbidden", forbidden)
		status, body = devservertest.Do(t, method, exec+"/v1/session/ses_0000000000000000"+path, "alice", nil)
		expectError(t, status, body, 404, "unknown_session", "no session ses_0000000000000000 on agent executor")
		status, body = devservertest.Do(t, method, exec+"/v1/session/"+c.SessionID+path, "", nil)
		expectError(t, status, body, 401, "unauthorized", "")
	}
	status, body = devservertest.Do(t, http.MethodPost, exec+"/v1/session/"+c.SessionID+"/events", "alice", "{}")
	expectError(t, status, body, 405, "method_not_allowed", "method not allowed; this route answers GET")
	status, body = devservertest.Do(t, http.MethodGet, exec+"/v1/session//events", "alice", nil)
	expectError(t, status, body, 404, "not_found", "")
}

func TestStreamStartIndex(t *testing.T) {
	t.Parallel()
	_, exec := start(t)
	c := send(t, exec, "", map[string]any{"message": "hi"})
	for _, bad := range []string{"-1", "abc", "1.5", "99999999999999999999", "", "0x10"} {
		status, body := devservertest.Do(t, http.MethodGet, exec+"/v1/session/"+c.SessionID+"/stream?startIndex="+bad, "", nil)
		expectError(t, status, body, 400, "invalid_input", fmt.Sprintf("startIndex must be a whole number, 0 or more, not %q", bad))
	}
	s := openStream(t, exec, "", c.SessionID, "2")
	if e, _ := s.next(); e.Index != 2 || e.Type != "turn.completed" {
		t.Fatalf("from 2: %+v", e)
	}
	// An index past the end waits for it: a direct call adds events 4 to 7.
	later := openStream(t, exec, "", c.SessionID, "6")
	if status, body := post(t, exec, "echo_read", "", map[string]any{"sessionId": c.SessionID}); status != 200 {
		t.Fatalf("call: %d %s", status, body)
	}
	if e, _ := later.next(); e.Index != 6 || e.Type != "action.result" {
		t.Fatalf("from 6: %+v", e)
	}
	for want := int64(3); want < 8; want++ {
		if e, _ := s.next(); e.Index != want {
			t.Fatalf("index %d, want %d", e.Index, want)
		}
	}
}

func TestRecordBoundedByCount(t *testing.T) {
	devserver.SetRecordCaps(t, 5, 64<<20)
	_, exec := start(t)
	c := send(t, exec, "", map[string]any{"message": "hi"}) // events 0-3
	// The bound plus one: event 5 drops event 0.
	post(t, exec, "echo_read", "", map[string]any{"sessionId": c.SessionID}) // 4-7
	evs := events(t, exec, "", c.SessionID)
	if got := indexes(evs); !reflect.DeepEqual(got, []int64{2, 3, 4, 5, 6, 7}) {
		t.Fatalf("indexes %v", got)
	}
	note := evs[0]
	if note.Type != "record.truncated" || note.Data["dropped"] != float64(3) || note.Data["firstIndex"] != float64(3) ||
		note.str("note") != "events 0 to 2 were dropped: a session keeps its last 5 events, 64 MiB in all" || note.At == "" {
		t.Fatalf("stand-in: %+v", note)
	}
	_, body := devservertest.Do(t, http.MethodGet, exec+"/v1/session/"+c.SessionID+"/events", "", nil)
	if !strings.Contains(string(body), `"firstIndex":3,"nextIndex":8,"dropped":3,"events":[{"index":2,"type":"record.truncated"`) {
		t.Fatalf("envelope: %s", body)
	}
	// A stream from below the first kept starts there, with the note.
	s := openStream(t, exec, "", c.SessionID, "1")
	if e, _ := s.next(); e.Type != "record.truncated" || e.Index != 2 || e.Data["startIndex"] != float64(1) {
		t.Fatalf("stream note: %+v", e)
	}
	for want := int64(3); want < 8; want++ {
		if e, _ := s.next(); e.Index != want {
			t.Fatalf("index %d, want %d", e.Index, want)
		}
	}
	if e, _ := openStream(t, exec, "", c.SessionID, "3").next(); e.Index != 3 || e.Type == "record.truncated" {
		t.Fatalf("from the first kept: %+v", e)
	}
}

func TestRecordBoundedByBytes(t *testing.T) {
	devserver.SetRecordCaps(t, 1000, 4000)
	_, exec := start(t)
	c := send(t, exec, "", map[string]any{"message": "hi"})
	for range 10 {
		post(t, exec, "echo_read", "", map[string]any{"sessionId": c.SessionID, "input": map[string]any{"pad": strings.Repeat("p", 300)}})
	}
	evs := events(t, exec, "", c.SessionID)
	if evs[0].Type != "record.truncated" || len(evs) > 20 || evs[len(evs)-1].Index != 43 {
		t.Fatalf("kept %d events: %v", len(evs), indexes(evs))
	}
	// One event larger than the whole bound is still kept: the newest stays.
	post(t, exec, "echo_read", "", map[string]any{"sessionId": c.SessionID, "input": map[string]any{"pad": strings.Repeat("p", 5000)}})
	if evs := events(t, exec, "", c.SessionID); evs[len(evs)-1].Index != 47 || evs[len(evs)-1].Type != "turn.completed" {
		t.Fatalf("kept %v", indexes(evs))
	}
}

func TestRecordValueBound(t *testing.T) {
	t.Parallel()
	_, exec := start(t)
	c := send(t, exec, "", map[string]any{"message": "hi"})
	big := strings.Repeat("é", 600000) // 1.2 MB of JSON
	if status, body := post(t, exec, "echo_read", "", map[string]any{"sessionId": c.SessionID, "input": map[string]any{"big": big}}); status != 200 {
		t.Fatalf("call: %d %.200s", status, body)
	}
	evs := events(t, exec, "", c.SessionID)
	req, res := evs[5], evs[6]
	call := req.Data["calls"].([]any)[0].(map[string]any)
	if call["input"] != nil || call["inputTruncated"] != true || call["inputBytes"] != float64(1200010) {
		t.Fatalf("input: %v %v %v", call["input"] == nil, call["inputTruncated"], call["inputBytes"])
	}
	text, _ := res.Data["result"].(string)
	if res.Data["resultTruncated"] != true || res.Data["resultBytes"] != float64(1200010) || len(text) > 1<<20 ||
		!strings.HasPrefix(text, `{"big":"éé`) || strings.ContainsRune(text, '\uFFFD') {
		t.Fatalf("result: %d bytes, %v %v %.40q…%q", len(text), res.Data["resultTruncated"], res.Data["resultBytes"], text, text[len(text)-10:])
	}
}

// indexes lists the events' indexes.
func indexes(evs []ev) []int64 {
	out := make([]int64, len(evs))
	for i, e := range evs {
		out[i] = e.Index
	}
	return out
}
