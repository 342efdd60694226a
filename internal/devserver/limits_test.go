package devserver_test

import (
	"bufio"
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

// TestConnectionsCapped: open connections are capped; one over the cap is
// answered 503 too_many_connections, and a slot frees when a connection
// closes.
func TestConnectionsCapped(t *testing.T) {
	cfg := testConfig()
	cfg.MaxConns = 2
	s := devservertest.Start(t, cfg)
	addr := strings.TrimPrefix(s.URL(), "http://")
	var held []net.Conn
	for range 2 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		// Half a request: the server holds the connection, waiting.
		_, _ = c.Write([]byte("GET /executor/v1/info HTTP/1.1\r\n"))
		held = append(held, c)
	}
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := client.Get(s.AgentURL("executor") + "/v1/info")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 503 || !strings.Contains(string(body), `"error":"too_many_connections"`) {
		t.Fatalf("over the cap: %d %s", resp.StatusCode, body)
	}
	for _, c := range held {
		c.Close()
	}
	// Once the server has seen them close, requests pass again.
	for i := 0; ; i++ {
		resp, err := client.Get(s.AgentURL("executor") + "/v1/info")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				break
			}
		}
		if i == 500 {
			t.Fatalf("the slots never came back: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
