package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// A shortened input line is redrawn without the old line's tail: bubbletea
// must see the terminal behind the redacting writer to know its width.
func TestREPLInTmuxRedrawsShorterLine(t *testing.T) {
	requireTmux(t)
	_, target := startCompareDeployment(t)
	home := t.TempDir()
	s := startTmux(t, []string{"AGSH_TEST_AS_AGSH=1", "AGENT_SHELL_TARGET=" + target, "HOME=" + home,
		"XDG_STATE_HOME=" + filepath.Join(home, "state"), "TERM=xterm-256color", "NO_COLOR=1"})
	s.waitFor("change-monitor-executor ❯")
	s.keys("abcdefghijklmnopqrstuvwxyz")
	s.waitFor("xyz")
	s.keys("C-u", "ls")
	scr := s.waitFor("❯ ls")
	for _, line := range strings.Split(scr, "\n") {
		if strings.Contains(line, "❯") && strings.TrimRight(line, " ") != "change-monitor-executor ❯ ls" {
			t.Errorf("prompt line %q, want %q", line, "change-monitor-executor ❯ ls")
		}
	}
	s.keys("C-u", "C-d")
	s.waitFor("[exited")
}
