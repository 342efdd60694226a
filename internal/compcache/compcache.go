// Package compcache is the per-target catalog cache of shell completion
// (`agsh --completion`): the listing and every tool's input schema, kept
// under $XDG_CACHE_HOME/agsh/ (else ~/.cache/agsh/) in one 0600 file per
// target and principal. The file is named by hashes of the target and of the
// credential; it holds neither, nor anything else the user sent. Only shell
// completion reads it: help and calls always ask the deployment. An entry
// older than TTL is still answered from (the shell never waits) while a
// detached agsh refreshes it.
package compcache

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/agsh-dev/agsh/catalog"
)

// TTL is how long an entry is fresh; an older one is refreshed in the
// background.
const TTL = 5 * time.Minute

// Entry is what the cache holds for one target and principal.
type Entry struct {
	// Fetched is when the deployment answered.
	Fetched time.Time `json:"fetched"`
	// Tools is the listing (/v1/tools), in the deployment's order.
	Tools []catalog.ToolEntry `json:"tools"`
	// Schemas are the tools' input schemas by name (/v1/info).
	Schemas map[string]json.RawMessage `json:"schemas"`
}

// Fresh reports whether e was fetched less than TTL before now.
func (e *Entry) Fresh(now time.Time) bool {
	return now.Sub(e.Fetched) < TTL && !e.Fetched.After(now.Add(time.Minute))
}

// Dir answers the cache directory from the environment: $XDG_CACHE_HOME/agsh,
// else $HOME/.cache/agsh; "" when neither is set.
func Dir(getenv func(string) string) string {
	if d := getenv("XDG_CACHE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "agsh")
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".cache", "agsh")
	}
	return ""
}

// Key answers the file name of a target's entry for a principal: hashes of
// the target (its canonical spelling, team included) and of the credential
// ("" when there is none), so the name reveals neither.
func Key(target, credential string) string {
	t := sha256.Sum256([]byte("agsh-target\x00" + target))
	p := sha256.Sum256([]byte("agsh-principal\x00" + credential))
	return "catalog-" + hex.EncodeToString(t[:10]) + "-" + hex.EncodeToString(p[:10]) + ".json"
}

// Load reads the entry stored under key in dir; a missing or unreadable
// entry is (nil, nil): completion then has nothing to offer.
func Load(dir, key string) (*Entry, error) {
	b, err := os.ReadFile(filepath.Join(dir, key))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var e Entry
	if err := json.Unmarshal(b, &e); err != nil {
		return nil, nil
	}
	return &e, nil
}

// Save writes e under key in dir (created 0700), readable by the user alone
// (0600), atomically: a concurrent Load sees the old entry or the new one.
func Save(dir, key string, e *Entry) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".catalog-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	if err := f.Chmod(0o600); err == nil {
		_, err = f.Write(b)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(tmp, filepath.Join(dir, key))
		}
		if err == nil {
			return nil
		}
	} else {
		f.Close()
	}
	os.Remove(tmp)
	return err
}

// Detail answers the cached detail of the tool name (nil when unknown): its
// listing entry and input schema, what command shapes and flags need.
func (e *Entry) Detail(name string) *catalog.ToolDetail {
	for _, t := range e.Tools {
		if t.Name == name {
			return &catalog.ToolDetail{Name: t.Name, Title: t.Title, Source: t.Source, InputSchema: e.Schemas[name]}
		}
	}
	return nil
}
