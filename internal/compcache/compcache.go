// Package compcache is the per-target catalog cache of shell completion
// (`agsh --completion`, docs/cli.md#completion-scripts): what Tab needs and
// nothing more. For one target and principal it keeps the listing (names,
// titles, sources; a format of its own, read back without reflection) and,
// apart, the completion data of each command whose flags were completed
// (its flags, their enum values, its path operands), each in a file of its
// own, so that a Tab reads the listing and at most one command's data. The
// listing is one line a tool (listing.go): reading 10,000 of them costs a
// Tab less than a millisecond.
//
// The cache is distrusted as much as a deployment: every file is bounded
// in bytes (checked before it is read) and the listing in tools; files are
// opened without following a symbolic link and must be regular (a FIFO or
// a link to /dev/zero planted there is not read); new files are created
// exclusively and renamed into place; the folder must be the user's own,
// 0700. It lives under $XDG_CACHE_HOME/agsh/ (else ~/.cache/agsh/; on
// Windows the user's local application data folder), its files named by
// hashes of the target and of the credential, holding neither. Only shell
// completion reads it: help and calls always ask the deployment. An entry
// older than TTL is still answered from while a detached agsh refreshes it.
package compcache

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/privdir"
)

// TTL is how long an entry is fresh; an older one is refreshed in the
// background.
const TTL = 5 * time.Minute

// The bounds of what the cache keeps and reads.
const (
	// MaxTools bounds the tools of a listing kept: a larger one is not
	// stored (the old entry stays).
	MaxTools = 20000
	// MaxListingBytes bounds the listing's file.
	MaxListingBytes = 4 << 20
	// MaxCommandBytes bounds one command's completion data.
	MaxCommandBytes = 256 << 10
	// MaxNameBytes: a tool whose name is longer is left out (no one types
	// it; Tab would offer a wall).
	MaxNameBytes = 256
	// MaxTitleBytes: a longer title is cut (it is only shown beside the
	// name).
	MaxTitleBytes = 160
)

// ErrTooLarge is the error of an entry past its bound: it is not stored.
var ErrTooLarge = errors.New("the completion cache entry is past its bound")

// lockAge is how long a refresh's lock holds off another refresh.
const lockAge = time.Minute

// Dir answers the cache directory from the environment: on Windows the
// user's local application data folder (%LocalAppData%\agsh, as
// os.UserCacheDir), elsewhere $XDG_CACHE_HOME/agsh, else
// $HOME/.cache/agsh; "" when none is known.
func Dir(getenv func(string) string) string {
	return dirFor(runtime.GOOS, getenv)
}

func dirFor(goos string, getenv func(string) string) string {
	if goos == "windows" {
		if d := getenv("LocalAppData"); d != "" {
			return filepath.Join(d, "agsh")
		}
		return ""
	}
	if d := getenv("XDG_CACHE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "agsh")
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".cache", "agsh")
	}
	return ""
}

// Key answers the base of a target's file names for a principal: hashes
// of the target (its canonical spelling, team included) and of the
// credential ("" when there is none), so the names reveal neither.
func Key(target, credential string) string {
	t := sha256.Sum256([]byte("agsh-target\x00" + target))
	p := sha256.Sum256([]byte("agsh-principal\x00" + credential))
	return "catalog-" + hex.EncodeToString(t[:10]) + "-" + hex.EncodeToString(p[:10])
}

// Cache is one target's and principal's entry in a checked directory.
type Cache struct {
	dir, key string
}

