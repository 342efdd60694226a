package devserver_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/internal/devserver"
	"github.com/agsh-dev/agsh/internal/devserver/devservertest"
)

// TestStreamLive: each event reaches an open stream as it happens, one
// line each, while the turn still runs.
func TestStreamLive(t *testing.T) {
	t.Parallel()
	_, exec := start(t)
	c := script(t, exec, "say one", "sleep 10m")
	s := openStream(t, exec, "", c.SessionID, "")
	if got := types(s.until("message.completed")); strings.Join(got, " ") != "turn.started message.completed" {
		t.Fatalf("replay: %v", got)
	}
	// The turn sleeps: a direct call's events arrive one by one.
	post(t, exec, "echo_read", "", map[string]any{"sessionId": c.SessionID})
	if got := types(s.until("turn.completed")); strings.Join(got, " ") != "turn.started actions.requested action.result turn.completed" {
		t.Fatalf("live: %v", got)
	}
	interrupt(t, exec, c.SessionID)
	if e := s.until("session.waiting"); e[0].Type != "turn.failed" {
		t.Fatalf("end: %v", types(e))
	}
}

// TestStreamNotCutByRequestDeadlines: a stream outlives the body stall
// bound and the header deadline that cover ordinary requests.
func TestStreamNotCutByRequestDeadlines(t *testing.T) {
	t.Parallel()
	cfg := testConfig()
	cfg.BodyStallTimeout = 20 * time.Millisecond
	exec := devservertest.Start(t, cfg).AgentURL("executor")
	c := send(t, exec, "", map[string]any{"message": "hi"})
	s := openStream(t, exec, "", c.SessionID, "4")
	time.Sleep(200 * time.Millisecond) // ten stall bounds
	post(t, exec, "echo_read", "", map[string]any{"sessionId": c.SessionID})
	if e, ok := s.next(); !ok || e.Index != 4 {
		t.Fatalf("after a while: %+v %v", e, ok)
	}
}

