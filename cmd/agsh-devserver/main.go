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
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], takeSecretEnv(), os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
