//go:build unix

package shellcomp

import (
	"os/exec"
	"syscall"
)

// Detached starts cmd in a session of its own, its standard streams on
// /dev/null, and does not wait for it: the shell that asked never waits.
func Detached(cmd *exec.Cmd) error {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}
