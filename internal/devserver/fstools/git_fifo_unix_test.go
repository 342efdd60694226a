//go:build unix

package fstools

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A served .git whose files are FIFOs (from a tarball, say) neither hangs
// diff nor list_changes: what the server reads itself is read only when
// regular, and git's own reads are bounded by gitTimeout.
func TestGitFIFOsDoNotHang(t *testing.T) {
	needTool(t, "git")
	old := gitTimeout
	gitTimeout = 3 * time.Second
	t.Cleanup(func() { gitTimeout = old })
	for _, name := range []string{"HEAD", "index", "packed-refs", "config", "refs/heads/main"} {
		t.Run(strings.ReplaceAll(name, "/", "_"), func(t *testing.T) {
			dir := writeTree(t, map[string]string{"a.txt": "a\n"})
			gitRun(t, dir, nil, "init", "-q", "-b", "main")
			gitRun(t, dir, nil, "add", ".")
			gitRun(t, dir, nil, "commit", "-q", "-m", "one")
			write(t, dir, "a.txt", "a\nb\n")
			p := filepath.Join(dir, ".git", filepath.FromSlash(name))
			_ = os.Remove(p)
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Skipf("no FIFOs here: %v", err)
			}
			ts := toolSet(dir)
			for _, call := range []struct{ tool, in string }{{"diff", `{}`}, {"list_changes", `{}`}} {
				done := make(chan outcome, 1)
				go func() { done <- run(t, ts, call.tool, call.in) }()
				select {
				case <-done:
					// An answer, whatever it says: an error result, or
					// what git made of the rest.
				case <-time.After(time.Minute):
					t.Fatalf("%s with a FIFO at .git/%s: no answer", call.tool, name)
				}
			}
		})
	}
}
