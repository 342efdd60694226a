package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/generated"
)

// consoleTree is the workspace of the console's end-to-end tests.
var consoleTree = map[string]string{
	"README.md":         "# Demo\nTODO: one\n",
	"notes/a file.txt":  "it's \"x\" here\nsecond\nthird\n",
	"notes/other.txt":   "TODO: two\n",
	"src/main.go":       "package main // TODO three\n",
	"src/$weird name.c": "int x;\n",
}

// createSession starts a session with a script and answers its id.
func createSession(t *testing.T, target, script string) string {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"message": script, "title": "console e2e"})
	resp, err := http.Post(target+"/v1/session", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var a struct {
		SessionID string `json:"sessionId"`
	}
	if resp.StatusCode != 200 || json.Unmarshal(b, &a) != nil || a.SessionID == "" {
		t.Fatalf("create: %s %s", resp.Status, b)
	}
	return a.SessionID
}

// waitState polls GET /v1/sessions until the session's status is state
// (a hang detector, not a timing assertion).
func waitState(t *testing.T, target, id, state string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(target + "/v1/sessions")
		if err != nil {
			t.Fatal(err)
		}
		var a struct {
			Sessions []struct {
				SessionID, Status string
				Running           bool
			}
		}
		_ = json.NewDecoder(resp.Body).Decode(&a)
		resp.Body.Close()
		for _, s := range a.Sessions {
			if s.SessionID == id && s.Status == state && (!s.Running || state != "waiting") {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("session %s never reached %s: %+v", id, state, a.Sessions)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// devCall is one call of the deployment's call records.
type devCall struct {
	CallID   string          `json:"callId"`
	ToolName string          `json:"toolName"`
	Input    json.RawMessage `json:"input"`
	TurnID   string          `json:"turnId"`
}

// devCalls reads GET /v1/dev/sessions/{id}/calls.
func devCalls(t *testing.T, host, id string) []devCall {
	t.Helper()
	resp, err := http.Get(host + "/executor/v1/dev/sessions/" + id + "/calls")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var a struct {
		Calls []devCall `json:"calls"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&a); err != nil {
		t.Fatal(err)
	}
	return a.Calls
}

// A session started with a plan of three calls and a message: :trace shows
// them in order with their durations, and :replay of each call, run one-shot
// through sh and in the agsh shell, sends the same input again (JSON-equal,
// read back from the deployment's call records).
func TestConsoleTraceAndReplay(t *testing.T) {
	t.Parallel()
	srv, _ := startRepoDeployment(t, consoleTree)
	target := srv.AgentURL("executor")
	script := strings.Join([]string{
		`call read {"path": "/repo/notes/a file.txt", "limit": 2, "offset": 1}`,
		`call grep {"pattern": "it's \"x\"", "path": "/repo/notes", "-i": true, "output_mode": "content"}`,
		`call glob {"glob_pattern": "*.c", "target_directory": "/repo/src"}`,
		`say Looked at the notes: two TODOs.`,
	}, "\n")
	id := createSession(t, target, script)
	waitState(t, target, id, "waiting")

	out, status := runAgsh(t, target, ":trace", id)
	if status != 0 {
		t.Fatalf(":trace exited %d:\n%s", status, out)
	}
	rows := regexp.MustCompile(`(?m)^\s*(\d+)\s+\d\d:\d\d:\d\d\s+call ok\s+(\d+ms|[\d.]+s)\s+(call_\w+)\s+(\S+)`).FindAllStringSubmatch(out, -1)
	if len(rows) != 3 || rows[0][4] != "read" || rows[1][4] != "grep" || rows[2][4] != "glob" {
		t.Fatalf(":trace shows the calls %q:\n%s", rows, out)
	}
	if !regexp.MustCompile(`(?m)^\s*\d+\s+\S+\s+message\s+Looked at the notes: two TODOs\.$`).MatchString(out) ||
		!strings.Contains(out, "turn done") || strings.Index(out, "turn started") > strings.Index(out, "call ok") {
		t.Errorf(":trace:\n%s", out)
	}
	original := devCalls(t, srv.URL(), id)
	if len(original) != 3 {
		t.Fatalf("the turn recorded %d calls: %+v", len(original), original)
	}

	bin := agshOnPath(t)
	for i, r := range rows {
		callID := r[3]
		line, status := runAgsh(t, target, ":replay", callID[:12], id)
		line = strings.TrimSuffix(line, "\n")
		if status != 0 || strings.Contains(line, "\n") || !strings.HasPrefix(line, r[4]+" ") {
			t.Fatalf(":replay %s: %d %q", callID, status, line)
		}
		if strings.Contains(line, generated.InputJSONOption) {
			t.Errorf(":replay %s wrote --input-json for an input flags carry: %s", callID, line)
		}
		// One-shot, through a POSIX shell.
		sh := exec.Command("sh", "-c", "agsh --session "+id+" "+line+" >/dev/null")
		sh.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "AGENT_SHELL_TARGET="+target, "NO_COLOR=1")
		if b, err := sh.CombinedOutput(); err != nil {
			t.Fatalf("sh -c %q: %v\n%s", line, err, b)
		}
		// In the agsh shell, as a script.
		cmd := agshCommand("--target", target, "--session", id)
		cmd.Stdin = strings.NewReader(line + "\n")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("agsh shell %q: %v\n%s", line, err, b)
		}
		calls := devCalls(t, srv.URL(), id)
		if len(calls) != 3+2*(i+1) {
			t.Fatalf("%d calls recorded after replaying %s", len(calls), callID)
		}
		for _, c := range calls[len(calls)-2:] {
			if c.ToolName != original[i].ToolName || !generated.EqualJSON(c.Input, original[i].Input) {
				t.Errorf("replay of %s (%s) sent %s %s, the model sent %s %s", callID, line, c.ToolName, c.Input,
					original[i].ToolName, original[i].Input)
			}
		}
	}
	t.Logf(":trace\n%s", out)
}

// The console's refusals: a session nobody has, a call not in the record,
// an operand or flag checked before any request, a pasted URL of another
// host (read from the target, a note says so).
func TestConsoleErrors(t *testing.T) {
	t.Parallel()
	srv, _ := startRepoDeployment(t, consoleTree)
	target := srv.AgentURL("executor")
	id := createSession(t, target, "say hello")
	tests := []struct {
		args   []string
		status int
		out    string
	}{
		{[]string{":trace", "ses_0000000000000000"}, 3, "agsh: the deployment does not know session ses_0000000000000000"},
		{[]string{":replay", "call_nope", id}, 3, `agsh: no call "call_nope" in the record of session ` + id + "; :trace lists its calls"},
		{[]string{":trace", "--last", "0"}, 2, `agsh: :trace: --last takes a whole number from 1 to 100000, not "0"`},
		{[]string{":trace", "--lats", "3"}, 2, "agsh: :trace: unknown flag --lats; did you mean --last?"},
		{[]string{":tail", "a", "b"}, 2, "agsh: :tail: unexpected operand \"b\"\nusage: :tail [session] [--follow]"},
		{[]string{":replay"}, 2, "agsh: :replay: missing <callId>\nusage: :replay <callId> [session]"},
		{[]string{":trace", "file:///etc/passwd"}, 2, "agsh: the pasted URL is not an http:// or https:// URL with a host; pass the session id (:sessions lists them)"},
	}
	for _, tt := range tests {
		cmd := agshCommand(append([]string{"--target", target}, tt.args...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		status := 0
		if ee, ok := err.(*exec.ExitError); ok {
			status = ee.ExitCode()
		}
		if status != tt.status || !strings.HasPrefix(stderr.String(), tt.out) {
			t.Errorf("%v: %d\n%s\nwant %d\n%s", tt.args, status, stderr.String(), tt.status, tt.out)
		}
	}
	// A pasted traceUrl of another host: the id is taken, the record read
	// from the target, and the host named in a note.
	cmd := agshCommand("--target", target, ":trace", "https://user:pw@elsewhere.invalid/executor/v1/session/"+id+"/events?token=secret")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), "hello") || !strings.Contains(stderr.String(), "note: the pasted URL names host elsewhere.invalid") ||
		strings.Contains(stderr.String(), "pw") || strings.Contains(stderr.String(), "secret") {
		t.Errorf("pasted URL:\n%s\n%s", stdout.String(), stderr.String())
	}
}

// cutProxy forwards loopback connections to a target and can cut every
// connection open (a dropped stream).
type cutProxy struct {
	ln    net.Listener
	mu    sync.Mutex
	conns []net.Conn
	cuts  int
}

func startCutProxy(t *testing.T, upstream string) *cutProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{ln: ln}
	t.Cleanup(func() { ln.Close(); p.cut() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			u, err := net.Dial("tcp", upstream)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, u)
			p.mu.Unlock()
			go func() { _, _ = io.Copy(u, c); u.Close() }()
			go func() { _, _ = io.Copy(c, u); c.Close() }()
		}
	}()
	return p
}

// cut closes every connection open through the proxy.
func (p *cutProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
	p.cuts++
}

func (p *cutProxy) addr() string { return p.ln.Addr().String() }

// :tail piped: the last events, then the stream; cut mid-turn, it resumes
// from the next index; it ends at the next wait. Nothing twice, nothing lost.
func TestConsoleTailPipedSurvivesACut(t *testing.T) {
	t.Parallel()
	srv, _ := startRepoDeployment(t, consoleTree)
	host := strings.TrimPrefix(srv.URL(), "http://")
	proxy := startCutProxy(t, host)
	target := "http://" + proxy.addr() + "/executor"
	id := createSession(t, srv.AgentURL("executor"), "call ls {\"target_directory\": \"/repo\"}\n"+
		`call report_change_succeeded {"summary": "all good"}`+"\nsay approved and done")
	waitState(t, srv.AgentURL("executor"), id, "waiting_approval")

	// --follow: piped, a tail of a session that waits for an approval
	// would end after its initial events (TestConsoleTailPipedEndsWhenIdle).
	cmd := agshCommand("--target", target, ":tail", id, "--follow")
	var stdout lockedBuf
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(stdout.String(), "APPROVAL?") {
		if time.Now().After(deadline) {
			t.Fatalf("no approval row:\n%s", stdout.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	// The tail waits on the stream (the approval was among the initial
	// events): cut it, then let the turn go on.
	proxy.cut()
	parked := parkedCall(t, srv.AgentURL("executor"), id)
	resp, err := http.Post(srv.AgentURL("executor")+"/v1/session/"+id+"/approvals/"+parked, "application/json",
		strings.NewReader(`{"decision":"approve"}`))
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("approve: %v %v", err, resp)
	}
	resp.Body.Close()
	for !strings.Contains(stdout.String(), "waits for a follow-up") {
		if time.Now().After(deadline) {
			t.Fatalf("no waiting row:\n%s\n%s", stdout.String(), stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	_ = cmd.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
			t.Fatalf(":tail --follow: %v (want exit 130)\n%s", err, stderr.String())
		}
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatalf(":tail never ended:\n%s\n%s", stdout.String(), stderr.String())
	}
	// Each row once, indexes never going back (the calls of one event
	// share its index), none missing.
	seen := map[string]bool{}
	prev := -1
	for _, l := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		f := strings.Fields(l)
		var n int
		if len(f) < 2 {
			continue
		}
		if _, err := fmt.Sscan(f[0], &n); err != nil {
			continue
		}
		if seen[l] || n < prev || n > prev+1 {
			t.Errorf("row twice, out of order or after a gap: %q\n%s", l, stdout.String())
		}
		seen[l], prev = true, n
	}
	out := stdout.String()
	for _, want := range []string{"approved", "call ok", "message", "turn done", "waiting"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q after the cut:\n%s\n%s", want, out, stderr.String())
		}
	}
	if proxy.cuts == 0 {
		t.Fatal("nothing was cut")
	}
	t.Logf(":tail\n%s\nstderr:\n%s", out, stderr.String())
}

// A piped :tail of a session that is not running ends after its initial
// events: waiting for an approval, then waiting for a follow-up.
func TestConsoleTailPipedEndsWhenIdle(t *testing.T) {
	t.Parallel()
	srv, _ := startRepoDeployment(t, consoleTree)
	agent := srv.AgentURL("executor")
	id := createSession(t, agent, `call report_change_succeeded {"summary": "all good"}`+"\nsay done")
	waitState(t, agent, id, "waiting_approval")
	for _, want := range []string{"APPROVAL?", "waits for a follow-up"} {
		cmd := agshCommand("--target", agent, ":tail", id)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil || !strings.Contains(stdout.String(), want) {
				t.Fatalf(":tail: %v, want %q\n%s\n%s", err, want, stdout.String(), stderr.String())
			}
		case <-time.After(60 * time.Second): // a hang detector
			cmd.Process.Kill()
			t.Fatalf(":tail of an idle session never ended:\n%s\n%s", stdout.String(), stderr.String())
		}
		if want == "APPROVAL?" {
			post(t, agent+"/v1/session/"+id+"/approvals/"+parkedCall(t, agent, id), `{"decision":"approve"}`)
			waitState(t, agent, id, "waiting")
		}
	}
}

// parkedCall is the call id of the record's approval.requested.
func parkedCall(t *testing.T, target, id string) string {
	t.Helper()
	resp, err := http.Get(target + "/v1/session/" + id + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	m := regexp.MustCompile(`"type":"approval\.requested","data":\{"callId":"(call_\w+)"`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("no parked call in %s", b)
	}
	return string(m[1])
}

// lockedBuf is a buffer a child process writes while the test reads it.
type lockedBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// In the REPL: :tail shows a turn live while it runs (parked on an
// approval), survives a cut of its connection (every row once), and Ctrl-C
// detaches; :replay puts a call's command line on the editor, and Enter
// runs it.
func TestConsoleInTmux(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	srv, _ := startRepoDeployment(t, consoleTree)
	proxy := startCutProxy(t, strings.TrimPrefix(srv.URL(), "http://"))
	direct := srv.AgentURL("executor")
	id := createSession(t, direct, "call ls {\"target_directory\": \"/repo/notes\"}\n"+
		`call report_change_succeeded {"summary": "it's fine"}`+"\nsay approved and done")
	waitState(t, direct, id, "waiting_approval")
	home := t.TempDir()
	s := startTmux(t, []string{"AGSH_TEST_AS_AGSH=1", "AGENT_SHELL_TARGET=http://" + proxy.addr() + "/executor",
		"HOME=" + home, "XDG_STATE_HOME=" + filepath.Join(home, "state"), "TERM=xterm-256color", "NO_COLOR=1", "TZ=UTC",
		"AGSH_PAGER=less"}, // a live command's output is never held for the pager
		"--session", id)
	s.waitFor("change-monitor-executor ❯")
	s.keys(":tail", "Enter")
	s.waitFor("APPROVAL?")
	proxy.cut()
	resp, err := http.Post(direct+"/v1/session/"+id+"/approvals/"+parkedCall(t, direct, id), "application/json",
		strings.NewReader(`{"decision":"approve"}`))
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("approve: %v %v", err, resp)
	}
	resp.Body.Close()
	scr := s.waitFor("the session waits for a follow-up")
	for _, want := range []string{`approved\s+call_`, `message\s+approved and done`, `turn done`, `APPROVAL\?`} {
		if n := len(regexp.MustCompile(want).FindAllString(scr, -1)); n != 1 {
			t.Errorf("%s shows %d times:\n%s", want, n, scr)
		}
	}
	s.keys("C-c")
	scr = s.waitFor("detached; the agent goes on")
	s.waitUntil("the prompt", atPrompt)

	// :replay of the ls call, by a prefix of its id.
	m := regexp.MustCompile(`(call_\w{7})\w*\s+ls /repo/notes`).FindStringSubmatch(scr)
	if m == nil {
		t.Fatalf("no ls call on the screen:\n%s", scr)
	}
	s.keys("C-l", ":replay "+m[1], "Enter")
	s.waitFor("is on the prompt")
	s.waitFor("❯ ls /repo/notes")
	s.keys("Enter")
	s.waitFor("a file.txt")
	t.Logf("screen:\n%s", s.screen())
}

// The model's input is untrusted: a bidi control (or an '@' string) is never
// written as a flag; the whole input goes to --input-json, escaped, the same
// JSON value. Until this agsh takes --input-json, a note says so.
func TestConsoleReplayHostileInput(t *testing.T) {
	t.Parallel()
	srv, _ := startRepoDeployment(t, consoleTree)
	target := srv.AgentURL("executor")
	id := createSession(t, target, `call report_change_succeeded {"summary": "fine \u202e gnp.exe it's @x"}`)
	waitState(t, target, id, "waiting_approval")
	call := parkedCall(t, target, id)
	cmd := agshCommand("--target", target, ":replay", call)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	want := `report_change_succeeded --input-json '{"summary":"fine \u202e gnp.exe it\u0027s @x"}'` + "\n"
	if stdout.String() != want {
		t.Errorf("stdout %q, want %q", stdout.String(), want)
	}
	if _, ok := generated.LookupGlobal(generated.InputJSONOption); !ok &&
		!strings.Contains(stderr.String(), "this agsh version does not take --input-json yet") {
		t.Errorf("no note on stderr:\n%s", stderr.String())
	}
	// With --output json: the call, its input as recorded, and the line.
	cmd = agshCommand("--target", target, ":replay", call, "--output", "json")
	out, err := cmd.Output()
	var doc struct {
		CallID, Tool, Line string
		Input              json.RawMessage
		InputJSON          bool `json:"inputJson"`
	}
	if err != nil || json.Unmarshal(out, &doc) != nil || doc.CallID != call || !doc.InputJSON || doc.Line+"\n" != want ||
		!generated.EqualJSON(doc.Input, []byte(`{"summary":"fine \u202e gnp.exe it's @x"}`)) {
		t.Errorf("--output json: %v %s", err, out)
	}
}

// One-shot :tail on a terminal: Ctrl-C detaches with exit 130, and the
// agent goes on (its sleeping turn still runs).
func TestConsoleTailDetachOneShotInTmux(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	srv, _ := startRepoDeployment(t, consoleTree)
	exe := srv.AgentURL("executor")
	id := createSession(t, exe, "say thinking\nsleep 10m")
	waitState(t, exe, id, "running")
	// Ctrl-C reaches the pane's shell too: it traps it, so that it lives
	// to echo agsh's status.
	s := startTmuxLine(t, []string{"AGENT_SHELL_TARGET=" + exe, "HOME=" + t.TempDir(), "TZ=UTC"},
		`trap : INT; "$AGSH" :tail `+id+`; echo "[status $?]"`)
	s.waitFor("thinking")
	s.keys("C-c")
	scr := s.waitFor("[status ")
	if !strings.Contains(scr, "agsh: detached; the agent goes on") || !strings.Contains(scr, "[status 130]") {
		t.Errorf("Ctrl-C:\n%s", scr)
	}
	waitState(t, exe, id, "running")
	resp, err := http.Post(exe+"/v1/session/"+id+"/interrupt", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"interrupted":true`) {
		t.Errorf("the turn no longer ran after the detach: %s", b)
	}
}
