package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Every session operand takes a unique prefix of a listed id; an ambiguous
// one is a usage error naming the candidates (exit 2), checked before the
// record is read. :approve and :deny take a prefix of a parked call's id
// and send the whole id.
func TestSessionAndCallPrefixes(t *testing.T) {
	t.Parallel()
	exe := startDeployment(t).AgentURL("executor")
	a := createSession(t, exe, "say one")
	b := createSession(t, exe, `call report_change_succeeded {"summary": "fine"}`)
	waitState(t, exe, b, "waiting_approval")
	run := func(args ...string) (string, string, int) {
		t.Helper()
		cmd := agshCommand(append([]string{"--target", exe}, args...)...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		if err != nil && cmd.ProcessState == nil {
			t.Fatal(err)
		}
		return stdout.String(), stderr.String(), cmd.ProcessState.ExitCode()
	}
	// The shortest prefix that tells a from b, and one that is a's alone.
	n := 4
	for a[:n] == b[:n] {
		n++
	}
	for _, args := range [][]string{{":trace", a[:n+1]}, {":describe", a[:n+1]}, {":tail", a[:n+1]}} {
		out, errOut, status := run(args...)
		if status != 0 || !strings.Contains(out, "say one") && !strings.Contains(out, a) {
			t.Errorf("%v: exit %d\n%s%s", args, status, out, errOut)
		}
	}
	_, errOut, status := run(":trace", "ses_")
	if status != 2 || !strings.Contains(errOut, `session id prefix "ses_" is ambiguous: it begins 2 session ids (`) ||
		!strings.Contains(errOut, a) || !strings.Contains(errOut, b) {
		t.Errorf(":trace ses_: exit %d\n%s", status, errOut)
	}
	call := parkedCall(t, exe, b)
	out, errOut, status := run("--yes", ":approve", call[:9], b[:n+1])
	if status != 0 || !strings.Contains(out, "Approved call "+call+" ") {
		t.Errorf(":approve by prefix: exit %d\n%s%s", status, out, errOut)
	}
	waitState(t, exe, b, "waiting")
	_, errOut, status = run("--yes", ":deny", "call_", b)
	if status != 3 || !strings.Contains(errOut, "call_") {
		t.Errorf(":deny of no parked call: exit %d\n%s", status, errOut)
	}
}

// :sessions' filters against the development deployment: each state, the
// tool a record calls, the title, the time; bad values are usage errors.
func TestSessionsFilters(t *testing.T) {
	t.Parallel()
	exe := startDeployment(t).AgentURL("executor")
	idle := createSession(t, exe, "say hi")
	failed := createSession(t, exe, "fail it broke")
	parked := createSession(t, exe, `call report_change_succeeded {"summary": "fine"}`)
	sleepy := createSession(t, exe, "sleep 10m")
	task := newTaskSession(t, exe, "say done")
	stopped := createSession(t, exe, "sleep 10m")
	waitState(t, exe, parked, "waiting_approval")
	waitState(t, exe, failed, "waiting")
	waitState(t, exe, stopped, "running")
	if out, err := agshCommand("--target", exe, ":stop", stopped).CombinedOutput(); err != nil {
		t.Fatalf(":stop: %v %s", err, out)
	}
	waitState(t, exe, stopped, "waiting")
	list := func(args ...string) []string {
		t.Helper()
		out, err := agshCommand(append([]string{"--target", exe, ":sessions", "--output", "json"}, args...)...).Output()
		if err != nil {
			t.Fatalf(":sessions %v: %v", args, err)
		}
		var rows []struct{ ID, State string }
		if err := json.Unmarshal(out, &rows); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		var got []string
		for _, r := range rows {
			got = append(got, r.ID+"="+r.State)
		}
		return got
	}
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"--state", "failed"}, []string{failed + "=failed"}},
		{[]string{"--state", "stopped"}, []string{stopped + "=stopped"}},
		{[]string{"--state", "approval"}, []string{parked + "=approval"}},
		{[]string{"--state", "running"}, []string{sleepy + "=running"}},
		{[]string{"--state", "done"}, []string{task + "=done"}},
		{[]string{"--state", "waiting"}, []string{idle + "=waiting"}},
		{[]string{"--tool", "report_change_succeeded"}, []string{parked + "=approval"}},
		{[]string{"--title", "CONSOLE E2E", "--state", "waiting"}, []string{idle + "=waiting"}},
		{[]string{"--since", "1ns"}, nil},
	} {
		if got := list(tt.args...); strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf(":sessions %v: %v, want %v", tt.args, got, tt.want)
		}
	}
	if got := list("--since", "1h"); len(got) != 6 {
		t.Errorf("--since 1h: %v", got)
	}
	for _, args := range [][]string{{"--state", "busy"}, {"--since", "-1s"}, {"--since", "soon"}, {"--interval", "1s"},
		{"--watch", "--interval", "1ms"}, {"extra"}} {
		cmd := agshCommand(append([]string{"--target", exe, ":sessions"}, args...)...)
		out, _ := cmd.CombinedOutput()
		if cmd.ProcessState.ExitCode() != 2 {
			t.Errorf(":sessions %v: exit %d\n%s", args, cmd.ProcessState.ExitCode(), out)
		}
	}
	// :describe: text and JSON.
	out, err := agshCommand("--target", exe, ":describe", failed).Output()
	if err != nil || !regexp.MustCompile(`(?m)^state +failed \(chat\)$`).Match(out) ||
		!regexp.MustCompile(`(?m)^  turn_\w+  message +failed +0 calls +it broke$`).Match(out) ||
		!regexp.MustCompile(`(?m)^token +http:\w+ \(the listing's; this run holds none\)$`).Match(out) ||
		!strings.Contains(string(out), "/v1/session/"+failed+"/events") || !regexp.MustCompile(`(?m)^principal +local$`).Match(out) {
		t.Errorf(":describe: %v\n%s", err, out)
	}
	out, err = agshCommand("--target", exe, ":describe", parked, "--output", "json").Output()
	var doc struct {
		Session, State string
		Parked         []struct{ CallID, Tool string }
		Turns          []struct{ Outcome string }
		Token          struct{ Listed *string }
	}
	if err != nil || json.Unmarshal(out, &doc) != nil || doc.Session != parked || doc.State != "approval" ||
		len(doc.Parked) != 1 || doc.Parked[0].Tool != "report_change_succeeded" || len(doc.Turns) != 1 ||
		doc.Turns[0].Outcome != "running" || doc.Token.Listed == nil {
		t.Errorf(":describe --output json: %v %+v\n%s", err, doc, out)
	}
}

