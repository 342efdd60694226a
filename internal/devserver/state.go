package devserver

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// newSessionStore makes an agent's session store. With a state directory it
// keeps one JSON file per session in <dir>/<slug>/ and loads the files found
// there; a file that cannot be read or parsed is reported and skipped.
func newSessionStore(stateDir, slug string, ledger *keptLedger, clk clock, logf func(string, ...any)) (*sessionStore, error) {
	st := &sessionStore{byID: map[string]*session{}, byToken: map[string]*session{}, stale: map[string]*session{},
		ledger: ledger, logf: logf, clk: clk}
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
		s.clk = clk
		st.loadLog(s)
		if s.legacy {
			// The first format kept the calls in the session file: move
			// them to the call log, so the next save keeps them.
			st.compactLog(s)
			st.persist(s)
		}
		loaded = append(loaded, s)
		tokens[s.Token]++
	}
	// A stamp in the future (a clock set wrong, an edited file) is brought
	// back to now: kept, it would pin every later stamp after it and stay
	// the latest session for good. Stamps a busy server handed out run a
	// little ahead of the clock (each is a millisecond after the last), so
	// up to futureSlack ahead is kept as it is.
	now := clk.now().UTC().Truncate(time.Millisecond)
	for _, s := range loaded {
		if tokens[s.Token] > 1 {
			// Two sessions answering one continuation token: neither can be
			// trusted to be the token's, so both are refused.
			logf("devserver: skipping saved session %s: its continuation token is also another saved session's", s.ID)
			continue
		}
		var future []string
		for _, stamp := range []*string{&s.Created, &s.Updated} {
			t, err := time.Parse(time.RFC3339Nano, *stamp)
			if err != nil {
				continue
			}
			if t.After(now.Add(futureSlack)) {
				future = append(future, *stamp)
				t = now
				*stamp = now.Format(stampLayout)
			}
			if t.After(st.last) {
				st.last = t
			}
		}
		if len(future) > 0 {
			logf("devserver: saved session %s has a time in the future (%s); using the current time", s.ID, strings.Join(slices.Compact(future), ", "))
		}
		st.byID[s.ID] = s
		st.byToken[s.Token] = s
	}
	for _, s := range st.byID {
		if len(s.Stale) > maxStaleTokens {
			s.Stale = s.Stale[len(s.Stale)-maxStaleTokens:]
		}
		for _, tok := range s.Stale {
			if st.byToken[tok] == nil && st.stale[tok] == nil {
				st.stale[tok] = s
			}
		}
		if s.Mode == "" {
			s.Mode = modeChat
		}
		if st.loadRecord(s) {
			st.persist(s)
		}
		st.ledger.addSession(s.Owner, 1)
		st.account(s)
	}
	// Loaded past the caps on kept bytes (they were lowered, or another
	// agent's sessions count too): drop the oldest.
	for _, s := range st.byID {
		st.enforce(s)
	}
	return st, nil
}

// futureSlack is how far ahead of the clock a loaded stamp may be.
const futureSlack = time.Minute

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
	// A session saved in the first format holds its calls; they count
	// toward the caps like the call log's.
	calls, records := s.Calls, s.Records
	s.legacy = len(calls)+len(records) > 0
	s.Calls, s.Records = []callRecord{}, []record{}
	for _, cr := range calls {
		s.addCall(cr, nil)
	}
	for _, r := range records {
		s.Records = append(s.Records, r)
		s.bytes += r.size()
	}
	s.trim()
	return &s, nil
}

// persist writes the session's file: the session without its calls, which
// its call log holds (calllog.go). Callers hold mu. A failure is logged:
// the session lives on in memory.
func (st *sessionStore) persist(s *session) {
	if st.dir == "" {
		return
	}
	head := *s
	head.Calls, head.Records = nil, nil
	b, err := json.MarshalIndent(&head, "", "  ")
	if err != nil {
		st.logf("devserver: saving session %s: %v", s.ID, err)
		return
	}
	if err := writeAtomic(st.dir, s.ID+".json", append(b, '\n')); err != nil {
		st.logf("devserver: saving session %s: %v", s.ID, err)
	}
}
