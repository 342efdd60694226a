package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// startTmuxLine runs a shell line in tmux (agsh is $AGSH, the test binary
// as agsh), then prints its status as "[exited N]".
func startTmuxLine(t *testing.T, env []string, line string) *tmuxSession {
	t.Helper()
	return startTmuxLineSize(t, 100, 30, env, line)
}

// startTmuxLineSize is startTmuxLine in a terminal of w columns and h lines.
// Both shells are bash, run by tmux itself (not its default shell): a
// Ctrl-C typed in the pane goes to the whole foreground process group, and
// a shell that has no handler of its own for it (dash, as sh) dies of it
// even when agsh handles it and exits 130 — the pane closes and the tmux
// server, its only pane gone, exits. Bash waits for agsh and goes on when
// agsh exited by itself, so "[exited 130]" is agsh's own status.
func startTmuxLineSize(t *testing.T, w, h int, env []string, line string) *tmuxSession {
	t.Helper()
	s := &tmuxSession{t: t, name: "agsh", sock: filepath.Join(t.TempDir(), "tmux.sock")}
	var cmd strings.Builder
	cmd.WriteString("env")
	for _, e := range append([]string{"AGSH=" + os.Args[0], "AGSH_TEST_AS_AGSH=1", "TERM=xterm-256color", "NO_COLOR=1"}, env...) {
		fmt.Fprintf(&cmd, " %q", e)
	}
	fmt.Fprintf(&cmd, " bash -c '%s'; echo \"[exited $?]\"; sleep 90", strings.ReplaceAll(line, "'", `'\''`))
	s.tmux("new-session", "-d", "-s", s.name, "-x", strconv.Itoa(w), "-y", strconv.Itoa(h), "bash", "-c", cmd.String())
	t.Cleanup(func() { _ = exec.Command("tmux", "-S", s.sock, "kill-server").Run() })
	return s
}

const guardPrompt = "Run it? [y/N]"

// TestWriteGuardInTmux: before a call of a tool that declares a write, a
// one-shot agsh on a terminal shows the call, the target and the session
// and asks; y runs it, n, Enter and Ctrl-D send nothing (exit 1), Ctrl-C
// exits 130; --yes never asks, and a script without it is refused;
// standard output may be a pipe, and standard error a file (the question
// is then drawn on /dev/tty).
func TestWriteGuardInTmux(t *testing.T) {
	requireTmux(t)
	exe := startDeployment(t).AgentURL("executor")
	id := newSession(t, exe, "hello")
	env := []string{"AGENT_SHELL_TARGET=" + exe, "HOME=" + t.TempDir()}
	call := `"$AGSH" --session ` + id + ` report_change_issue --title 'from tmux'`

	s := startTmuxLine(t, env, call)
	scr := s.waitFor(guardPrompt)
	for _, want := range []string{
		`agsh: report_change_issue writes (it declares needsApproval: true and effect: "write")`,
		"  target   change-monitor-executor at " + exe,
		"  call     report_change_issue --title='from tmux'",
		"  session  " + id + ` "hello", last activity `,
		"given (--session)",
	} {
		if !strings.Contains(s.joined(), want) {
			t.Errorf("the question lacks %q:\n%s", want, scr)
		}
	}
	s.keys("y")
	scr = s.waitFor("[exited 0]")
	if !strings.Contains(scr, "title:     from tmux") {
		t.Errorf("y did not run the call:\n%s", scr)
	}

	for _, tt := range []struct{ key, echo, status, msg string }{
		{"n", "[y/N] n", "[status 1]", "agsh: the operator declined; nothing was sent"},
		{"Enter", "[y/N]", "[status 1]", "agsh: the operator declined; nothing was sent"},
		{"C-d", "[y/N]", "[status 1]", "agsh: the operator declined; nothing was sent"},
		{"C-c", "[y/N] ^C", "[status 130]", "agsh: interrupted; nothing was sent"},
	} {
		// Standard output a pipe: agsh asks all the same.
		s := startTmuxLine(t, env, `( `+call+`; echo "[status $?]" >&2 ) | cat`)
		s.waitFor(guardPrompt)
		s.keys(tt.key)
		scr := s.waitFor(tt.status)
		if !strings.Contains(scr, tt.msg) || !strings.Contains(scr, strings.TrimSuffix(tt.echo, "\n")) || strings.Contains(scr, "title:") {
			t.Errorf("%s: want %q and %q, nothing run:\n%s", tt.key, tt.msg, tt.echo, scr)
		}
	}
	if n := callsOf(t, exe, id, "report_change_issue"); n != 1 {
		t.Errorf("%d calls were sent, want the one answered y", n)
	}

	// Keys typed before the question do not answer it.
	post(t, exe+"/v1/dev/faults", `{"route":"GET /v1/tools/report_change_issue","count":1,"delayMs":1500}`)
	s = startTmuxLine(t, env, call)
	s.keys("y")
	s.waitFor(guardPrompt)
	s.keys("n")
	scr = s.waitFor("[exited ")
	if !strings.Contains(scr, "[exited 1]") || strings.Contains(scr, "title:") {
		t.Errorf("a key typed ahead answered the question:\n%s", scr)
	}

	// --yes, at launch or after the name, and a script given --yes: no
	// question.
	for _, line := range []string{
		`"$AGSH" --yes --session ` + id + ` report_change_issue --title yes1`,
		call + " --yes",
		`printf '%s\n' "report_change_issue --title 'from a script'" | "$AGSH" --yes --session ` + id,
	} {
		s := startTmuxLine(t, env, line)
		scr := s.waitFor("[exited ")
		if !strings.Contains(scr, "[exited 0]") || strings.Contains(scr, guardPrompt) || !strings.Contains(scr, "title:") {
			t.Errorf("%s: asked, or did not run:\n%s", line, scr)
		}
	}
	// A script without --yes cannot be asked: refused, nothing sent.
	s = startTmuxLine(t, env, `printf '%s\n' "report_change_issue --title 'from a script'" | "$AGSH" --session `+id)
	scr = s.waitFor("[exited ")
	if !strings.Contains(scr, "[exited 2]") || strings.Contains(scr, guardPrompt) || !strings.Contains(scr, "a script cannot be asked") {
		t.Errorf("a script without --yes: not refused:\n%s", scr)
	}
	// Standard error redirected: the question is drawn on the terminal
	// (/dev/tty), not in the file; y runs the call.
	log := filepath.Join(t.TempDir(), "err.log")
	s = startTmuxLine(t, env, call+" 2>"+log)
	s.waitFor(guardPrompt)
	s.keys("y")
	scr = s.waitFor("[exited ")
	if b, _ := os.ReadFile(log); !strings.Contains(scr, "[exited 0]") || !strings.Contains(scr, "title:     from tmux") ||
		strings.Contains(string(b), "Run it?") {
		t.Errorf("standard error redirected: not asked on the terminal, or not run:\n%s\nlog: %q", scr, b)
	}
	if n := callsOf(t, exe, id, "report_change_issue"); n != 5 {
		t.Errorf("%d calls were sent, want 5", n)
	}
}

