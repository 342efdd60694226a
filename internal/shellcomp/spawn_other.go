//go:build !unix

package shellcomp

import "os/exec"

// Detached starts cmd and does not wait for it.
func Detached(cmd *exec.Cmd) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}
