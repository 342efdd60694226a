// Command agsh is the agent shell: it connects to one deployed agent and
// turns its live tool catalog into commands, with man-page help, result
// views, and a shell (a REPL on a terminal, a script from standard input).
//
// This package is main and the process environment only: everything else
// is the library package internal/cli, which this hands the real
// arguments, streams and environment. It is the only place that calls
// os.Exit or reads the process environment.
package main

import (
	"io/fs"
	"os"
	"os/exec"
	"runtime"
	"syscall"

	"github.com/agsh-dev/agsh/internal/cli"
	"github.com/agsh-dev/agsh/internal/gcpace" // the collector's pace for small heaps (GOGC set wins)
	"github.com/agsh-dev/agsh/internal/iostreams"
	_ "github.com/agsh-dev/agsh/internal/termquiet" // before bubbletea's init: no terminal query at start-up
)

func main() {
	os.Exit(cli.Main(os.Args[1:], iostreams.System(os.Getenv), osEnv{}))
}

// osEnv is the real process environment.
type osEnv struct{}

func (osEnv) Getenv(k string) string            { return os.Getenv(k) }
func (osEnv) LookupEnv(k string) (string, bool) { return os.LookupEnv(k) }
func (osEnv) Environ() []string                 { return os.Environ() }
func (osEnv) ReadFile(p string) ([]byte, error) { return os.ReadFile(p) }
func (osEnv) HomeDir() string                   { h, _ := os.UserHomeDir(); return h }

// ScriptMode sets the process up for a script: one processor, unless
// GOMAXPROCS is set, and the collector's script pace.
func (osEnv) ScriptMode() {
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(1)
	}
	gcpace.ScriptPace()
}

// ScreenMode sets the process up for a full-screen view: the collector's
// default pace.
func (osEnv) ScreenMode() { gcpace.ScreenPace() }

// Open opens without blocking: the open of a named pipe returns at once,
// and the caller refuses anything but a regular file.
func (osEnv) Open(p string) (fs.File, error) {
	return os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// Self is the program as invoked (found on PATH when invoked by name), else
// the running executable.
func (osEnv) Self() string {
	if p, err := exec.LookPath(os.Args[0]); err == nil {
		return p
	}
	p, _ := os.Executable()
	return p
}
