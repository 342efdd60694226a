//go:build unix

package compcache

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/catalog"
)

// TestFIFOIsNotRead: a FIFO planted in an entry's place neither blocks the
// read (a Tab that hangs) nor counts as an entry; as a lock it is replaced.
func TestFIFOIsNotRead(t *testing.T) {
	c, _ := openTemp(t)
	if err := syscall.Mkfifo(c.path(".tools"), 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	syscall.Mkfifo(c.path(commandSuffix("x")), 0o600)
	done := make(chan bool)
	go func() {
		_, _, ok := c.Listing()
		_, ok2 := c.Command("x")
		done <- ok || ok2
	}()
	select {
	case ok := <-done:
		if ok {
			t.Error("a FIFO was read as an entry")
		}
	case <-time.After(10 * time.Second): // a hang detector, not a timing assertion
		t.Fatal("reading a FIFO blocked")
	}
	syscall.Mkfifo(c.path(".lock"), 0o600)
	if !c.Lock(time.Now()) {
		t.Error("a FIFO in the lock's place held off a refresh")
	}
	if err := c.SaveListing([]catalog.ToolEntry{{Name: "a"}}); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := c.Listing(); !ok {
		t.Error("the listing saved over a FIFO is not read")
	}
}

// TestFolderModes: the user's folder with wider modes is set to 0700; one
// owned by someone else is not used (run as root, the test makes one).
func TestFolderModes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "agsh")
	os.Mkdir(dir, 0o755)
	os.Chmod(dir, 0o777)
	if _, err := Open(dir, "k"); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(dir); st.Mode().Perm() != 0o700 {
		t.Errorf("mode %v, want 0700", st.Mode().Perm())
	}
	if os.Getuid() != 0 {
		t.Skip("making a folder owned by another user needs root")
	}
	theirs := filepath.Join(t.TempDir(), "theirs")
	os.Mkdir(theirs, 0o700)
	if err := os.Chown(theirs, 65534, 65534); err != nil {
		t.Skipf("chown: %v", err)
	}
	if _, err := Open(theirs, "k"); err == nil {
		t.Error("a folder owned by another user is used")
	}
	if st, _ := os.Stat(theirs); st.Mode().Perm() != 0o700 {
		t.Errorf("another user's folder was changed: %v", st.Mode())
	}
}
