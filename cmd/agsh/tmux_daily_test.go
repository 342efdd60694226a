package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// startDailyTmux runs the REPL in tmux against a deployment over quoteTree.
func startDailyTmux(t *testing.T, env ...string) (*tmuxSession, string) {
	t.Helper()
	return startDailyTmuxOver(t, quoteTree, env...)
}

// startDailyTmuxOver runs the REPL in tmux against a deployment over tree.
func startDailyTmuxOver(t *testing.T, tree map[string]string, env ...string) (*tmuxSession, string) {
	t.Helper()
	requireTmux(t)
	srv, _ := startRepoDeployment(t, tree)
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
	s.waitFor(`read my\ dir/it\'s.txt`)
	s.keys("Enter")
	scr := s.waitFor("quoted")
	if strings.Contains(scr, "No such file") {
		t.Errorf("the completed word did not read back:\n%s", scr)
	}
}

// Item 4: each command renders at the width of the moment; a resize in
// either direction changes the next table and help. The table's note goes
// through the REPL like any output (not on the prompt's row).
func TestREPLInTmuxResize(t *testing.T) {
	s, _ := startDailyTmux(t)
	s.keys("datadog_list_monitors --page-size 2", "Enter")
	s.waitFor("(3 more columns: tags, muted, updatedAt")
	scr := s.waitFor("ID       NAME")
	if strings.Contains(scr, " change-monitor-executor ❯") {
		t.Errorf("the note is not in the command's output (a garbled prompt row):\n%s", scr)
	}
	s.tmux("resize-window", "-t", s.name, "-x", "50", "-y", "30")
	scr = s.runUntil("datadog_list_monitors --page-size 2", "(4 more columns: query, tags")
	for _, l := range strings.Split(scr, "\n") {
		if len([]rune(strings.TrimRight(l, " "))) > 50 {
			t.Errorf("a line wider than the 50-column window:\n%s", scr)
			break
		}
	}
	s.tmux("resize-window", "-t", s.name, "-x", "160", "-y", "30")
	scr = s.runUntil("datadog_list_monitors --page-size 2", "UPDATEDAT")
	for _, l := range strings.Split(scr, "\n") {
		if strings.Contains(l, "more columns") || strings.Contains(l, "❯") && !strings.HasPrefix(l, "change-monitor-executor ❯") {
			t.Errorf("a garbled row after growing the window: %q\n%s", l, scr)
		}
	}
	s.keys("C-l", "help read", "Enter")
	scr = s.waitFor("OPTIONS")
	if !strings.Contains(scr, "    read [options...] <path>") {
		t.Errorf("help at 160 columns:\n%s", scr)
	}
}

// runUntil clears the screen and runs line until its output shows want:
// tmux applies a resize to the terminal a moment after resize-window
// returns, so a line run too early renders at the old width and is run
// again (a hang detector, not a timing assertion).
func (s *tmuxSession) runUntil(line, want string) string {
	s.t.Helper()
	for attempt := 0; ; attempt++ {
		s.keys("C-l", line, "Enter")
		deadline := time.Now().Add(20 * time.Second)
		for {
			scr := s.screen()
			if strings.Contains(scr, want) {
				return scr
			}
			if strings.Count(scr, "❯") >= 2 && attempt < 20 {
				break // done, at the old width: again
			}
			if time.Now().After(deadline) || attempt >= 20 {
				s.t.Fatalf("screen never showed %q:\n%s", want, scr)
			}
			time.Sleep(100 * time.Millisecond)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Item 7: the meta commands complete and run in the REPL, and the prompt
// shows the last non-zero status.
func TestREPLInTmuxMetaAndStatus(t *testing.T) {
	s, target := startDailyTmux(t)
	post(t, target+"/v1/session", `{"message":"hello"}`)
	s.keys(":ses", "Tab")
	s.waitFor("❯ :sessions")
	s.keys("Enter")
	// The shell started before the session existed: it runs unbound.
	scr := s.waitFor("This shell runs unbound")
	if !strings.Contains(scr, "ID                    STATE") || strings.Contains(scr, "*") {
		t.Errorf(":sessions: want the table, nothing marked:\n%s", scr)
	}
	s.keys("read /repo/missing.txt", "Enter")
	s.waitFor("change-monitor-executor [1] ❯")
	s.keys(":help", "Enter")
	scr = s.waitFor("Meta commands")
	if !strings.HasSuffix(strings.TrimRight(scr, "\n "), "change-monitor-executor ❯") {
		t.Errorf("the prompt after a success shows a status:\n%s", scr)
	}
}

// Item 5 in the REPL: with AGSH_PAGER set, a line's output taller than the
// screen goes through it once the line has run; short output does not. The
// pager writes to the terminal itself (through a pipe, less prints
// everything as cat does), so what it is given is masked of the
// credential first.
func TestREPLInTmuxPager(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "fakepager")
	script := "#!/bin/sh\ncat > " + dir + "/paged.txt\nif [ -t 1 ]; then t=tty; else t=pipe; fi\n" +
		"echo \"[pager: $(wc -l < " + dir + "/paged.txt) lines, $t]\"\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	const secret = "s3cr3t-pager-token"
	var long strings.Builder
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&long, "line %d of %s\n", i, secret)
	}
	tree := map[string]string{"long.txt": long.String()}
	s, _ := startDailyTmuxOver(t, tree, "AGSH_PAGER="+fake, "AGENT_SHELL_BEARER_TOKEN="+secret)
	s.keys("datadog_list_monitors --page-size 40", "Enter")
	if scr := s.waitFor("[pager: 42 lines"); !strings.Contains(scr, "[pager: 42 lines, tty]") { // 40 rows, the header and the columns note
		t.Errorf("the pager does not write to the terminal:\n%s", scr)
	}
	s.keys("datadog_list_monitors --page-size 2", "Enter")
	scr := s.waitFor("4101290")
	if strings.Count(scr, "[pager:") != 1 {
		t.Errorf("short output paged:\n%s", scr)
	}
	s.keys("read /repo/long.txt", "Enter")
	s.waitFor("[pager: 40 lines, tty]")
	paged, err := os.ReadFile(filepath.Join(dir, "paged.txt"))
	if err != nil || strings.Contains(string(paged), secret) || !strings.Contains(string(paged), "line 40 of ***") {
		t.Errorf("the pager's input is not masked: %v\n%s", err, paged)
	}
}
