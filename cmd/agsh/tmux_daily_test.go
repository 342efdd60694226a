package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// startDailyTmux runs the REPL in tmux against a deployment over quoteTree.
func startDailyTmux(t *testing.T, env ...string) (*tmuxSession, string) {
	t.Helper()
	requireTmux(t)
	srv, _ := startRepoDeployment(t, quoteTree)
	target := srv.AgentURL("executor")
	home := t.TempDir()
	env = append([]string{"AGSH_TEST_AS_AGSH=1", "AGENT_SHELL_TARGET=" + target, "HOME=" + home,
		"XDG_STATE_HOME=" + filepath.Join(home, "state"), "TERM=xterm-256color", "NO_COLOR=1"}, env...)
	s := startTmux(t, env)
	s.waitFor("change-monitor-executor ❯")
	return s, target
}

// Item 3 of the daily-use issue: Tab keeps the user's open quote and
// inserts words the shell reads back.
func TestREPLInTmuxCompletionQuotes(t *testing.T) {
	s, _ := startDailyTmux(t)
	s.keys(`read "my d`, "Tab")
	s.waitFor(`read "my dir/`)
	s.keys("f", "Tab")
	s.waitFor(`read "my dir/file one.txt"`)
	s.keys("Enter")
	s.waitFor("first file")

	s.keys("read pl", "Tab")
	s.waitFor("read plain/")
	s.keys("C-u", "read my", "Tab")
	s.waitFor(`read my\ dir/`)
	s.keys("it", "Tab")
	scr := s.waitFor(`read my\ dir/it\'s.txt`)
	s.keys("Enter")
	scr = s.waitFor("quoted")
	if strings.Contains(scr, "No such file") {
		t.Errorf("the completed word did not read back:\n%s", scr)
	}
}
