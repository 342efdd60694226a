// Command agsh-devserver runs agsh's development deployment: the executor and
// planner agents on one loopback port, over real directories, git and MCP
// servers (docs/devserver.md). It prints one line per agent ("executor
// http://127.0.0.1:39400/executor") and then "ready" on standard output, logs
// on standard error, and stops cleanly on SIGINT or SIGTERM.
package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
)

// memoryLimit is the heap size past which the collector works harder
// (runtime/debug.SetMemoryLimit), unless GOMEMLIMIT says otherwise: what
// the server keeps is bounded well below it (docs/devserver.md#bounds), so
// the limit keeps garbage from piling up on top of it under a large load.
const memoryLimit = 640 << 20

func main() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], takeSecretEnv(), os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
