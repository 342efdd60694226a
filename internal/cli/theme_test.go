package cli

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// onTerminal runs this binary as agsh on a pseudo-terminal (util-linux
// script) with env added, and returns what the terminal received.
func onTerminal(t *testing.T, env []string, args ...string) string {
	t.Helper()
	return onTerminalSized(t, "", env, args...)
}

// onTerminalSized is onTerminal with "stty rows R cols C" run first (size
// "R C"; "" keeps script's own).
func onTerminalSized(t *testing.T, size string, env []string, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath("script"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("script (util-linux) is required in CI")
		}
		t.Skip("script (util-linux) not found; it provides the pseudo-terminal")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	line := os.Args[0]
	if size != "" {
		r, c, _ := strings.Cut(size, " ")
		line = "stty rows " + r + " cols " + c + "; " + line
	}
	for _, a := range args {
		line += " '" + a + "'"
	}
	cmd := exec.CommandContext(ctx, "script", "-qec", line, "/dev/null")
	cmd.Env = append(os.Environ(), "AGSH_TEST_AS_AGSH=1", "TERM=xterm-256color", "NO_COLOR=", "CLICOLOR_FORCE=",
		"COLORFGBG=", "GLAMOUR_STYLE=", "AGENT_SHELL_TARGET=")
	cmd.Env = append(cmd.Env, env...)
	// No key is typed: script's standard input stays open (at its end,
	// script would pass an end of file to the terminal's input, a byte that
	// waits there like a typed key, and agsh asks the terminal nothing then).
	in, keep, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer keep.Close()
	cmd.Stdin = in
	out, err := cmd.Output()
	in.Close()
	if err != nil {
		t.Fatalf("script: %v\n%q", err, out)
	}
	return string(out)
}

var nearWhiteFG = regexp.MustCompile(`\x1b\[(?:[0-9;]*;)?38;5;(?:15|231|25[0-5])m`)

// TestLightTerminal: COLORFGBG says light, so highlighting uses the light
// style (no near-white text) without asking the terminal; without it, the
// terminal is asked (OSC 11) only when something is highlighted.
func TestLightTerminal(t *testing.T) {
	srv, _ := startRepoDeployment(t, map[string]string{"main.go": "package main\n\n// main prints.\nfunc main() {\n\tprintln(\"hi\")\n}\n"})
	target := srv.AgentURL("executor")
	const query = "\x1b]11;?"

	light := onTerminal(t, []string{"COLORFGBG=0;15"}, "--target", target, "read", "/repo/main.go")
	if !strings.Contains(light, "\x1b[38;5;") || nearWhiteFG.MatchString(light) || strings.Contains(light, query) {
		t.Errorf("COLORFGBG=0;15: want light colors, no near-white text, no query:\n%q", light)
	}
	dark := onTerminal(t, []string{"COLORFGBG=15;0"}, "--target", target, "read", "/repo/main.go")
	if !nearWhiteFG.MatchString(dark) || strings.Contains(dark, query) {
		t.Errorf("COLORFGBG=15;0: want the dark style, no query:\n%q", dark)
	}
	asked := onTerminal(t, nil, "--target", target, "read", "/repo/main.go")
	if !strings.Contains(asked, query) {
		t.Errorf("no COLORFGBG: highlighting did not ask the terminal:\n%q", asked)
	}
	table := onTerminal(t, nil, "--target", target, "list_changes")
	if strings.Contains(table, query) || !strings.Contains(table, "SHA") {
		t.Errorf("a table asked the terminal about its background:\n%q", table)
	}
}
