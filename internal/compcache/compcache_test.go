package compcache

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/catalog"
)

func openTemp(t *testing.T) (*Cache, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "cache", "agsh")
	c, err := Open(dir, Key("http://127.0.0.1:39400/executor", "s3cret-token"))
	if err != nil {
		t.Fatal(err)
	}
	return c, dir
}

func TestListingRoundTrip(t *testing.T) {
	c, dir := openTemp(t)
	if strings.Contains(c.key, "s3cret") || strings.Contains(c.key, "39400") {
		t.Fatalf("key %s reveals the target or the credential", c.key)
	}
	if _, _, ok := c.Listing(); ok {
		t.Fatal("an empty cache has a listing")
	}
	long := strings.Repeat("é", 200)
	in := []catalog.ToolEntry{
		{Name: "ls", Source: catalog.Source{Kind: "authored"}},
		{Name: "mon_list", Title: long, Source: catalog.Source{Kind: "connection", Connection: "mon"}},
		{Name: strings.Repeat("x", MaxNameBytes+1), Source: catalog.Source{Kind: "authored"}},
	}
	if err := c.SaveCommand("ls", []byte(`{"tool":"ls"}`)); err != nil {
		t.Fatal(err)
	}
	before := time.Now().Add(-time.Second)
	if err := c.SaveListing(in); err != nil {
		t.Fatal(err)
	}
	out, fetched, ok := c.Listing()
	if !ok || len(out) != 2 || out[0].Name != "ls" || out[1].Source.Connection != "mon" || fetched.Before(before) {
		t.Fatalf("Listing = %+v %v %v", out, fetched, ok)
	}
	if len(out[1].Title) > MaxTitleBytes || !strings.HasSuffix(out[1].Title, "…") {
		t.Errorf("the title is not cut: %d bytes", len(out[1].Title))
	}
	if _, ok := c.Command("ls"); ok {
		t.Error("a new listing keeps the commands' data of the old one")
	}
	st, err := os.Stat(c.path(".tools"))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("listing mode %v (%v), want 0600", st.Mode(), err)
	}
	if st, _ := os.Stat(dir); st.Mode().Perm() != 0o700 {
		t.Errorf("cache dir mode %v, want 0700", st.Mode())
	}
	if err := c.SaveCommand("mon_list", []byte(`{"tool":"mon_list"}`)); err != nil {
		t.Fatal(err)
	}
	if data, ok := c.Command("mon_list"); !ok || string(data) != `{"tool":"mon_list"}` {
		t.Errorf("Command = %q %v", data, ok)
	}
	if _, ok := c.Command("mon_mute"); ok {
		t.Error("data of a command never stored")
	}
	files, _ := os.ReadDir(dir)
	for _, f := range files {
		if strings.Contains(f.Name(), "mon_list") || strings.Contains(f.Name(), "127.0.0.1") {
			t.Errorf("a file name shows a name: %s", f.Name())
		}
	}
}

func TestFresh(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	if !Fresh(at, at.Add(time.Minute)) || Fresh(at, at.Add(TTL)) || Fresh(at, at.Add(-2*time.Minute)) {
		t.Error("Fresh is wrong")
	}
	if Key("http://x/a", "t") == Key("http://x/a", "u") || Key("http://x/a", "t") == Key("http://x/b", "t") {
		t.Error("keys of other principals or targets collide")
	}
}

