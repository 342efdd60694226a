package cli

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestNoTerminalQueryAtStartup runs `agsh --help` on a pseudo-terminal
// (util-linux script) and checks that agsh writes no terminal query: Bubble
// Tea's init would otherwise send OSC 11 and a cursor position request to
// standard output and wait for the answer (five seconds on a pty that does
// not answer) before every one-shot call.
func TestNoTerminalQueryAtStartup(t *testing.T) {
	if _, err := exec.LookPath("script"); err != nil {
		t.Skip("script (util-linux) not found; it provides the pseudo-terminal")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "script", "-qec", os.Args[0]+" --help", "/dev/null")
	cmd.Env = append(os.Environ(), "AGSH_TEST_AS_AGSH=1", "TERM=xterm-256color", "NO_COLOR=", "CLICOLOR_FORCE=")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("script: %v\n%q", err, out)
	}
	s := string(out)
	if !strings.Contains(s, "USAGE") {
		t.Fatalf("agsh --help on a terminal printed no usage:\n%q", s)
	}
	for _, q := range []string{"\x1b]11;?", "\x1b[6n"} {
		if strings.Contains(s, q) {
			t.Errorf("agsh queried the terminal (%q) at start-up:\n%q", q, s)
		}
	}
}
