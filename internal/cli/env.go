package cli

import (
	"context"
	"io/fs"
	"os"
	"os/signal"
	"syscall"
)

// Env is what agsh reads from its process: the environment, files (the
// stored login), the home directory and the program's own path. Only
// cmd/agsh gives the real one; tests give their own.
type Env interface {
	Getenv(string) string
	// LookupEnv tells an empty variable from an unset one (AGSH_PAGER=).
	LookupEnv(string) (string, bool)
	// Environ is the whole environment, for the programs agsh starts (the
	// pager, the completion cache's detached refresh).
	Environ() []string
	ReadFile(string) ([]byte, error)
	// Open opens a file for reading without waiting (a named pipe's open
	// returns at once), for --input-json @file: the caller checks that it
	// is a regular file before reading.
	Open(name string) (fs.File, error)
	HomeDir() string
	// Self is the path of the running program, for a detached child of the
	// same program ("" when unknown).
	Self() string
}

// scriptProcess is an Env that can set the process up for a script: the
// real one (cmd/agsh) runs it on one processor, unless GOMAXPROCS says
// otherwise, with the collector's script pace
// (docs/shell.md#the-cost-of-a-command). Tests' environments lack it,
// their process not being agsh's.
type scriptProcess interface{ ScriptMode() }

// screenProcess is an Env that can set the process up for a full-screen
// view that runs until quit (:top): the real one restores the collector's
// default pace (docs/console.md#the-fleet-view).
type screenProcess interface{ ScreenMode() }

// interruptible returns ctx cancelled by the first Ctrl-C (or SIGTERM):
// the call in flight is abandoned and the run ends with status 130.
func interruptible(ctx context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
}
