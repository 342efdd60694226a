//go:build unix

package cli

import (
	"os"
	"strconv"
	"syscall"

	"github.com/rogpeppe/go-internal/testscript"
)

// Script commands that need a unix system.
func init() {
	// mkfifo FILE: make a named pipe.
	scriptCommands["mkfifo"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 1 {
			ts.Fatalf("usage: mkfifo FILE")
		}
		ts.Check(syscall.Mkfifo(ts.MkAbs(args[0]), 0o644))
	}
	// sparse FILE BYTES: make a file of that size that takes no room.
	scriptCommands["sparse"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 2 {
			ts.Fatalf("usage: sparse FILE BYTES")
		}
		n, err := strconv.ParseInt(args[1], 10, 64)
		ts.Check(err)
		f, err := os.Create(ts.MkAbs(args[0]))
		ts.Check(err)
		ts.Check(f.Truncate(n))
		ts.Check(f.Close())
	}
}
