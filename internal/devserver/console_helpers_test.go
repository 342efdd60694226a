package devserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/internal/devserver/devservertest"
)

// ev is one event of a record as a client reads it.
type ev struct {
	Index int64          `json:"index"`
	Type  string         `json:"type"`
	Data  map[string]any `json:"data"`
	At    string         `json:"at"`
}

// str is a data member as a string ("" when absent or not one).
func (e ev) str(key string) string { s, _ := e.Data[key].(string); return s }

// waitBound bounds every wait of these tests; it is a guard against a hang,
// never a measure of speed.
const waitBound = 60 * time.Second

// created is the answer of POST /v1/session.
type created struct {
	SessionID         string `json:"sessionId"`
	ContinuationToken string `json:"continuationToken"`
	TurnID            string `json:"turnId"`
	Queued            bool   `json:"queued"`
}

// send posts body to /v1/session and decodes a 200 answer.
func send(t *testing.T, agentURL, token string, body any) created {
	t.Helper()
	status, out := devservertest.Do(t, http.MethodPost, agentURL+"/v1/session", token, body)
	var c created
	if status != 200 || json.Unmarshal(out, &c) != nil || c.SessionID == "" {
		t.Fatalf("POST /v1/session: %d %s", status, out)
	}
	return c
}

// script starts a session whose message is the lines joined.
func script(t *testing.T, agentURL string, lines ...string) created {
	t.Helper()
	return send(t, agentURL, "", map[string]any{"message": strings.Join(lines, "\n")})
}

// events reads GET /v1/session/{id}/events.
func events(t *testing.T, agentURL, token, id string) []ev {
	t.Helper()
	status, body := devservertest.Do(t, http.MethodGet, agentURL+"/v1/session/"+id+"/events", token, nil)
	var out struct {
		OK     bool `json:"ok"`
		Events []ev `json:"events"`
	}
	if status != 200 || json.Unmarshal(body, &out) != nil || !out.OK {
		t.Fatalf("events: %d %s", status, body)
	}
	return out.Events
}

// types lists the events' types.
func types(evs []ev) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.Type
	}
	return out
}

// stream is an open GET …/stream.
type stream struct {
	t      *testing.T
	resp   *http.Response
	lines  chan string
	cancel context.CancelFunc
}

// openStream opens the session's stream from startIndex.
func openStream(t *testing.T, agentURL, token, id, startIndex string) *stream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	u := agentURL + "/v1/session/" + id + "/stream"
	if startIndex != "" {
		u += "?startIndex=" + startIndex
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatalf("stream: %v", err)
	}
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/x-ndjson" {
		resp.Body.Close()
		cancel()
		t.Fatalf("stream: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	s := &stream{t: t, resp: resp, lines: make(chan string, 1024), cancel: cancel}
	go func() {
		defer close(s.lines)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 8<<20)
		for sc.Scan() {
			if len(sc.Bytes()) > 0 { // an empty line is a heartbeat
				s.lines <- sc.Text()
			}
		}
	}()
	t.Cleanup(s.close)
	return s
}

func (s *stream) close() { s.cancel(); s.resp.Body.Close() }

// next answers the next event of the stream; ok is false at its end.
func (s *stream) next() (e ev, ok bool) {
	s.t.Helper()
	select {
	case l, open := <-s.lines:
		if !open {
			return ev{}, false
		}
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			s.t.Fatalf("stream line is not an event: %v: %s", err, l)
		}
		return e, true
	case <-time.After(waitBound):
		s.t.Fatalf("no event within %s", waitBound)
		return ev{}, false
	}
}

// until reads events until one of type typ (and, when given, whose data
// has key=value) arrives; it answers the events read, that one last.
func (s *stream) until(typ string, kv ...string) []ev {
	s.t.Helper()
	var seen []ev
	for {
		e, ok := s.next()
		if !ok {
			s.t.Fatalf("the stream ended before a %s event; saw %v", typ, types(seen))
		}
		seen = append(seen, e)
		if e.Type == typ && (len(kv) < 2 || e.str(kv[0]) == kv[1]) {
			return seen
		}
	}
}

// waitFor reads the session's record from the start until an event of
// type typ (see until), on a stream of its own.
func waitFor(t *testing.T, agentURL, id, typ string, kv ...string) []ev {
	t.Helper()
	s := openStream(t, agentURL, "", id, "0")
	defer s.close()
	return s.until(typ, kv...)
}

// row is the session's row in GET /v1/sessions.
func row(t *testing.T, agentURL, token, id string) map[string]any {
	t.Helper()
	_, body := devservertest.Do(t, http.MethodGet, agentURL+"/v1/sessions", token, nil)
	var out struct {
		Sessions []map[string]any `json:"sessions"`
	}
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatalf("sessions: %v: %s", err, body)
	}
	for _, r := range out.Sessions {
		if r["sessionId"] == id {
			return r
		}
	}
	t.Fatalf("no row of %s in %s", id, body)
	return nil
}

// interrupt posts …/interrupt and answers "interrupted".
func interrupt(t *testing.T, agentURL, id string) bool {
	t.Helper()
	status, body := devservertest.Do(t, http.MethodPost, agentURL+"/v1/session/"+id+"/interrupt", "", nil)
	var out struct {
		OK          bool `json:"ok"`
		Interrupted bool `json:"interrupted"`
	}
	if status != 200 || json.Unmarshal(body, &out) != nil || !out.OK {
		t.Fatalf("interrupt: %d %s", status, body)
	}
	return out.Interrupted
}

// decide posts a decision on a parked call and answers the status and body.
func decide(t *testing.T, agentURL, token, id, callID string, body any) (int, []byte) {
	t.Helper()
	return devservertest.Do(t, http.MethodPost, agentURL+"/v1/session/"+id+"/approvals/"+callID, token, body)
}
