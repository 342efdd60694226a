//go:build !unix

package mcpconn

import (
	"os"
	"os/exec"
)

// setProcessGroup does nothing where process groups are not available.
func setProcessGroup(cmd *exec.Cmd) {}

// killProcessGroup kills the process itself where process groups are not
// available.
func killProcessGroup(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}
