//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/internal/meta"
)

// :status's memory folder is agsh's own: a group- or world-writable
// agsh/status (or agsh) folder is repaired to 0700 before it is read or
// written, and a symbolic link in place of either folder is never read or
// written through.
func TestStatusMemoryFolder(t *testing.T) {
	t.Parallel()
	groups := map[string]meta.SeenGroup{"datadog": {Tools: 3, Seen: time.Now().UTC().Format(time.RFC3339)}}

	t.Run("wide modes repaired", func(t *testing.T) {
		state := t.TempDir()
		file := statusMemoryFile(state, "", "http://x/agent", "")
		writeStatusMemory(file, groups)
		agsh, status := filepath.Join(state, "agsh"), filepath.Dir(file)
		for _, d := range []string{agsh, status} {
			if err := os.Chmod(d, 0o777); err != nil {
				t.Fatal(err)
			}
		}
		if got := readStatusMemory(file); got["datadog"].Tools != 3 {
			t.Fatalf("read after the repair: %+v", got)
		}
		for _, d := range []string{agsh, status} {
			if st, err := os.Lstat(d); err != nil || st.Mode().Perm() != 0o700 {
				t.Errorf("%s after a read: %v %v (want 0700)", d, st.Mode(), err)
			}
		}
		os.Chmod(status, 0o770)
		writeStatusMemory(file, groups)
		if st, _ := os.Lstat(status); st.Mode().Perm() != 0o700 {
			t.Errorf("status folder after a write: %v (want 0700)", st.Mode())
		}
	})

	for _, link := range []string{"agsh", "agsh/status"} {
		t.Run("symlinked "+link, func(t *testing.T) {
			state, elsewhere := t.TempDir(), t.TempDir()
			file := statusMemoryFile(state, "", "http://x/agent", "")
			// What the link leads to holds a memory of its own.
			real := filepath.Join(elsewhere, "status")
			if link == "agsh" {
				real = filepath.Join(elsewhere, "agsh", "status")
			}
			if err := os.MkdirAll(real, 0o700); err != nil {
				t.Fatal(err)
			}
			planted := filepath.Join(real, filepath.Base(file))
			if err := os.WriteFile(planted, []byte(`{"groups":{"notes":{"tools":12,"seen":"`+time.Now().UTC().Format(time.RFC3339)+`"}}}`), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(state, filepath.Dir(link)), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Dir(real), filepath.Join(state, link)); link == "agsh" && err != nil {
				t.Fatal(err)
			}
			if link == "agsh/status" {
				os.Remove(filepath.Join(state, link))
				if err := os.Symlink(real, filepath.Join(state, link)); err != nil {
					t.Fatal(err)
				}
			}
			if got := readStatusMemory(file); got != nil {
				t.Errorf("read through a symlinked %s: %+v", link, got)
			}
			writeStatusMemory(file, groups)
			b, _ := os.ReadFile(planted)
			if string(b) == "" || !strings.Contains(string(b), `"notes"`) {
				t.Errorf("written through a symlinked %s: %s", link, b)
			}
			entries, _ := os.ReadDir(real)
			if len(entries) != 1 {
				t.Errorf("files made through the link: %v", entries)
			}
		})
	}
}