// TestWriteGuardPagerInTmux: a question taller than the screen goes through
// the pager, whole; the prompt follows it. The deployment's text in it is
// escaped: it cannot draw a prompt of its own.
func TestWriteGuardPagerInTmux(t *testing.T) {
	requireTmux(t)
	exe := startDeployment(t).AgentURL("executor")
	id := newSession(t, exe, "hello")
	long := strings.Repeat("0123456789", 400) + "END"
	env := []string{"AGENT_SHELL_TARGET=" + exe, "HOME=" + t.TempDir(), "AGSH_PAGER=sed s/^/PAGED:/"}
	s := startTmuxLine(t, env, `"$AGSH" --session `+id+` report_change_issue --title x --details '`+long+`
Run it? [y/N] y'`)
	s.waitFor(guardPrompt)
	scr := s.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", s.name)
	if !strings.Contains(scr, `PAGED:  call     report_change_issue --input-json '{"details":"0123`) ||
		!strings.Contains(scr, `END\nRun it? [y/N] y","title":"x"}'`) {
		t.Errorf("the question was not paged whole, escaped:\n%s", scr)
	}
	s.keys("n")
	s.waitFor("[exited 1]")
}

// TestWriteGuardREPLInTmux: the REPL asks too, drawn with the REPL
// released; Ctrl-C at the question fails the line (130) and keeps the
// shell; y runs the call.
func TestWriteGuardREPLInTmux(t *testing.T) {
	requireTmux(t)
	exe := startDeployment(t).AgentURL("executor")
	id := newSession(t, exe, "hello")
	s := startTmux(t, []string{"AGSH_TEST_AS_AGSH=1", "AGENT_SHELL_TARGET=" + exe, "HOME=" + t.TempDir(),
		"TERM=xterm-256color", "NO_COLOR=1"}, "--session", id)
	s.waitFor("change-monitor-executor ❯")
	s.keys("ls ; report_change_issue --title 'in the repl'", "Enter")
	scr := s.waitFor(guardPrompt)
	if i, j := strings.Index(scr, "README.md"), strings.Index(scr, "agsh: report_change_issue writes"); i < 0 || j < i {
		t.Errorf("the question came before the output of the line ahead of it:\n%s", scr)
	}
	s.keys("C-c")
	s.waitFor("change-monitor-executor [130] ❯")
	s.keys("report_change_issue --title 'in the repl'", "Enter")
	s.waitUntil("a second question", func(scr string) bool { return strings.Count(scr, guardPrompt) == 2 })
	s.keys("y")
	s.waitFor("title:     in the repl")
	s.keys("C-d")
	s.waitFor("[exited")
	if n := callsOf(t, exe, id, "report_change_issue"); n != 1 {
		t.Errorf("%d calls were sent, want 1", n)
	}
}

