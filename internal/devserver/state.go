package devserver

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// newSessionStore makes an agent's session store. With a state directory it
// keeps one JSON file per session in <dir>/<slug>/ and loads the files found
// there; a file that cannot be read or parsed is reported and skipped.
func newSessionStore(stateDir, slug string, logf func(string, ...any)) (*sessionStore, error) {
	st := &sessionStore{byID: map[string]*session{}, byToken: map[string]*session{}, logf: logf}
	if stateDir == "" {
		return st, nil
	}
	st.dir = filepath.Join(stateDir, slug)
	if err := os.MkdirAll(st.dir, 0o755); err != nil {
		return nil, fmt.Errorf("devserver: state directory: %w", err)
	}
	names, err := os.ReadDir(st.dir)
	if err != nil {
		return nil, fmt.Errorf("devserver: state directory: %w", err)
	}
	var loaded []*session
	tokens := map[string]int{}
	for _, de := range names {
		name := de.Name()
		if de.IsDir() || !strings.HasPrefix(name, "ses_") || !strings.HasSuffix(name, ".json") {
			continue
		}
		s, err := loadSession(filepath.Join(st.dir, name))
		if err != nil {
			logf("devserver: skipping saved session %s: %v", name, err)
			continue
		}
		loaded = append(loaded, s)
		tokens[s.Token]++
	}
	// A stamp in the future (a clock set wrong, an edited file) is brought
	// back to now: kept, it would pin every later stamp after it and stay
	// the latest session for good.
	now := time.Now().UTC().Truncate(time.Millisecond)
	for _, s := range loaded {
		if tokens[s.Token] > 1 {
			// Two sessions answering one continuation token: neither can be
			// trusted to be the token's, so both are refused.
			logf("devserver: skipping saved session %s: its continuation token is also another saved session's", s.ID)
			continue
		}
		for _, stamp := range []*string{&s.Created, &s.Updated} {
			t, err := time.Parse(time.RFC3339Nano, *stamp)
			if err != nil {
				continue
			}
			if t.After(now) {
				logf("devserver: saved session %s has a time in the future (%s); using the current time", s.ID, *stamp)
				t = now
				*stamp = now.Format(stampLayout)
			}
			if t.After(st.last) {
				st.last = t
			}
		}
		st.byID[s.ID] = s
		st.byToken[s.Token] = s
	}
	return st, nil
}

// loadSession reads one saved session and checks it is whole.
func loadSession(path string) (*session, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s session
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	if !strings.HasPrefix(s.ID, "ses_") || filepath.Base(path) != s.ID+".json" {
		return nil, fmt.Errorf("session id %q does not match the file name", s.ID)
	}
	if !strings.Contains(s.Token, ":") {
		return nil, fmt.Errorf("session %s has no valid continuation token", s.ID)
	}
	if s.Calls == nil {
		s.Calls = []callRecord{}
	}
	if s.Records == nil {
		s.Records = []record{}
	}
	return &s, nil
}

// persist writes the session's file (write to a temporary file, then
// rename, so a crash never leaves half a file). Callers hold mu. A failure
// is logged: the session lives on in memory.
func (st *sessionStore) persist(s *session) {
	if st.dir == "" {
		return
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		st.logf("devserver: saving session %s: %v", s.ID, err)
		return
	}
	path := filepath.Join(st.dir, s.ID+".json")
	tmp, err := os.CreateTemp(st.dir, ".tmp-"+s.ID+"-*")
	if err != nil {
		st.logf("devserver: saving session %s: %v", s.ID, err)
		return
	}
	_, werr := tmp.Write(append(b, '\n'))
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		_ = os.Remove(tmp.Name())
		st.logf("devserver: saving session %s: %v", s.ID, werr)
	}
}
