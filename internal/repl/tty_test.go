package repl

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// scriptRunner is the Runner of the real-terminal test.
type scriptRunner struct{}

func (scriptRunner) Run(ctx context.Context, src string, stdout, stderr io.Writer) (int, bool) {
	switch {
	case src == "slow":
		select {
		case <-ctx.Done():
			fmt.Fprintln(stderr, "agsh: interrupted")
			return 130, false
		case <-time.After(10 * time.Second):
			return 0, false
		}
	case src == "big":
		_, _ = io.WriteString(stdout, table(2000))
		return 0, false
	case strings.HasPrefix(src, "exit"):
		return 4, true
	}
	fmt.Fprintf(stdout, "ran: %q\n", src)
	return 0, false
}

func (scriptRunner) Incomplete(src string) bool {
	return strings.HasSuffix(strings.TrimSpace(src), "|")
}

// TestHelperREPL is not a test: TestTmuxREPL runs the test binary with
// AGSH_REPL_HELPER set, in a tmux pane, to get a REPL on a real terminal.
func TestHelperREPL(t *testing.T) {
	if os.Getenv("AGSH_REPL_HELPER") == "" {
		t.Skip("helper process for TestTmuxREPL")
	}
	c := &fakeCompleter{answers: map[string]Completion{
		"ls |\nre": {Start: 5, End: 7, Candidates: cands("read")},
		"ls --": {Start: 3, End: 5, Candidates: []Candidate{
			{Text: "--limit", Display: "--limit <integer>", Description: "Maximum entries"},
			{Text: "--all", Description: "Hidden entries too"},
		}},
	}}
	st, err := Run(context.Background(), Config{
		AgentName: "cm", Target: "https://agents.example/cm", Session: "ses_1",
		HistoryPath: os.Getenv("AGSH_REPL_HISTORY"), Secrets: []string{"tok-secret"},
		Runner: scriptRunner{}, Completer: c, Escape: safeLabel,
		In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr,
	})
	fmt.Fprintf(os.Stderr, "[status %d err %v]\n", st, err)
	os.Exit(st)
}

type tmux struct {
	t      *testing.T
	socket string
}

func (x *tmux) run(args ...string) string {
	x.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", x.socket}, args...)...).CombinedOutput()
	if err != nil {
		x.t.Fatalf("tmux %q: %v\n%s", args, err, out)
	}
	return string(out)
}

func (x *tmux) screen() string { return x.run("capture-pane", "-p", "-t", "repl") }

func (x *tmux) keys(keys ...string) { x.run(append([]string{"send-keys", "-t", "repl"}, keys...)...) }

// waitScreen waits until the pane shows s.
func (x *tmux) waitScreen(s string) string {
	x.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		scr := x.screen()
		if strings.Contains(scr, s) {
			return scr
		}
		if time.Now().After(deadline) {
			x.t.Fatalf("screen never showed %q:\n%s", s, scr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestTmuxREPL drives the REPL on a real terminal: raw mode, keys as the
// terminal sends them, output through the terminal.
func TestTmuxREPL(t *testing.T) {
	if testing.Short() {
		t.Skip("real-terminal test")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is required in CI")
		}
		t.Skip("tmux not installed")
	}
	dir := t.TempDir()
	hist := filepath.Join(dir, "state", "agsh", "history")
	x := &tmux{t: t, socket: fmt.Sprintf("agsh-repl-test-%d", os.Getpid())}
	cmd := fmt.Sprintf("env AGSH_REPL_HELPER=1 AGSH_REPL_HISTORY=%s TERM=xterm-256color %s -test.run='^TestHelperREPL$' 2>%s/stderr; sleep 30",
		hist, os.Args[0], dir)
	x.run("new-session", "-d", "-s", "repl", "-x", "80", "-y", "24", cmd)
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", x.socket, "kill-server").Run() })

	x.waitScreen("session: ses_1")
	x.waitScreen("cm ❯")
	x.keys("ls /", "Enter")
	x.waitScreen(`ran: "ls /"`)

	// Continuation, then completion of a single candidate.
	x.keys("ls |", "Enter")
	x.waitScreen("cm ❯ ls |\n…")
	x.keys("re", "Tab")
	x.waitScreen("… read")
	x.keys("Enter")
	x.waitScreen(`ran: "ls |\nread "`)

	// A list of candidates below the prompt.
	x.keys("ls --", "Tab")
	x.waitScreen("--limit <integer>  Maximum entries")
	x.keys("C-u")

	// Ctrl-C cancels a slow call after the spinner shows; the shell stays.
	x.keys("slow", "Enter")
	x.waitScreen("running… Ctrl-C cancels")
	x.keys("C-c")
	x.waitScreen("agsh: interrupted")
	x.keys("after", "Enter")
	x.waitScreen(`ran: "after"`)

	// History: ↑ and Ctrl-R; a secret never reaches the file.
	x.keys("Up")
	x.waitScreen("cm ❯ after")
	x.keys("C-u", "C-r", "ls /")
	x.waitScreen("(reverse-i-search)`ls /': ls /")
	x.keys("C-g") // Escape and the next key would read as Alt-x
	x.keys("x --token tok-secret", "Enter")
	x.waitScreen(`ran: "x --token tok-secret"`)

	// A large output prints whole and the prompt comes back.
	x.keys("big", "Enter")
	x.waitScreen("end of table")
	x.waitScreen("cm ❯")

	x.keys("C-d")
	deadline := time.Now().Add(5 * time.Second)
	for {
		b, _ := os.ReadFile(filepath.Join(dir, "stderr"))
		if strings.Contains(string(b), "[status 0 err <nil>]") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("REPL did not exit on Ctrl-D; stderr %q\n%s", b, x.screen())
		}
		time.Sleep(20 * time.Millisecond)
	}
	data, err := os.ReadFile(hist)
	if err != nil {
		t.Fatal(err)
	}
	if want := "ls /\nls |\\nread \nslow\nafter\nbig\n"; string(data) != want {
		t.Errorf("history file %q, want %q", data, want)
	}
	if fi, _ := os.Stat(hist); fi.Mode().Perm() != 0o600 {
		t.Errorf("history mode %o", fi.Mode().Perm())
	}
}
