package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/meta"
	"github.com/agsh-dev/agsh/internal/privdir"
)

// statusFacts are what :status reports of this run: where the target, the
// team and the credential came from (docs/console.md#status), and the
// memory of the connection groups it saw listing.
func (a *app) statusFacts() meta.StatusFacts {
	f := meta.StatusFacts{ConnectErr: a.connectErr}
	f.Target, f.TargetFrom = a.optionFrom("--target", "AGENT_SHELL_TARGET")
	if t, err := catalog.ParseTarget(f.Target); err == nil && t.URL == "" {
		f.Team, f.TeamFrom = a.optionFrom("--team", "AGENT_SHELL_TEAM")
		f.TeamID = a.teamID
	}
	if a.credToken != "" {
		f.CredentialFrom = a.credentialFrom()
		f.CredentialTail, f.CredentialLen = meta.CredentialTail(a.credToken)
	}
	if path := a.statusMemoryPath(); path != "" {
		f.Seen = func() map[string]meta.SeenGroup { return readStatusMemory(path) }
		f.Remember = func(m map[string]meta.SeenGroup) { writeStatusMemory(path, m) }
	}
	return f
}

// optionFrom is a launch option's value and where it came from: the flag,
// else its variable ("" when neither gives it).
func (a *app) optionFrom(name, env string) (value, from string) {
	if v := a.g.Get(name); v != "" {
		return v, name
	}
	if v := a.getenv(env); v != "" {
		return v, env
	}
	return "", ""
}

// credentialFrom names where the credential sent came from, never the
// credential.
func (a *app) credentialFrom() string {
	switch o := a.cred; {
	case o.Var == catalog.TokenVariable && a.credFlag:
		return "--bearer-token"
	case o.Var != "":
		return o.Var
	case o.JSONKey != "":
		return "the stored login " + o.File + " (" + o.JSONKey + ")"
	case o.File != "":
		return "CURSOR_API_KEY_FILE (" + o.File + ")"
	}
	return "an unknown source"
}

// maxStatusMemory bounds the memory file :status reads.
const maxStatusMemory = 64 << 10

// statusMemoryPath is the file that remembers, for this target and
// credential, the connection groups :status saw listing:
// $XDG_STATE_HOME/agsh/status/<hash>.json, else
// ~/.local/state/agsh/status/<hash>.json. The name is a hash of the target
// and of the credential, so the file holds neither. "" when there is no
// such directory or no client.
func (a *app) statusMemoryPath() string {
	if a.client == nil {
		return ""
	}
	return statusMemoryFile(a.getenv("XDG_STATE_HOME"), a.env.HomeDir(), a.client.Target(), a.credToken)
}

// statusMemoryFile is statusMemoryPath's file for a state directory (the
// value of XDG_STATE_HOME), a home directory, a target and a credential.
func statusMemoryFile(stateHome, home, target, credential string) string {
	dir := stateHome
	if dir == "" || !filepath.IsAbs(dir) {
		if home == "" {
			return ""
		}
		dir = filepath.Join(home, ".local", "state")
	}
	cred := sha256.Sum256([]byte(credential))
	key := sha256.Sum256([]byte(target + "\n" + hex.EncodeToString(cred[:])))
	return filepath.Join(dir, "agsh", "status", hex.EncodeToString(key[:16])+".json")
}

// readStatusMemory reads the memory, bounded; a file that is missing, not
// a regular file, too big or not the memory reads as empty.
func readStatusMemory(path string) map[string]meta.SeenGroup {
	if !statusFolder(path, false) {
		return nil
	}
	st, err := os.Lstat(path)
	if err != nil || !st.Mode().IsRegular() || !privdir.Owned(st) || st.Size() > maxStatusMemory {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxStatusMemory+1))
	if err != nil || len(b) > maxStatusMemory {
		return nil
	}
	var doc struct {
		Groups map[string]meta.SeenGroup `json:"groups"`
	}
	if json.Unmarshal(b, &doc) != nil {
		return nil
	}
	return doc.Groups
}

// statusFolder checks the folders of the memory file path (made by
// statusMemoryFile: <state home>/agsh/status/<name>): agsh and agsh/status
// are each a real folder of the user's (no symbolic link) at 0700, repaired
// to 0700 when wider, created when create is set. A folder that cannot be
// so is neither read nor written: :status then compares nothing.
func statusFolder(path string, create bool) bool {
	dir := filepath.Dir(path)
	return privdir.EnsureChain(filepath.Dir(filepath.Dir(dir)), dir, create) == nil
}

// writeStatusMemory replaces the memory: a new file (0600) in the user's
// directory (0700), renamed into place, so that a link planted in its place
// is replaced, never written through. A failure is silent: :status does
// not depend on it.
func writeStatusMemory(path string, groups map[string]meta.SeenGroup) {
	dir := filepath.Dir(path)
	if !statusFolder(path, true) {
		return
	}
	b, err := json.Marshal(struct {
		Groups  map[string]meta.SeenGroup `json:"groups"`
		Written string                    `json:"written"`
	}{groups, time.Now().UTC().Format(time.RFC3339)})
	if err != nil || len(b) > maxStatusMemory {
		return
	}
	tmp, err := os.CreateTemp(dir, ".status-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), path) != nil {
		os.Remove(tmp.Name())
	}
}

// isStatus reports the :status command, which shows its screen even when
// the target did not resolve.
func isStatus(name string) bool { return strings.TrimSpace(name) == meta.MetaStatus }
