package devserver_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/internal/devserver/devservertest"
)

// TestStalledBodyTimesOut: a request body that stops arriving is answered 408
// after the stall timeout, not waited for forever.
func TestStalledBodyTimesOut(t *testing.T) {
	cfg := testConfig()
	cfg.BodyStallTimeout = 200 * time.Millisecond
	s := devservertest.Start(t, cfg)
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.URL(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// A generous bound so that a server that waits forever fails the test
	// instead of hanging it.
	_ = conn.SetDeadline(time.Now().Add(time.Minute))
	_, _ = conn.Write([]byte("POST /executor/v1/tools/echo_read HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
		"Content-Length: 100\r\n\r\n{\"input\":"))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to a stalled body: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 408 || !strings.Contains(string(body), `"error":"request_timeout"`) {
		t.Fatalf("got %d %s", resp.StatusCode, body)
	}

	// A request refused before its body is read (415) is not held by the
	// rest of a stalled body either.
	conn2, err := net.Dial("tcp", strings.TrimPrefix(s.URL(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn2.Close()
	_ = conn2.SetDeadline(time.Now().Add(time.Minute))
	_, _ = conn2.Write([]byte("POST /executor/v1/tools/echo_read HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n" +
		"Content-Length: 100\r\n\r\nabc"))
	resp, err = http.ReadResponse(bufio.NewReader(conn2), nil)
	if err != nil || resp.StatusCode != 415 {
		t.Fatalf("refused request with a stalled body: %v %v", err, resp)
	}
}

// A slow body that keeps arriving is not cut.
func TestSlowBodyKeepsGoing(t *testing.T) {
	cfg := testConfig()
	cfg.BodyStallTimeout = 2 * time.Second
	s := devservertest.Start(t, cfg)
	pr, pw := io.Pipe()
	go func() {
		for _, part := range []string{`{"input":`, `{"slow":`, `true}}`} {
			_, _ = pw.Write([]byte(part))
			time.Sleep(50 * time.Millisecond)
		}
		pw.Close()
	}()
	req, _ := http.NewRequest(http.MethodPost, s.AgentURL("executor")+"/v1/tools/echo_read", pr)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `{"slow":true}`) {
		t.Fatalf("got %d %s", resp.StatusCode, body)
	}
}

// The slow-loris attack at a smaller size: every slot held by a
// connection that sent its headers and trickles its body. Ordinary
// requests still get in (each takes the slot of the connection that waited
// longest), so none is refused.
func TestSlowLorisCannotTakeEverySlot(t *testing.T) {
	cfg := testConfig()
	cfg.MaxConns = 8
	s := devservertest.Start(t, cfg)
	addr := strings.TrimPrefix(s.URL(), "http://")
	for range 8 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_, _ = c.Write([]byte("POST /executor/v1/tools/echo_read HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
			"Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"))
	}
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	for i := range 3 {
		resp, err := client.Get(s.AgentURL("executor") + "/v1/info")
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("request %d: %d", i, resp.StatusCode)
		}
	}
}

// A body that keeps arriving, but too slowly to be whole within its
// deadline, is answered 408 (the deadline covers the whole body, not only
// the pauses).
func TestTricklingBodyTimesOut(t *testing.T) {
	cfg := testConfig()
	cfg.BodyTimeout = 300 * time.Millisecond
	s := devservertest.Start(t, cfg)
	pr, pw := io.Pipe()
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		defer pw.Close()
		_, _ = pw.Write([]byte(`{"input":{"pad":"`))
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
				if _, err := pw.Write([]byte("x")); err != nil {
					return
				}
			}
		}
	}()
	req, _ := http.NewRequest(http.MethodPost, s.AgentURL("executor")+"/v1/tools/echo_read", pr)
	req.Header.Set("Content-Type", "application/json")
	req.ContentLength = 1 << 20
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 408 || !strings.Contains(string(body), `"error":"request_timeout"`) ||
		!strings.Contains(string(body), "arrived too slowly") {
		t.Fatalf("got %d %s", resp.StatusCode, body)
	}
}

// A session stream is being answered: however many connections wait for
// their requests, its slot is not taken, and it goes on delivering events.
func TestStreamKeepsItsSlot(t *testing.T) {
	cfg := testConfig()
	cfg.MaxConns = 8
	s := devservertest.Start(t, cfg)
	exec := s.AgentURL("executor")
	id, tok := devservertest.NewSession(t, exec, "", "hello")
	st := openStream(t, exec, "", id, "")
	for range 4 { // turn.started, message.completed, turn.completed, session.waiting
		st.next()
	}
	addr := strings.TrimPrefix(s.URL(), "http://")
	for range 20 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_, _ = c.Write([]byte("GET /executor/v1/info HTTP/1.1\r\n"))
	}
	status, body := devservertest.Do(t, http.MethodPost, exec+"/v1/session", "", fmt.Sprintf(`{"message":"again","continuationToken":%q}`, tok))
	if status != 200 {
		t.Fatalf("follow-up: %d %s", status, body)
	}
	if e, ok := st.next(); !ok || e.Type != "turn.started" {
		t.Fatalf("the stream after the flood: %+v %v", e, ok)
	}
}
