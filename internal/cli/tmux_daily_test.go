package cli

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

// TestREPLInTmuxCompletionQuotes: Tab keeps the user's open quote and inserts
// words the shell reads back.
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

// TestREPLInTmuxResize: each command renders at the width of the moment; a
// resize in either direction changes the next table and help. The table's
// note goes through the REPL like any output (not on the prompt's row).
func TestREPLInTmuxResize(t *testing.T) {
	s, _ := startDailyTmux(t)
	s.keys("datadog_list_monitors --page-size 2", "Enter")
	scr := s.waitUntil("the table and its note at 100 columns", func(scr string) bool {
		return strings.Contains(scr, "(3 more columns: muted, mutedUntil, updatedAt") && atPrompt(scr)
	})
	if !strings.Contains(scr, "ID       NAME") || strings.Contains(scr, " change-monitor-executor ❯") {
		t.Errorf("the note is not in the command's output (a garbled prompt row):\n%s", scr)
	}
	s.resize(50)
	s.runUntil("datadog_list_monitors --page-size 2", "more columns: type, query, tags")
	checkWidth(t, s.joined(), 50, "the table")
	s.runUntil("help glob", "NOTES")
	checkWidth(t, s.joined(), 50, "help")

	s.resize(160)
	scr = s.runUntil("datadog_list_monitors --page-size 2", "UPDATEDAT")
	for _, l := range strings.Split(scr, "\n") {
		if strings.Contains(l, "more columns") || strings.Contains(l, "❯") && !strings.HasPrefix(l, "change-monitor-executor ❯") {
			t.Errorf("a garbled row after growing the window: %q\n%s", l, scr)
		}
	}
	s.resizeTo(160, 45) // read's page is taller than 30 rows
	scr = s.runUntil("help read", "NOTES")
	if !strings.Contains(scr, "    read [options...] <path>") || widest(scr) <= 80 {
		t.Errorf("help at 160 columns (wrapped at 100):\n%s", scr)
	}
}

// resize sets the window's width (30 rows) and waits until tmux reports
// it; the program's terminal follows a moment later (runUntil).
func (s *tmuxSession) resize(cols int) {
	s.t.Helper()
	s.resizeTo(cols, 30)
}

// resizeTo sets the window's width and height (resize).
func (s *tmuxSession) resizeTo(cols, rows int) {
	s.t.Helper()
	s.tmux("resize-window", "-t", s.name, "-x", fmt.Sprint(cols), "-y", fmt.Sprint(rows))
	deadline := time.Now().Add(tmuxDeadline)
	for strings.TrimSpace(s.tmux("display-message", "-p", "-t", s.name, "#{pane_width}")) != fmt.Sprint(cols) {
		if time.Now().After(deadline) {
			s.t.Fatalf("the pane never became %d columns wide", cols)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// runUntil runs line on a cleared screen until its output shows want, and
// returns the screen once the prompt is back. tmux applies a resize to the
// program's terminal a moment after resize-window returns, so a line run
// before that renders at the old width and is run again. Each attempt
// waits for the cleared screen (the prompt alone) before typing and for
// the next prompt after the output, so one attempt's screen is never read
// as another's (a hang detector, not a timing assertion).
func (s *tmuxSession) runUntil(line, want string) string {
	s.t.Helper()
	deadline := time.Now().Add(tmuxDeadline)
	done := func(scr string) bool { return strings.Count(scr, "❯") >= 2 && atPrompt(scr) }
	for {
		s.keys("C-l")
		s.waitUntil("the cleared screen", func(scr string) bool { return strings.Count(scr, "❯") == 1 && atPrompt(scr) })
		s.keys(line, "Enter")
		scr := s.waitUntil("the output of "+line, func(scr string) bool { return done(scr) || strings.Contains(scr, want) })
		if strings.Contains(scr, want) {
			return s.waitUntil(fmt.Sprintf("%q and the prompt", want), func(scr string) bool {
				return done(scr) && strings.Contains(scr, want)
			})
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("%s never showed %q:\n%s", line, want, scr)
		}
	}
}

// checkWidth fails when a line of the screen (wrapped lines joined), other
// than the prompt's and the notes the terminal may wrap, is wider than cols.
func checkWidth(t *testing.T, joined string, cols int, what string) {
	t.Helper()
	for _, l := range strings.Split(joined, "\n") {
		l = strings.TrimRight(l, " ")
		if strings.Contains(l, "❯") || strings.Contains(l, "more columns") || strings.HasPrefix(l, "next page:") {
			continue
		}
		if n := len([]rune(l)); n > cols {
			t.Errorf("%s: a line of %d cells in the %d-column window: %q\n%s", what, n, cols, l, joined)
			return
		}
	}
}

// widest is the longest line of a screen, in runes.
func widest(scr string) int {
	n := 0
	for _, l := range strings.Split(scr, "\n") {
		n = max(n, len([]rune(strings.TrimRight(l, " "))))
	}
	return n
}

// TestREPLInTmuxMetaAndStatus: the meta commands complete and run in the
// REPL, and the prompt shows the last non-zero status.
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
	scr = s.waitUntil(":help and the prompt after it", func(scr string) bool {
		return strings.Contains(scr, "Pipelines: a | b") && atPrompt(scr) && !strings.HasSuffix(strings.TrimRight(scr, "\n "), "[1] ❯")
	})
	if !strings.HasSuffix(strings.TrimRight(scr, "\n "), "change-monitor-executor ❯") {
		t.Errorf("the prompt after a success shows a status:\n%s", scr)
	}
}

// TestREPLInTmuxPager: in the REPL, with AGSH_PAGER set, a line's output
// taller than the screen goes through it once the line has run; short output
// does not. The pager writes to the terminal itself (through a pipe, less
// prints everything as cat does), so what it is given is masked of the
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

// TestREPLInTmuxLightBackground: in the REPL, without COLORFGBG, the first
// highlighted output asks the terminal for its background (tmux answers OSC
// 11 from the pane's style) with the REPL's hold on the terminal released, so
// the light style is used and the answer is not typed into the next line.
func TestREPLInTmuxLightBackground(t *testing.T) {
	tree := map[string]string{"main.go": "package main\n\n// main prints.\nfunc main() {\n\tprintln(\"hi\")\n}\n"}
	s, _ := startDailyTmuxOver(t, tree, "NO_COLOR=", "COLORFGBG=")
	s.tmux("set-option", "-t", s.name, "window-style", "bg=#ffffff")
	s.keys("read /repo/main.go", "Enter")
	s.waitUntil("the file and the prompt after it", func(scr string) bool {
		return strings.Contains(scr, "println") && strings.Count(scr, "❯") >= 2 && atPrompt(scr)
	})
	colored := s.tmux("capture-pane", "-p", "-e", "-t", s.name)
	if !strings.Contains(colored, "38;5;") || nearWhiteFG.MatchString(colored) {
		t.Errorf("want the light style (no near-white text) on a white background:\n%q", colored)
	}
	s.keys("ls /repo", "Enter")
	scr := s.waitUntil("ls and the prompt after it", func(scr string) bool { return strings.Count(scr, "❯") >= 3 && atPrompt(scr) })
	if !strings.Contains(scr, "change-monitor-executor ❯ ls /repo\nmain.go\n") {
		t.Errorf("the terminal's answer was read as typed keys:\n%s", scr)
	}
}
