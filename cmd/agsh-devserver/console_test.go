package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestHelpDocumentsTheScriptedAgent(t *testing.T) {
	for _, want := range []string{"call TOOL JSON", "say TEXT", "sleep DURATION", "at most 10m", "fail TEXT",
		`"(dev agent) no steps in the message"`, `"mode": "task"`, `"dryRun": true`, `"checkOnly": true`, `"stubbed"`, `"continuationToken"`,
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

// TestHelpExampleCallsTwoTools runs --help's example through sh against
// the server (its address put in): the turn calls two tools, and the
// record then holds a result for each.
func TestHelpExampleCallsTwoTools(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("no curl")
	}
	i := strings.Index(usage, "    curl -s ")
	j := strings.Index(usage, "  then its record")
	k := strings.Index(usage, "/events\n")
	if i < 0 || j < i || k < j {
		t.Fatal("--help has no example of a session and its record")
	}
	create, read := usage[i:j], strings.TrimSpace(usage[j:k+len("/events")])
	read = read[strings.Index(read, "curl"):]
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "README.md"), []byte("# demo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	executor, _ := serveInProcess(t, "--root", root)
	sh := func(line string) []byte {
		t.Helper()
		out, err := exec.Command("sh", "-c", strings.ReplaceAll(line, "http://127.0.0.1:39400/executor", executor)).Output()
		if err != nil {
			t.Fatalf("sh -c %q: %v", line, err)
		}
		return out
	}
	var c struct{ SessionID string }
	if out := sh(create); json.Unmarshal(out, &c) != nil || c.SessionID == "" {
		t.Fatalf("the example's create answered %s", out)
	}
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		out := string(sh(strings.ReplaceAll(read, "/ID/", "/"+c.SessionID+"/")))
		if strings.Contains(out, `"type":"turn.completed"`) {
			if n := strings.Count(out, `"type":"action.result"`); n != 2 || strings.Contains(out, `"isError":true`) {
				t.Fatalf("the example's turn made %d calls (want 2, no error):\n%s", n, out)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the example's turn never completed:\n%s", out)
		}
	}
}