// Open answers the entry key in dir, creating dir (0700) when it is
// missing. A folder that is not the user's own, or not a folder, is not
// used (an error); one of the user's with wider modes is set to 0700.
func Open(dir, key string) (*Cache, error) {
	if dir == "" || key == "" || strings.ContainsAny(key, `/\`) {
		return nil, errors.New("no cache directory")
	}
	if err := privdir.Ensure(dir, true); err != nil {
		return nil, err
	}
	return &Cache{dir: dir, key: key}, nil
}

func (c *Cache) path(suffix string) string { return filepath.Join(c.dir, c.key+suffix) }

// commandSuffix names a command's file: a hash of its name (a tool's name
// may hold anything).
func commandSuffix(name string) string {
	h := sha256.Sum256([]byte("agsh-command\x00" + name))
	return "-" + hex.EncodeToString(h[:10]) + ".cmd"
}

// Listing answers the stored listing and when it was fetched; ok is false
// when there is none, or it cannot be trusted (too large, not a regular
// file, not the listing's format).
func (c *Cache) Listing() (tools []catalog.ToolEntry, fetched time.Time, ok bool) {
	data, st, err := readRegular(c.path(".tools"), MaxListingBytes)
	if err != nil {
		return nil, time.Time{}, false
	}
	tools, ok = decodeListing(data)
	if !ok {
		return nil, time.Time{}, false
	}
	return tools, st.ModTime(), true
}

// Fresh reports whether an entry fetched at fetched is less than TTL old
// at now (an entry from the future is not).
func Fresh(fetched, now time.Time) bool {
	return now.Sub(fetched) < TTL && !fetched.After(now.Add(time.Minute))
}

// SaveListing stores tools (names past MaxNameBytes left out, titles cut to
// MaxTitleBytes) as the entry's listing, replacing it atomically; the
// commands' data stored with the old one is dropped (the tools may have
// changed). Past MaxTools or MaxListingBytes nothing is stored:
// ErrTooLarge.
func (c *Cache) SaveListing(tools []catalog.ToolEntry) error {
	if len(tools) > MaxTools {
		return ErrTooLarge
	}
	data, ok := encodeListing(tools)
	if !ok {
		return ErrTooLarge
	}
	c.DropCommands()
	// An entry of a format before this one (listing and every schema in
	// one file) is no longer read.
	os.Remove(c.path(".json"))
	return writeAtomic(c.dir, c.path(".tools"), data)
}

// Command answers the stored completion data of the command name (false
// when there is none or it cannot be trusted).
func (c *Cache) Command(name string) ([]byte, bool) {
	data, _, err := readRegular(c.path(commandSuffix(name)), MaxCommandBytes)
	return data, err == nil
}

// SaveCommand stores the completion data of the command name; past
// MaxCommandBytes nothing is stored: ErrTooLarge.
func (c *Cache) SaveCommand(name string, data []byte) error {
	if len(data) > MaxCommandBytes {
		return ErrTooLarge
	}
	return writeAtomic(c.dir, c.path(commandSuffix(name)), data)
}

// DropCommands removes every command's data of the entry.
func (c *Cache) DropCommands() {
	files, _ := filepath.Glob(filepath.Join(c.dir, c.key+"-*.cmd"))
	for _, f := range files {
		os.Remove(f) // a link is removed, never what it points to
	}
}

// Lock takes the entry's refresh lock: false when a refresh younger than a
// minute holds it. The lock is created exclusively; whatever else stands
// in its place (an old lock, a link, a FIFO) is removed, not opened.
func (c *Cache) Lock(now time.Time) bool {
	p := c.path(".lock")
	for attempt := 0; attempt < 2; attempt++ {
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL|oNoFollow, 0o600)
		if err == nil {
			f.Close()
			return true
		}
		if !errors.Is(err, fs.ErrExist) {
			return false
		}
		st, err := os.Lstat(p)
		if err == nil && st.Mode().IsRegular() && now.Sub(st.ModTime()) < lockAge && !st.ModTime().After(now.Add(time.Minute)) {
			return false
		}
		os.Remove(p)
	}
	return false
}

// Unlock drops the refresh lock.
func (c *Cache) Unlock() { os.Remove(c.path(".lock")) }

// readRegular reads the file at path when it is a regular file of at most
// limit bytes, opened without following a link and without waiting (a
// FIFO does not block the open).
func readRegular(path string, limit int64) ([]byte, fs.FileInfo, error) {
	f, err := openNoFollow(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("%s is not a regular file", path)
	}
	if st.Size() > limit {
		return nil, nil, ErrTooLarge
	}
	// One read sized from the stat, and one byte more to see that the file
	// did not grow past what was checked.
	data := make([]byte, st.Size()+1)
	n, err := io.ReadFull(f, data)
	if err != io.ErrUnexpectedEOF && err != nil {
		return nil, nil, err
	}
	if int64(n) > st.Size() {
		return nil, nil, ErrTooLarge
	}
	return data[:n], st, nil
}

// writeAtomic writes data to path through a file created exclusively in
// dir (0600) and renamed over path: a concurrent reader sees the old file
// or the new one, and whatever stood at path (a link) is replaced, never
// followed.
func writeAtomic(dir, path string, data []byte) error {
	f, err := os.CreateTemp(dir, ".entry-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	err = f.Chmod(0o600)
	if runtime.GOOS == "windows" {
		err = nil // modes mean nothing there; the folder is the user's
	}
	if err == nil {
		_, err = f.Write(data)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// cut shortens s to at most n bytes at a character boundary, ending it
// in "…".
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	n -= len("…")
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return strings.TrimRightFunc(s[:n], func(r rune) bool { return r == ' ' }) + "…"
}
