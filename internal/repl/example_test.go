package repl_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agsh-dev/agsh/internal/repl"
)

// echoRunner prints what it is given; a trailing | asks for more input.
type echoRunner struct{}

func (echoRunner) Run(_ context.Context, src string, stdout, _ io.Writer) (int, bool) {
	fmt.Fprintf(stdout, "ran %q\n", src)
	return 0, src == "exit"
}

func (echoRunner) Incomplete(src string) bool { return strings.HasSuffix(src, "|") }

// RunPlain reads lines, joins continued ones and writes results untouched
// to Out; prompts and the banner go to ErrOut.
func ExampleRunPlain() {
	status, err := repl.RunPlain(context.Background(), repl.Config{
		AgentName: "cm",
		Runner:    echoRunner{},
		In:        strings.NewReader("ls / |\nhead\nexit\nnever read\n"),
		Out:       os.Stdout,
		ErrOut:    io.Discard,
		// A test delivers Ctrl-C itself; nil subscribes to SIGINT.
		Interrupts: make(chan struct{}),
	})
	fmt.Println(status, err)
	// Output:
	// ran "ls / |\nhead"
	// ran "exit"
	// 0 <nil>
}

func ExampleHistoryPathFrom() {
	getenv := func(k string) string {
		if k == "XDG_STATE_HOME" {
			return "/var/state"
		}
		return ""
	}
	fmt.Println(repl.HistoryPathFrom(getenv, "/home/op"))
	fmt.Println(repl.HistoryPathFrom(func(string) string { return "" }, "/home/op"))
	// Output:
	// /var/state/agsh/history
	// /home/op/.local/state/agsh/history
}
