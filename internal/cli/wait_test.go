package cli

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// waitCase is one run of :wait (or :sessions --watch) and what it must do.
type waitCase struct {
	name   string
	args   []string
	exit   int
	stdout *regexp.Regexp // nil: anything
	stderr string         // a part of it ("": anything)
}

func runWaitCase(t *testing.T, exe string, c waitCase) {
	t.Helper()
	cmd := agshCommand(append([]string{"--target", exe}, c.args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	_ = cmd.Run()
	if got := cmd.ProcessState.ExitCode(); got != c.exit {
		t.Errorf("%s: agsh %s: exit %d, want %d\n%s%s", c.name, strings.Join(c.args, " "), got, c.exit, out.String(), errb.String())
		return
	}
	if c.stdout != nil && !c.stdout.MatchString(out.String()) {
		t.Errorf("%s: standard output %q, want %s", c.name, out.String(), c.stdout)
	}
	if c.stderr != "" && !strings.Contains(errb.String(), c.stderr) {
		t.Errorf("%s: standard error %q lacks %q", c.name, errb.String(), c.stderr)
	}
}

// TestWaitExitStatuses: :wait, piped, exits 0 when the session reaches
// the state (already, or by an event of the live stream), 1 when it reached
// one that cannot lead there, 5 at --timeout (given after the command, as
// its own) and when the deployment is lost, 2 for a usage error; with
// --output json the outcome goes to standard output whatever the status.
// :sessions --watch's usage errors exit 2 too.
func TestWaitExitStatuses(t *testing.T) {
	t.Parallel()
	exe := startDeployment(t).AgentURL("executor")
	idle := createSession(t, exe, "say hi")
	failed := createSession(t, exe, "fail the checks broke")
	sleeping := createSession(t, exe, "sleep 10m")
	waitState(t, exe, idle, "waiting")
	waitState(t, exe, failed, "waiting")
	later := createSession(t, exe, "sleep 3s\nsay later") // ends after the wait has read the record, which runs first

	for _, c := range []waitCase{
		{name: "waiting after an event", args: []string{":wait", later, "--for", "waiting"}, exit: 0,
			stdout: regexp.MustCompile(`^` + later + ` is waiting \(event \d+\)\n$`)},
		{name: "already waiting", args: []string{":wait", idle, "--for", "waiting"}, exit: 0,
			stdout: regexp.MustCompile(`^` + idle + ` is waiting \(already\)\n$`)},
		{name: "failed", args: []string{":wait", failed, "--for", "failed"}, exit: 0},
		{name: "failed, not done", args: []string{":wait", failed, "--for", "done"}, exit: 1,
			stdout: regexp.MustCompile(`^$`), stderr: failed + " is failed; it will not be done without another turn (the checks broke)"},
		{name: "no approval", args: []string{":wait", idle, "--for", "approval"}, exit: 1,
			stderr: "no call waits for approval"},
		{name: "json", args: []string{":wait", failed, "--for", "done", "--output", "json"}, exit: 1,
			stdout: regexp.MustCompile(`^\{"session":"` + failed + `","for":"done","reached":false,"state":"failed",.*"why":"the checks broke"\}\n$`)},
		{name: "timeout", args: []string{":wait", sleeping, "--for", "done", "--timeout", "300ms"}, exit: 5,
			stderr: "timed out after 300ms waiting for " + sleeping + " to be done (it is running)"},
		{name: "timeout before the command", args: []string{"--timeout", "300ms", ":wait", sleeping, "--for", "done"}, exit: 5,
			stderr: "timed out after 300ms"},
		{name: "no --for", args: []string{":wait", idle}, exit: 2, stderr: "missing --for <state>"},
		{name: "bad --for", args: []string{":wait", idle, "--for", "soon"}, exit: 2, stderr: `--for takes done, waiting, approval, failed, not "soon"`},
		{name: "bad --timeout", args: []string{":wait", idle, "--for", "done", "--timeout", "later"}, exit: 2},
		{name: "watch: --interval too short", args: []string{":sessions", "--watch", "--interval", "1ms"}, exit: 2,
			stderr: "--interval takes a duration of at least 100ms"},
		{name: "watch: --interval alone", args: []string{":sessions", "--interval", "1s"}, exit: 2,
			stderr: "--interval is the pause of --watch; add --watch"},
	} {
		runWaitCase(t, exe, c)
	}

	// The deployment lost: every reconnection of the stream fails (exit 5
	// once they all did, about 20 s of backoff).
	post(t, exe+"/v1/dev/faults", `{"route":"GET /v1/session/`+sleeping+`/stream","count":1000,"status":503}`)
	runWaitCase(t, exe, waitCase{name: "lost", args: []string{":wait", sleeping, "--for", "done", "--output", "json"}, exit: 5,
		stdout: regexp.MustCompile(`^$`), stderr: "lost the deployment while waiting for " + sleeping})
	deleteFaults(t, exe)

	// The outcome object decodes.
	cmd := agshCommand("--target", exe, ":wait", idle, "--for", "waiting", "--output", "json")
	out, err := cmd.Output()
	var o struct {
		Session, For, State string
		Reached             bool
		Index               int64
	}
	if err != nil || json.Unmarshal(out, &o) != nil || o.Session != idle || !o.Reached || o.State != "waiting" || o.Index != -1 {
		t.Errorf(":wait --output json: %v %s", err, out)
	}
}

// TestWaitInTmux: :wait on a terminal says what it waits for and exits 0,
// 1, 5 and 2 as piped; Ctrl-C stops waiting with 130. :sessions --watch's
// usage error is 2 there too.
func TestWaitInTmux(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the runs through a real terminal")
	}
	requireTmux(t)
	t.Parallel()
	exe := startDeployment(t).AgentURL("executor")
	idle := createSession(t, exe, "say hi")
	failed := createSession(t, exe, "fail the checks broke")
	sleeping := createSession(t, exe, "sleep 10m")
	waitState(t, exe, idle, "waiting")
	waitState(t, exe, failed, "waiting")
	line := `"$AGSH" :wait ` + idle + ` --for waiting; echo "[reached $?]"; ` +
		`"$AGSH" :wait ` + failed + ` --for done; echo "[not reached $?]"; ` +
		`"$AGSH" :wait ` + sleeping + ` --for done --timeout 300ms; echo "[timeout $?]"; ` +
		`"$AGSH" :wait ` + idle + `; echo "[usage $?]"; ` +
		`"$AGSH" :sessions --watch --interval 1ms; echo "[watch usage $?]"; ` +
		`"$AGSH" :wait ` + sleeping + ` --for done`
	s := startTmuxLine(t, []string{"AGENT_SHELL_TARGET=" + exe, "HOME=" + t.TempDir()}, line)
	s.waitFor("[watch usage 2]")
	// The last :wait's note (the failed and the timed-out ones said it too).
	scr := s.waitUntil("the last wait's note", func(scr string) bool {
		return strings.Count(scr, "to be done (Ctrl-C stops waiting; the agent goes on)") == 3
	})
	for _, want := range []string{
		idle + " is waiting (already)", "[reached 0]",
		"it will not be done without another turn (the checks broke)", "[not reached 1]",
		"timed out after 300ms", "[timeout 5]",
		"missing --for <state>", "[usage 2]",
		"[watch usage 2]",
	} {
		if !strings.Contains(s.joined(), want) {
			t.Errorf("the terminal lacks %q:\n%s", want, scr)
		}
	}
	s.keys("C-c")
	s.waitFor("[exited 130]")
}

// TestWaitApprovalWording: the approval state reads as English in :wait's
// lines ("is asking for approval", "to be asking for approval"), not "is
// approval".
func TestWaitApprovalWording(t *testing.T) {
	t.Parallel()
	exe := startDeployment(t).AgentURL("executor")
	parked := createSession(t, exe, `call report_change_succeeded {"summary": "fine"}`)
	waitState(t, exe, parked, "waiting_approval")
	for _, c := range []waitCase{
		{name: "reached", args: []string{":wait", parked, "--for", "approval"}, exit: 0,
			stdout: regexp.MustCompile(`^` + parked + ` is asking for approval \(already\)\n$`)},
		{name: "timeout", args: []string{":wait", parked, "--for", "done", "--timeout", "300ms"}, exit: 5,
			stderr: "timed out after 300ms waiting for " + parked + " to be done (it is asking for approval)"},
	} {
		runWaitCase(t, exe, c)
	}
}
