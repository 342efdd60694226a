package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestHelpDocumentsTheScriptedAgent(t *testing.T) {
	for _, want := range []string{"call TOOL JSON", "say TEXT", "sleep DURATION", "at most 10m", "fail TEXT",
		`"(dev agent) no steps in the message"`, `"mode": "task"`, `"dryRun": true`, `"continuationToken"`,
		"GET  /v1/session/ID/events", "GET  /v1/session/ID/stream?startIndex=N",
		"POST /v1/session/ID/approvals/CALLID", "POST /v1/session/ID/interrupt"} {
		if !strings.Contains(usage, want) {
			t.Errorf("usage misses %q", want)
		}
	}
}

// serveInProcess runs the program with args until the returned stop is
// called; it answers the executor's URL and stop, which returns run's exit
// code.
func serveInProcess(t *testing.T, args ...string) (string, func() int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	var errOut bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, append([]string{"--addr", "127.0.0.1:0"}, args...), noEnv, pw, &errOut)
		pw.Close()
	}()
	executor, _ := readStartup(t, pr)
	stopped := false
	stop := func() int {
		if stopped {
			return 0
		}
		stopped = true
		cancel()
		select {
		case code := <-done:
			return code
		case <-time.After(60 * time.Second):
			t.Fatalf("run did not return after its context ended:\n%s", errOut.String())
			return -1
		}
	}
	t.Cleanup(func() { stop() })
	return executor, stop
}

// TestStopEndsTurnsAndStreams: stopping the server (SIGINT, SIGTERM) ends a
// running turn, which the open stream receives before it ends, and --state
// keeps the record.
func TestStopEndsTurnsAndStreams(t *testing.T) {
	state, root := t.TempDir(), t.TempDir()
	executor, stop := serveInProcess(t, "--root", root, "--state", state)
	resp, err := http.Post(executor+"/v1/session", "application/json", strings.NewReader(`{"message":"say thinking\nsleep 10m"}`))
	if err != nil {
		t.Fatal(err)
	}
	var c struct{ SessionID string }
	_ = json.NewDecoder(resp.Body).Decode(&c)
	resp.Body.Close()
	if c.SessionID == "" {
		t.Fatalf("create: %d", resp.StatusCode)
	}
	sresp, err := http.Get(executor + "/v1/session/" + c.SessionID + "/stream")
	if err != nil {
		t.Fatal(err)
	}
	defer sresp.Body.Close()
	lines := make(chan string, 100)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(sresp.Body)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	var got []string
	for len(got) < 2 {
		got = append(got, <-lines)
	}
	if code := stop(); code != 0 {
		t.Fatalf("exit %d", code)
	}
	for l := range lines {
		got = append(got, l)
	}
	if len(got) != 4 || !strings.Contains(got[2], `"type":"turn.failed","data":{"turnId":`) ||
		!strings.Contains(got[2], `"reason":"interrupted","message":"the development deployment stopped"`) ||
		!strings.Contains(got[3], `"type":"session.waiting"`) {
		t.Fatalf("stream:\n%s", strings.Join(got, "\n"))
	}
	executor, _ = serveInProcess(t, "--root", root, "--state", state)
	eresp, err := http.Get(executor + "/v1/session/" + c.SessionID + "/events")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(eresp.Body)
	eresp.Body.Close()
	for _, l := range got {
		if !strings.Contains(string(body), l) {
			t.Fatalf("the record after a restart lacks %s:\n%s", l, body)
		}
	}
}
