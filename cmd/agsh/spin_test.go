package main

import (
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/spin"
)

// Item 9: a one-shot call slower than 300 ms shows the spinner on a
// terminal, erased before the output; piped, never.
func TestOneShotSpinner(t *testing.T) {
	srv, _ := startRepoDeployment(t, map[string]string{"README.md": "# demo\n"})
	target := srv.AgentURL("executor")
	slow := func() { post(t, target+"/v1/dev/faults", `{"route":"POST /v1/tools/ls","count":1,"delayMs":1500}`) }

	slow()
	out := onTerminal(t, []string{"NO_COLOR=1"}, "--target", target, "ls")
	shown := strings.Index(out, spin.Label)
	erased := strings.LastIndex(out, "\r\x1b[K")
	result := strings.Index(out, "README.md")
	if shown < 0 || erased < shown || result < erased {
		t.Errorf("want the spinner, erased, then the result:\n%q", out)
	}

	slow()
	cmd := agshCommand("--target", target, "ls")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if stdout, err := cmd.Output(); err != nil || !strings.Contains(string(stdout), "README.md") ||
		strings.Contains(stderr.String(), spin.Label) || strings.Contains(string(stdout), spin.Label) {
		t.Errorf("piped: %v stdout %q stderr %q", err, stdout, stderr.String())
	}
}