func newTaskSession(t *testing.T, exe, message string) string {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"message": message, "mode": "task"})
	resp, err := http.Post(exe+"/v1/session", "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var a struct{ SessionID string }
	if json.Unmarshal(b, &a) != nil || a.SessionID == "" {
		t.Fatalf("task session: %s", b)
	}
	return a.SessionID
}

// :sessions --watch, piped: the table, then one line per change, until
// Ctrl-C (exit 130); NDJSON with --output json; a deployment that fails
// every listing ends it (exit 5), a refused credential at once (exit 4).
func TestSessionsWatchPiped(t *testing.T) {
	t.Parallel()
	exe := startDeployment(t).AgentURL("executor")
	first := createSession(t, exe, "say hi")
	watch := func(args ...string) (*bufio.Reader, func() (string, int)) {
		t.Helper()
		cmd := agshCommand(append([]string{"--target", exe, ":sessions", "--watch", "--interval", "100ms"}, args...)...)
		stdout, _ := cmd.StdoutPipe()
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return bufio.NewReader(stdout), func() (string, int) {
			cmd.Process.Signal(syscall.SIGINT)
			cmd.Wait()
			return stderr.String(), cmd.ProcessState.ExitCode()
		}
	}
	line := func(r *bufio.Reader) string {
		t.Helper()
		done := make(chan string, 1)
		go func() { l, _ := r.ReadString('\n'); done <- l }()
		select {
		case l := <-done:
			return l
		case <-time.After(30 * time.Second): // a hang detector
			t.Fatal("no line from the watch")
		}
		return ""
	}
	r, stop := watch()
	if l := line(r); !strings.HasPrefix(l, "BOUND") {
		t.Fatalf("header %q", l)
	}
	if l := line(r); !strings.Contains(l, first) {
		t.Fatalf("row %q", l)
	}
	second := createSession(t, exe, "sleep 10m")
	if l := line(r); !regexp.MustCompile(`^\d\d:\d\d:\d\d  ` + second + `  running  \(new\)  console e2e\n$`).MatchString(l) {
		t.Errorf("new session's line %q", l)
	}
	agshCommand("--target", exe, ":stop", second).Run()
	if l := line(r); !regexp.MustCompile(`^\d\d:\d\d:\d\d  ` + second + `  waiting  \(was running\)  console e2e\n$`).MatchString(l) {
		t.Errorf("stopped session's line %q", l)
	}
	if errOut, status := stop(); status != 130 || !strings.Contains(errOut, "stopped watching") {
		t.Errorf("Ctrl-C: exit %d\n%s", status, errOut)
	}

	r, stop = watch("--output", "json")
	seen := map[string]bool{}
	for range 2 {
		var c struct {
			Session, State string
			Was            *string
		}
		if err := json.Unmarshal([]byte(line(r)), &c); err != nil || c.Was != nil {
			t.Fatalf("first objects: %v %+v", err, c)
		}
		seen[c.Session] = true
	}
	third := createSession(t, exe, "say three")
	if l := line(r); l != `{"session":"`+third+`","state":"waiting","was":null}`+"\n" {
		t.Errorf("NDJSON change %q", l)
	}
	if _, status := stop(); status != 130 || !seen[first] || !seen[second] {
		t.Errorf("NDJSON watch: exit %d, first objects %v", status, seen)
	}

	// Every listing fails: given up (exit 5) after 30 in a row.
	post(t, exe+"/v1/dev/faults", `{"route":"GET /v1/sessions","count":100000,"status":500}`)
	cmd := agshCommand("--target", exe, ":sessions", "--watch", "--interval", "100ms")
	out, _ := cmd.CombinedOutput()
	if cmd.ProcessState.ExitCode() != 5 || !strings.Contains(string(out), "unreachable since") {
		t.Errorf("a failing deployment: exit %d\n%s", cmd.ProcessState.ExitCode(), out)
	}
	deleteFaults(t, exe)
	post(t, exe+"/v1/dev/faults", `{"route":"GET /v1/sessions","count":1,"status":401}`)
	cmd = agshCommand("--target", exe, ":sessions", "--watch")
	out, _ = cmd.CombinedOutput()
	if cmd.ProcessState.ExitCode() != 4 {
		t.Errorf("a refused credential: exit %d\n%s", cmd.ProcessState.ExitCode(), out)
	}
}

