package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tmuxSession drives agsh in a real terminal: tmux runs it, send-keys
// types, capture-pane reads the screen.
type tmuxSession struct {
	t    *testing.T
	name string
	sock string
}

func requireTmux(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is required (CI installs it in .ci/run)")
		}
		t.Skip("tmux not found; the real-terminal REPL test needs it")
	}
}

func startTmux(t *testing.T, env []string, args ...string) *tmuxSession {
	t.Helper()
	s := &tmuxSession{t: t, name: "agsh", sock: filepath.Join(t.TempDir(), "tmux.sock")}
	var cmdline strings.Builder
	cmdline.WriteString("env")
	for _, e := range env {
		fmt.Fprintf(&cmdline, " %q", e)
	}
	fmt.Fprintf(&cmdline, " %q", os.Args[0])
	for _, a := range args {
		fmt.Fprintf(&cmdline, " %q", a)
	}
	cmdline.WriteString("; echo \"[exited $?]\"; sleep 30")
	s.tmux("new-session", "-d", "-s", s.name, "-x", "100", "-y", "30", cmdline.String())
	t.Cleanup(func() { exec.Command("tmux", "-S", s.sock, "kill-server").Run() })
	return s
}

func (s *tmuxSession) tmux(args ...string) string {
	s.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", s.sock}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (s *tmuxSession) keys(keys ...string) {
	s.tmux(append([]string{"send-keys", "-t", s.name}, keys...)...)
}

func (s *tmuxSession) screen() string { return s.tmux("capture-pane", "-p", "-t", s.name) }

// joined is the screen with the lines the terminal wrapped joined again
// (trailing blanks kept), to see how wide the program wrote them.
func (s *tmuxSession) joined() string { return s.tmux("capture-pane", "-p", "-J", "-t", s.name) }

// tmuxDeadline bounds every wait: a hang detector, not a timing assertion
// (generous, for a loaded machine).
const tmuxDeadline = 30 * time.Second

// waitFor polls the screen until it contains want.
func (s *tmuxSession) waitFor(want string) string {
	s.t.Helper()
	return s.waitUntil(fmt.Sprintf("%q", want), func(scr string) bool { return strings.Contains(scr, want) })
}

// waitUntil polls the screen until ok holds for it (what names the
// condition in the failure).
func (s *tmuxSession) waitUntil(what string, ok func(scr string) bool) string {
	s.t.Helper()
	deadline := time.Now().Add(tmuxDeadline)
	for {
		scr := s.screen()
		if ok(scr) {
			return scr
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("screen never showed %s:\n%s", what, scr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// atPrompt reports whether the screen's last non-blank line is the prompt
// with nothing typed (any status mark) and the output above is complete.
func atPrompt(scr string) bool {
	lines := strings.Split(strings.TrimRight(scr, "\n "), "\n")
	last := strings.TrimRight(lines[len(lines)-1], " ")
	return strings.HasPrefix(last, "change-monitor-executor") && strings.HasSuffix(last, "❯")
}

func TestREPLInTmux(t *testing.T) {
	requireTmux(t)
	_, target := startCompareDeployment(t)
	home := t.TempDir()
	s := startTmux(t, []string{"AGSH_TEST_AS_AGSH=1", "AGENT_SHELL_TARGET=" + target, "HOME=" + home,
		"XDG_STATE_HOME=" + filepath.Join(home, "state"), "TERM=xterm-256color", "NO_COLOR=1"})
	s.waitFor("change-monitor-executor ❯")

	// Tab completes a tool name, then a remote path.
	s.keys("rea", "Tab")
	s.waitFor("❯ read")
	s.keys("/repo/RE", "Tab")
	s.waitFor("/repo/README.md")
	s.keys("Enter")
	s.waitFor("This repo has a readme.")

	// A slow call: Ctrl-C cancels it and the shell stays.
	post(t, target+"/v1/dev/faults", `{"route":"POST /v1/tools/list_changes","count":1,"delayMs":60000}`)
	s.keys("list_changes", "Enter")
	waitFaultTaken(t, target)
	s.keys("C-c")
	s.keys("ls /repo/src", "Enter")
	s.waitFor("util/")

	// Ctrl-D on an empty line exits with the session line.
	s.keys("C-d")
	scr := s.waitFor("[exited")
	if !strings.Contains(scr, "→ no session") {
		t.Errorf("no session line on exit:\n%s", scr)
	}
	hist, err := os.ReadFile(filepath.Join(home, "state", "agsh", "history"))
	if err != nil || !strings.Contains(string(hist), "read /repo/README.md") {
		t.Errorf("history not kept: %v %q", err, hist)
	}
}
