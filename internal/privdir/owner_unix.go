//go:build unix

package privdir

import (
	"io/fs"
	"os"
	"syscall"
)

// ownedByUser reports a file of the user running agsh.
func ownedByUser(st fs.FileInfo) bool {
	s, ok := st.Sys().(*syscall.Stat_t)
	return ok && int(s.Uid) == os.Getuid()
}