func TestStreamCaps(t *testing.T) {
	t.Parallel()
	cfg := testConfig()
	cfg.BearerTokens = []string{"alice", "bob", "carol"}
	cfg.MaxStreamsPerPrincipal = 2
	cfg.MaxStreams = 3
	exec := devservertest.Start(t, cfg).AgentURL("executor")
	ids := map[string]string{}
	for _, p := range cfg.BearerTokens {
		ids[p] = send(t, exec, p, map[string]any{"message": "hi"}).SessionID
	}
	a1 := openStream(t, exec, "alice", ids["alice"], "")
	openStream(t, exec, "alice", ids["alice"], "")
	status, body := devservertest.Do(t, http.MethodGet, exec+"/v1/session/"+ids["alice"]+"/stream", "alice", nil)
	expectError(t, status, body, 429, "too_many_streams", "this principal has 2 session streams open, the most allowed; close one first")
	openStream(t, exec, "bob", ids["bob"], "")
	status, body = devservertest.Do(t, http.MethodGet, exec+"/v1/session/"+ids["carol"]+"/stream", "carol", nil)
	expectError(t, status, body, 429, "too_many_streams", "the server has 3 session streams open, the most allowed; retry later")
	// A client that goes away gives its slot back (once the server sees it).
	a1.close()
	deadline := time.Now().Add(waitBound)
	for {
		status, _ := headStream(t, exec, "carol", ids["carol"])
		if status == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the slot of a closed stream was not given back")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestStreamIdleNotRead: an idle stream writes heartbeats (empty lines),
// so a client that reads nothing loses its stream, and the slot, though
// the session does nothing; a client that reads keeps its stream and sees
// the next event.
func TestStreamIdleNotRead(t *testing.T) {
	t.Parallel()
	cfg := testConfig()
	cfg.MaxStreamsPerPrincipal = 2
	devserver.SetStreamTiming(&cfg, 300*time.Millisecond, 5*time.Millisecond, 4096)
	srv := devservertest.Start(t, cfg)
	exec := srv.AgentURL("executor")
	c := send(t, exec, "", map[string]any{"message": "hi"})
	reader := openStream(t, exec, "", c.SessionID, "")
	reader.until("session.waiting")

	// A client that reads the status line, then nothing, with the
	// system's ordinary receive buffer: the heartbeats fill it.
	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Write([]byte("GET /executor/v1/session/" + c.SessionID + "/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	if status, err := bufio.NewReaderSize(conn, 16).ReadString('\n'); err != nil || !strings.HasPrefix(status, "HTTP/1.1 200") {
		t.Fatalf("status line %q: %v", status, err)
	}
	if status, _ := headStream(t, exec, "", c.SessionID); status != 429 {
		t.Fatalf("with both streams open, a third: %d, want 429", status)
	}
	begin := time.Now()
	deadline := begin.Add(waitBound)
	for {
		if status, _ := headStream(t, exec, "", c.SessionID); status == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("an idle stream whose client reads nothing keeps its slot")
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("the stream nobody reads ended after %s", time.Since(begin).Round(time.Millisecond))

	// The reader's stream goes on.
	post(t, exec, "echo_read", "", map[string]any{"sessionId": c.SessionID})
	if got := types(reader.until("turn.completed")); strings.Join(got, " ") != "turn.started actions.requested action.result turn.completed" {
		t.Fatalf("the reader's stream after the other ended: %v", got)
	}
}

// headStream asks for a stream with HEAD: the headers, no stream.
func headStream(t *testing.T, exec, token, id string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodHead, exec+"/v1/session/"+id+"/stream", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Content-Type")
}

// TestShutdownWithOpenStreams: Close ends the running turns (each records
// turn.failed, and the streams write it) and the streams, and returns.
func TestShutdownWithOpenStreams(t *testing.T) {
	t.Parallel()
	srv := devservertest.Start(t, testConfig())
	exec := srv.AgentURL("executor")
	running := script(t, exec, "sleep 10m")
	queued := send(t, exec, "", map[string]any{"message": "say later", "continuationToken": running.ContinuationToken})
	waiting := send(t, exec, "", map[string]any{"message": "hi"})
	var streams []*stream
	for range 3 {
		streams = append(streams, openStream(t, exec, "", running.SessionID, "0"))
	}
	idle := openStream(t, exec, "", waiting.SessionID, "0")
	for _, s := range streams {
		s.until("turn.queued")
	}
	idle.until("session.waiting")
	closed := make(chan error, 1)
	begin := time.Now()
	go func() { closed <- srv.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatalf("close: %v", err)
		}
	case <-time.After(waitBound):
		t.Fatal("Close hangs on open streams")
	}
	t.Logf("Close with 4 open streams and a running turn: %s", time.Since(begin))
	for _, s := range streams {
		evs := s.until("turn.failed", "turnId", queued.TurnID)
		first := evs[0]
		if first.Type != "turn.failed" || first.str("turnId") != running.TurnID || first.str("reason") != "interrupted" ||
			first.str("message") != "the development deployment stopped" || len(evs) != 2 {
			t.Fatalf("end of the turns: %+v", evs)
		}
		if e, _ := s.next(); e.Type != "session.waiting" {
			t.Fatalf("after the turns: %+v", e)
		}
		if e, ok := s.next(); ok {
			t.Fatalf("the stream goes on after Close: %+v", e)
		}
	}
	if e, ok := idle.next(); ok {
		t.Fatalf("the idle stream goes on after Close: %+v", e)
	}
}

// TestStreamSlowReader: a client that reads nothing does not hold Close:
// a stream stuck writing to it gets a short last deadline.
func TestStreamSlowReader(t *testing.T) {
	t.Parallel()
	srv := devservertest.Start(t, testConfig())
	exec := srv.AgentURL("executor")
	c := send(t, exec, "", map[string]any{"message": "hi"})
	// Far more than the socket buffers hold.
	devserver.AppendEvents(srv, "executor", c.SessionID, 20000, strings.Repeat("x", 1000))
	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Write([]byte("GET /executor/v1/session/" + c.SessionID + "/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	status, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil || !strings.HasPrefix(status, "HTTP/1.1 200") {
		t.Fatalf("status line %q: %v", status, err)
	}
	time.Sleep(50 * time.Millisecond) // let the server fill the buffers
	closed := make(chan error, 1)
	begin := time.Now()
	go func() { closed <- srv.Close() }()
	select {
	case <-closed:
		t.Logf("Close with a stream nobody reads: %s", time.Since(begin))
	case <-time.After(waitBound):
		t.Fatal("Close hangs on a stream that is not read")
	}
}

// TestTurnAfterClose: a script sent once Close began does not start work
// Close no longer waits for: its turn is recorded as interrupted.
func TestTurnAfterClose(t *testing.T) {
	t.Parallel()
	srv := devservertest.Start(t, testConfig())
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	do := func(method, path, body string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, "http://127.0.0.1"+path, strings.NewReader(body))
		req.RemoteAddr = "127.0.0.1:5555"
		rec := httptest.NewRecorder()
		srv.Handler().ServeHTTP(rec, req)
		return rec
	}
	rec := do(http.MethodPost, "/executor/v1/session", `{"message":"sleep 10m"}`)
	id := jsonField(t, rec.Body.Bytes(), "sessionId")
	if rec.Code != 200 || id == "" {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	rec = do(http.MethodGet, "/executor/v1/session/"+id+"/events", "")
	if !strings.Contains(rec.Body.String(), `"type":"turn.failed","data":{"turnId":`) ||
		!strings.Contains(rec.Body.String(), `"reason":"interrupted","message":"the development deployment stopped"`) {
		t.Fatalf("events: %s", rec.Body)
	}
	// A stream of a stopped server replays and ends.
	rec = do(http.MethodGet, "/executor/v1/session/"+id+"/stream", "")
	if rec.Code != 200 || strings.Count(rec.Body.String(), "\n") != 3 {
		t.Fatalf("stream: %d %q", rec.Code, rec.Body)
	}
}

// TestStreamFaults: faults apply to the record routes like to any other;
// a truncated stream is the replay cut short.
func TestStreamFaults(t *testing.T) {
	t.Parallel()
	_, exec := start(t)
	c := send(t, exec, "", map[string]any{"message": "hi"})
	devservertest.ArmFault(t, exec, "", devservertest.Fault{Route: "GET /v1/session/" + c.SessionID + "/stream", Truncate: true})
	resp, err := http.Get(exec + "/v1/session/" + c.SessionID + "/stream")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err == nil || len(body) == 0 || strings.Count(string(body), "\n") >= 4 {
		t.Fatalf("truncated stream: %v %q", err, body)
	}
	devservertest.ArmFault(t, exec, "", devservertest.Fault{Route: "GET /v1/session/" + c.SessionID + "/events", Status: 503})
	status, out := devservertest.Do(t, http.MethodGet, exec+"/v1/session/"+c.SessionID+"/events", "", nil)
	expectError(t, status, out, 503, "injected_fault", "")
	// And the stream works again.
	if e, _ := openStream(t, exec, "", c.SessionID, "").next(); e.Index != 0 {
		t.Fatalf("after the faults: %+v", e)
	}
}
