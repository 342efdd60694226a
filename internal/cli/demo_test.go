package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/testcorpus"
)

// TestDemoScriptOwnSession: with demo sessions (make demo starts 30), the
// agsh that scripts/demo.sh opens is bound to the operator's own idle demo
// session by its id, not to the latest session (soon a busy demo turn, where
// a write call is refused and a message queues): the script passes
// --session with the id agsh-devserver prints as "demo-session ID", and
// says so; arguments that bind a session themselves are left alone.
func TestDemoScriptOwnSession(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the demo script")
	}
	dir := demoLayout(t)
	// bin/agsh notes the arguments it was run with, then runs as agsh.
	argsLog := filepath.Join(dir, "args")
	wrapper := fmt.Sprintf("#!/bin/sh\necho \"$*\" >> '%s'\nAGSH_TEST_AS_AGSH=1 exec '%s' \"$@\"\n", argsLog, os.Args[0])
	if err := os.WriteFile(filepath.Join(dir, "bin", "agsh"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	buildDevserver(t, testcorpus.Root(t), filepath.Join(dir, "bin"))
	var runDemo func(args ...string) (string, string, error)
	demo := func(args ...string) (stdout, stderr string) {
		t.Helper()
		stdout, stderr, err := runDemo(args...)
		if err != nil {
			t.Fatalf("demo.sh %v: %v\n%s%s", args, err, stdout, stderr)
		}
		return stdout, stderr
	}
	runDemo = func(args ...string) (string, string, error) {
		t.Helper()
		_ = os.Remove(argsLog)
		c := exec.Command(filepath.Join(dir, "scripts", "demo.sh"), args...)
		c.Env = append(os.Environ(), "NO_COLOR=1", "AGENT_SHELL_TARGET=", "HOME="+dir, "XDG_STATE_HOME="+dir, "AGSH_DEMO_SESSIONS=12")
		var out, errb bytes.Buffer
		c.Stdout, c.Stderr = &out, &errb
		err := c.Run()
		return out.String(), errb.String(), err
	}
	ran := func() string {
		t.Helper()
		b, err := os.ReadFile(argsLog)
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(b))
	}

	stdout, stderr := demo(":describe")
	m := regexp.MustCompile(`(?m)^session +(ses_[0-9a-f]+)$`).FindStringSubmatch(stdout)
	if m == nil || !strings.Contains(stdout, "your session (demo)") || !regexp.MustCompile(`(?m)^state +waiting`).MatchString(stdout) {
		t.Fatalf("the demo's agsh is not in the operator's own idle session:\n%s\n%s", stdout, stderr)
	}
	own := m[1]
	if got := ran(); got != "--session "+own+" :describe" {
		t.Errorf("agsh ran with %q, want --session %s :describe", got, own)
	}
	for _, want := range []string{"bin/agsh --session " + own + " ls /repo", "in session " + own + ";"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("the demo does not say %q:\n%s", want, stderr)
		}
	}

	// A write call, the first thing a newcomer may type, is not refused.
	stdout, stderr = demo("report_change_succeeded", "--summary", "first try", "--yes")
	if !strings.Contains(stdout, "first try") || !strings.Contains(stderr, "→ ses_") {
		t.Errorf("a write call in the demo:\n%s\n%s", stdout, stderr)
	}

	// A binding of the caller's own is kept (this id is unknown to the next
	// server: the run fails, as it says).
	_, stderr, _ = runDemo("--session="+own, ":describe")
	if got := ran(); got != "--session="+own+" :describe" || !strings.Contains(stderr, "does not know session "+own) {
		t.Errorf("agsh ran with %q: the caller's own --session was not left alone", got)
	}
}
