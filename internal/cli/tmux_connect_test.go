package cli

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The REPL says "connecting to <target>…" while the first answers are slow,
// and Ctrl-C there ends agsh with status 130, the line erased.
func TestREPLInTmuxConnectingInterrupt(t *testing.T) {
	requireTmux(t)
	srv, _ := startRepoDeployment(t, quoteTree)
	target := srv.AgentURL("executor")
	post(t, target+"/v1/dev/faults", `{"route":"GET /v1/tools","count":1,"delayMs":60000}`)
	home := t.TempDir()
	s := startTmux(t, []string{"AGSH_TEST_AS_AGSH=1", "AGENT_SHELL_TARGET=" + target, "HOME=" + home,
		"XDG_STATE_HOME=" + filepath.Join(home, "state"), "TERM=xterm-256color", "NO_COLOR=1"})
	s.waitFor("connecting to " + target + "…")
	s.keys("C-c")
	scr := s.waitFor("[exited 130]")
	if strings.Contains(scr, "connecting to") || !strings.Contains(scr, "agsh: interrupted") {
		t.Errorf("after Ctrl-C while connecting:\n%s", scr)
	}
}

// The session line after a command that made a call, not after help or a
// usage error (one-shot, in a real terminal: the pager holds standard error
// and writes it after); read -n and read PATH:N on the screen.
func TestOneShotInTmuxSessionLineAndLineNumbers(t *testing.T) {
	requireTmux(t)
	srv, _ := startRepoDeployment(t, map[string]string{"notes.txt": "one\ntwo\nthree\nfour\n"})
	target := srv.AgentURL("executor")
	home := t.TempDir()
	env := []string{"AGSH_TEST_AS_AGSH=1", "AGENT_SHELL_TARGET=" + target, "HOME=" + home, "TERM=xterm-256color",
		"NO_COLOR=1", "AGSH_PAGER="}
	run := func(args ...string) string {
		t.Helper()
		s := startTmux(t, env, args...)
		return s.waitFor("[exited")
	}
	scr := run("read", "-n", "/repo/notes.txt")
	if !strings.Contains(scr, "     1  one") ||
		!strings.Contains(scr, "→ no session (ephemeral workspace)") {
		t.Errorf("read -n:\n%s", scr)
	}
	scr = run("read", "/repo/notes.txt:3")
	if !strings.Contains(scr, "     3") || !strings.Contains(scr, "three") || strings.Contains(scr, "two") {
		t.Errorf("read PATH:N:\n%s", scr)
	}
	// A table at the terminal's 100 columns: the subject (the name column)
	// shown, the sha shortened as git does while the table does not fit.
	scr = run("list_changes")
	if !regexp.MustCompile(`(?m)^SHA +AUTHOR +DATE +SUBJECT`).MatchString(scr) ||
		!regexp.MustCompile(`(?m)^[0-9a-f]{12}  `).MatchString(scr) {
		t.Errorf("list_changes at 100 columns:\n%s", scr)
	}
	for _, args := range [][]string{{"help"}, {"read", "--help"}, {"read", "--bogus", "x"}} {
		if scr := run(args...); strings.Contains(scr, "→ ") {
			t.Errorf("agsh %v printed a session line:\n%s", args, scr)
		}
	}
}

// AGSH_DEBUG=api in the REPL: a command's requests are logged in its output,
// above the prompt; a Tab's never (nothing prints over the prompt).
func TestREPLInTmuxDebugIgnoresCompletion(t *testing.T) {
	s, _ := startDailyTmux(t, "AGSH_DEBUG=api") // the launch's requests are logged before the prompt
	s.keys("C-l")
	s.waitUntil("the cleared screen", func(scr string) bool { return strings.Count(scr, "❯") == 1 && atPrompt(scr) })
	s.keys(`read "my d`, "Tab")
	scr := s.waitFor(`read "my dir/`)
	if strings.Contains(scr, "agsh: api:") {
		t.Errorf("a Tab logged its requests:\n%s", scr)
	}
	s.keys("C-u", "ls /repo", "Enter")
	scr = s.waitUntil("the logged call and the prompt", func(scr string) bool {
		return strings.Contains(scr, "> POST ") && atPrompt(scr)
	})
	if !strings.Contains(scr, "/v1/tools/ls") {
		t.Errorf("the call's request is not in its output:\n%s", scr)
	}
}