// TestBounds: past MaxTools or the bytes of a file nothing is stored and the
// old entry stays; a file past its bound is not read (its size is checked
// first); a file that is not the listing's shape is not used.
func TestBounds(t *testing.T) {
	c, _ := openTemp(t)
	if err := c.SaveListing([]catalog.ToolEntry{{Name: "old"}}); err != nil {
		t.Fatal(err)
	}
	many := make([]catalog.ToolEntry, MaxTools+1)
	for i := range many {
		many[i] = catalog.ToolEntry{Name: fmt.Sprintf("t%d", i)}
	}
	if err := c.SaveListing(many); !errors.Is(err, ErrTooLarge) {
		t.Errorf("%d tools: %v", len(many), err)
	}
	// 20,000 tools of 250-byte names: more bytes than a listing may take.
	big := make([]catalog.ToolEntry, MaxTools)
	for i := range big {
		big[i] = catalog.ToolEntry{Name: fmt.Sprintf("%0250d", i)}
	}
	if err := c.SaveListing(big); !errors.Is(err, ErrTooLarge) {
		t.Errorf("a listing past %d bytes: %v", MaxListingBytes, err)
	}
	if out, _, ok := c.Listing(); !ok || len(out) != 1 || out[0].Name != "old" {
		t.Errorf("the old entry is gone: %+v %v", out, ok)
	}
	if err := c.SaveCommand("x", make([]byte, MaxCommandBytes+1)); !errors.Is(err, ErrTooLarge) {
		t.Errorf("command data past its bound: %v", err)
	}
	// A planted file one byte past the bound (sparse: nothing is moved).
	f, err := os.OpenFile(c.path(".tools"), os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"ok":true,"tools":[{"name":"planted"}]}`)
	f.Truncate(MaxListingBytes + 1)
	f.Close()
	if _, _, ok := c.Listing(); ok {
		t.Error("a listing past its bound was read")
	}
	for _, garbage := range []string{"{garbage", `{"tools":[{"name":"a","name":"b"}]}`, `[]`} {
		os.WriteFile(c.path(".tools"), []byte(garbage), 0o600)
		if _, _, ok := c.Listing(); ok {
			t.Errorf("%q read as a listing", garbage)
		}
	}
}

// TestLinksAreNotFollowed: a listing or a command's data that is a link
// (to a good file, to /dev/zero) is not read; saving replaces the link,
// leaving its target as it was.
func TestLinksAreNotFollowed(t *testing.T) {
	c, _ := openTemp(t)
	good := filepath.Join(t.TempDir(), "good.json")
	os.WriteFile(good, []byte(`{"ok":true,"tools":[{"name":"linked"}]}`), 0o600)
	targets := []string{good}
	if _, err := os.Stat("/dev/zero"); err == nil {
		targets = append(targets, "/dev/zero")
	}
	for _, target := range targets {
		os.Remove(c.path(".tools"))
		if err := os.Symlink(target, c.path(".tools")); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
		if _, _, ok := c.Listing(); ok {
			t.Errorf("a link to %s was read", target)
		}
		os.Remove(c.path(commandSuffix("x")))
		os.Symlink(target, c.path(commandSuffix("x")))
		if _, ok := c.Command("x"); ok {
			t.Errorf("a command's data linked to %s was read", target)
		}
	}
	os.Remove(c.path(".tools"))
	os.Symlink(good, c.path(".tools"))
	if err := c.SaveListing([]catalog.ToolEntry{{Name: "fresh"}}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(good); !strings.Contains(string(b), "linked") {
		t.Errorf("saving wrote through the link: %q", b)
	}
	if st, err := os.Lstat(c.path(".tools")); err != nil || !st.Mode().IsRegular() {
		t.Errorf("the listing is not a regular file after saving: %v %v", st.Mode(), err)
	}
	if out, _, ok := c.Listing(); !ok || out[0].Name != "fresh" {
		t.Errorf("Listing = %+v %v", out, ok)
	}
}

// TestLock: a lock is created exclusively; a young one holds off another
// refresh, an old one does not; a link in the lock's place is removed, and
// what it points to is left whole.
func TestLock(t *testing.T) {
	c, _ := openTemp(t)
	now := time.Now()
	if !c.Lock(now) {
		t.Fatal("the first lock was refused")
	}
	if c.Lock(now) {
		t.Error("a second refresh took a young lock")
	}
	if !c.Lock(now.Add(2 * lockAge)) {
		t.Error("an old lock held off a refresh")
	}
	c.Unlock()
	precious := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(precious, []byte("the user's notes\n"), 0o600)
	if err := os.Symlink(precious, c.path(".lock")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if !c.Lock(now) {
		t.Error("a link in the lock's place held off a refresh")
	}
	if b, _ := os.ReadFile(precious); string(b) != "the user's notes\n" {
		t.Errorf("the lock truncated the file a link pointed to: %q", b)
	}
	if st, err := os.Lstat(c.path(".lock")); err != nil || !st.Mode().IsRegular() {
		t.Errorf("the lock is not a regular file: %v %v", st, err)
	}
}

func TestOpenRefusesWhatIsNotAFolder(t *testing.T) {
	base := t.TempDir()
	file := filepath.Join(base, "file")
	os.WriteFile(file, nil, 0o600)
	if _, err := Open(file, "k"); err == nil {
		t.Error("a file used as the cache folder")
	}
	real := filepath.Join(base, "real")
	os.Mkdir(real, 0o700)
	link := filepath.Join(base, "link")
	if err := os.Symlink(real, link); err == nil {
		if _, err := Open(link, "k"); err == nil {
			t.Error("a link used as the cache folder")
		}
	}
	if _, err := Open(real, "../k"); err == nil {
		t.Error("a key with a path separator")
	}
}

func TestDir(t *testing.T) {
	env := map[string]string{"XDG_CACHE_HOME": "/x/cache", "HOME": "/home/u", "LocalAppData": `C:\Users\u\AppData\Local`}
	get := func(k string) string { return env[k] }
	if d := dirFor("linux", get); d != "/x/cache/agsh" {
		t.Errorf("Dir = %s", d)
	}
	if d := dirFor("windows", get); d != filepath.Join(`C:\Users\u\AppData\Local`, "agsh") {
		t.Errorf("windows Dir = %s", d)
	}
	env["XDG_CACHE_HOME"] = "relative"
	if d := dirFor("darwin", get); d != "/home/u/.cache/agsh" {
		t.Errorf("Dir = %s", d)
	}
	delete(env, "HOME")
	if d := dirFor("linux", get); d != "" {
		t.Errorf("Dir = %s", d)
	}
}
