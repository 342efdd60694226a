// Command agsh is the agent shell: it connects to one deployed agent and
// turns its live tool catalog into commands, with man-page help, result
// views, and a shell (a REPL on a terminal, a script from standard input).
//
// This package is the composition root: it reads the arguments, the
// environment and the real standard streams, builds everything, picks
// one-shot, script or REPL mode, and maps errors to exit statuses. It is the
// only place that calls os.Exit or reads the environment.
package main

import (
	"os"

	_ "github.com/agsh-dev/agsh/internal/gcpace" // the collector's pace for small heaps (GOGC set wins)
	"github.com/agsh-dev/agsh/internal/iostreams"
	_ "github.com/agsh-dev/agsh/internal/termquiet" // before bubbletea's init: no terminal query at start-up
)

func main() {
	ios := iostreams.System(os.Getenv)
	os.Exit(run(os.Args[1:], ios, osEnv{}))
}