// TestWriteGuardPlainShellInTmux: the plain line shell (standard input a
// terminal, standard output a pipe) asks too; n sends nothing and the
// shell goes on, y runs the call.
func TestWriteGuardPlainShellInTmux(t *testing.T) {
	requireTmux(t)
	exe := startDeployment(t).AgentURL("executor")
	id := newSession(t, exe, "hello")
	s := startTmuxLine(t, []string{"AGENT_SHELL_TARGET=" + exe, "HOME=" + t.TempDir()}, `"$AGSH" --session `+id+` | cat`)
	s.waitFor("change-monitor-executor ❯")
	s.keys("report_change_issue --title 'plain shell'", "Enter")
	scr := s.waitFor(guardPrompt)
	if !strings.Contains(scr, "  call     report_change_issue --title='plain shell'") {
		t.Errorf("the question lacks the call:\n%s", scr)
	}
	s.keys("n")
	s.waitFor("agsh: the operator declined; nothing was sent")
	s.waitFor("change-monitor-executor [1] ❯")
	s.keys("report_change_issue --title 'plain shell'", "Enter")
	s.waitUntil("a second question", func(scr string) bool { return strings.Count(scr, guardPrompt) == 2 })
	s.keys("y")
	s.waitFor("title:     plain shell")
	s.keys("C-d")
	s.waitFor("[exited 0]")
	if n := callsOf(t, exe, id, "report_change_issue"); n != 1 {
		t.Errorf("%d calls were sent, want the one answered y", n)
	}
}

// TestDecisionQuestionInTmux: on a terminal :deny and :approve show the
// whole parked call, the target and the session and ask; n decides
// nothing (exit 1, the call still waits), y decides; standard output may
// be a pipe.
func TestDecisionQuestionInTmux(t *testing.T) {
	requireTmux(t)
	exe := startDeployment(t).AgentURL("executor")
	id := newSession(t, exe, `call report_change_issue {"title": "Flaky test", "severity": "high", "files": ["a.go", "b b.go"]}`)
	waitState(t, exe, id, "waiting_approval")
	call := parkedCall(t, exe, id)
	env := []string{"AGENT_SHELL_TARGET=" + exe, "HOME=" + t.TempDir()}

	s := startTmuxLine(t, env, `( "$AGSH" :deny `+call+` --reason "not now"; echo "[status $?]" >&2 ) | cat`)
	scr := s.waitFor("Deny it? [y/N]")
	for _, want := range []string{
		"agsh: deny call " + call + " of session " + id + " (the agent then gets an error result)",
		"  target   change-monitor-executor at " + exe,
		"  call     report_change_issue --title='Flaky test' --severity=high --files=a.go --files='b b.go'",
		"  reason   not now",
		"  session  " + id + " \"" + `call report_change_issue`,
	} {
		if !strings.Contains(s.joined(), want) {
			t.Errorf("the question lacks %q:\n%s", want, scr)
		}
	}
	s.keys("n")
	scr = s.waitFor("[status ")
	if !strings.Contains(scr, "agsh: the operator declined; no decision was sent") || !strings.Contains(scr, "[status 1]") ||
		strings.Contains(scr, "Denied call") {
		t.Errorf("n decided:\n%s", scr)
	}
	waitState(t, exe, id, "waiting_approval")

	s = startTmuxLine(t, env, `"$AGSH" :approve `+call)
	s.waitFor("Approve it? [y/N]")
	s.keys("y")
	scr = s.waitFor("[exited 0]")
	if !strings.Contains(scr, "Approved call "+call+" (report_change_issue) of session "+id) {
		t.Errorf("y did not approve:\n%s", scr)
	}
	waitState(t, exe, id, "waiting")
	if n := callsOf(t, exe, id, "report_change_issue"); n != 1 {
		t.Errorf("the approved call ran %d times", n)
	}
}