// :sessions --watch on a terminal: the table again whenever it changes;
// Ctrl-C exits 130; a lost deployment is noted and tried again (the watch
// goes on); a refused credential exits 4.
func TestSessionsWatchInTmux(t *testing.T) {
	requireTmux(t)
	exe := startDeployment(t).AgentURL("executor")
	first := createSession(t, exe, "say hi")
	env := []string{"AGENT_SHELL_TARGET=" + exe, "HOME=" + t.TempDir(), "AGSH_PAGER=less"}
	s := startTmuxLine(t, env, `"$AGSH" :sessions --watch --interval 100ms`)
	s.waitFor(first)
	second := createSession(t, exe, "sleep 10m")
	scr := s.waitFor(second)
	if strings.Count(scr, "BOUND") != 2 {
		t.Errorf("the table was not printed again:\n%s", scr)
	}
	post(t, exe+"/v1/dev/faults", `{"route":"GET /v1/sessions","count":40,"status":500}`)
	s.waitFor("unreachable since")
	deleteFaults(t, exe)
	s.waitFor("the deployment answers again")
	s.keys("C-c")
	s.waitFor("[exited 130]")

	post(t, exe+"/v1/dev/faults", `{"route":"GET /v1/sessions","count":1,"status":403}`)
	s = startTmuxLine(t, env, `"$AGSH" :sessions --watch`)
	s.waitFor("[exited 4]")
}

func deleteFaults(t *testing.T, exe string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodDelete, exe+"/v1/dev/faults", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
}

// TestSessionsQueuedBehindRunning: a follow-up queued behind a running turn
// makes the session queued (the listing's queued: true) in :sessions, its
// --state queued filter and a piped --watch, not running.
func TestSessionsQueuedBehindRunning(t *testing.T) {
	t.Parallel()
	exe := startDeployment(t).AgentURL("executor")
	busy := createSession(t, exe, "sleep 10m")
	waitState(t, exe, busy, "running")
	cmd := agshCommand("--target", exe, ":sessions", "--watch", "--interval", "100ms")
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Signal(syscall.SIGINT); cmd.Wait() }()
	r := bufio.NewReader(stdout)
	lines := make(chan string)
	go func() {
		for {
			l, err := r.ReadString('\n')
			if err != nil {
				close(lines)
				return
			}
			lines <- l
		}
	}()
	for l := range lines {
		if strings.Contains(l, busy) && strings.Contains(l, "running") {
			break
		}
	}
	if out, err := agshCommand("--target", exe, "--session", busy, "--yes", ":say", "say later").CombinedOutput(); err != nil ||
		!strings.Contains(string(out), "queued") {
		t.Fatalf(":say: %v %s", err, out)
	}
	want := regexp.MustCompile(`^\d\d:\d\d:\d\d  ` + busy + `  queued  \(was running\)  console e2e\n$`)
	select {
	case l := <-lines:
		if !want.MatchString(l) {
			t.Errorf("the watch's change %q", l)
		}
	case <-time.After(30 * time.Second): // a hang detector
		t.Fatal("no change from the watch")
	}
	for _, state := range []string{"queued", "running"} {
		out, err := agshCommand("--target", exe, ":sessions", "--output", "json", "--state", state).Output()
		var rows []struct{ ID, State string }
		if err != nil || json.Unmarshal(out, &rows) != nil {
			t.Fatalf("--state %s: %v %s", state, err, out)
		}
		if n := len(rows); state == "queued" && (n != 1 || rows[0].ID != busy || rows[0].State != "queued") || state == "running" && n != 0 {
			t.Errorf("--state %s: %s", state, out)
		}
	}
}
