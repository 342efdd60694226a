package devserver

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"sort"
	"sync"
	"time"

	"github.com/agsh-dev/agsh/internal/wire"
)

// stampLayout is the timestamp format of sessions and calls: RFC 3339 in
// UTC with fixed milliseconds, so stamps also sort as strings.
const stampLayout = "2006-01-02T15:04:05.000Z07:00"

// session is one session of an agent, as kept in memory and persisted.
type session struct {
	ID      string `json:"sessionId"`
	Token   string `json:"continuationToken"`
	Title   string `json:"title,omitempty"`
	Mode    string `json:"mode"`
	Owner   string `json:"owner"`
	Message string `json:"message,omitempty"`
	Created string `json:"createdAt"`
	Updated string `json:"updatedAt"`

	// Running and Queued are the marks of POST /v1/dev/turn; the scripted
	// agent's turns are rs.
	Running     bool `json:"running"`
	Queued      bool `json:"queued"`
	Unavailable bool `json:"workspaceUnavailable,omitempty"`
	// DryRun: the session was created with "dryRun": its turns run read
	// tools and get stub results for every other tool (scriptcall.go).
	DryRun bool `json:"dryRun,omitempty"`
	// Ended is how a task session's turn ended: "completed" or "failed".
	Ended string `json:"ended,omitempty"`
	// Stale are the continuation tokens follow-ups rotated away, oldest
	// first (at most maxStaleTokens).
	Stale []string `json:"staleTokens,omitempty"`

	// Calls and Records are kept in memory and in the session's call log
	// (calllog.go); a saved session of the first format holds them here.
	Calls   []callRecord `json:"calls,omitempty"`
	Records []record     `json:"records,omitempty"`

	// DroppedCalls and DroppedRecords count what the caps dropped.
	DroppedCalls   int   `json:"-"`
	DroppedRecords int   `json:"-"`
	bytes          int   // the size of Calls and Records, for the cap
	logBytes       int64 // the size of the call log on disk
	legacy         bool  // loaded from a file of the first format
	// accounted is what the ledger counts for the session (kept.go);
	// shedByCaps is set once the server's caps dropped some of it.
	accounted  int64
	shedByCaps bool

	rec *eventLog // the record of events (record.go); nil until needed
	rs  runState  // the scripted agent's turns (turns.go)
	clk clock     // the store's clock, for the record's times
}

// clock is the deployment's clock: the real one moved by an offset
// (--clock-offset, docs/devserver.md#flags), so that a test sees a call
// that asked for approval a quarter of an hour ago without waiting for it.
// It stamps the session rows and the record's events.
type clock struct{ offset time.Duration }

func (c clock) now() time.Time { return time.Now().Add(c.offset) }

// Session modes.
const (
	modeChat = "chat"
	modeTask = "task"
)

// maxStaleTokens bounds the rotated-away tokens a session remembers; an
// older one is then no longer known at all.
const maxStaleTokens = 10000

// callRecord is one session-bound call, as GET /v1/dev/sessions/{id}/calls
// lists it. Input is the input JSON as the caller sent it.
type callRecord struct {
	CallID   string   `json:"callId"`
	ToolName string   `json:"toolName"`
	Input    jsonText `json:"input"`
	TurnID   string   `json:"turnId"`
	IsError  bool     `json:"isError"`
	At       string   `json:"at"`
	Scratch  bool     `json:"scratchWorkspace,omitempty"`
}

// record is something a tool recorded on the session (tool.Call.Record).
type record struct {
	Kind   string   `json:"kind"`
	CallID string   `json:"callId"`
	Value  jsonText `json:"value"`
	At     string   `json:"at"`
}

// jsonText is JSON kept byte for byte. A state file holds it as a JSON
// string, since an embedded value would be reformatted on the way.
type jsonText []byte

// MarshalJSON encodes the bytes as a JSON string.
func (j jsonText) MarshalJSON() ([]byte, error) { return json.Marshal(string(j)) }

// UnmarshalJSON takes a JSON string holding the bytes, or a JSON value as is.
func (j *jsonText) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		if !json.Valid([]byte(s)) {
			return errors.New("saved JSON text is not valid JSON")
		}
		*j = jsonText(s)
		return nil
	}
	*j = append((*j)[:0], b...)
	return nil
}

// busy reports whether a model turn owns the session's workspace.
func (s *session) busy() bool { return s.running() || s.queued() }

// running reports whether a turn runs (the scripted agent's, or one marked).
func (s *session) running() bool { return s.Running || s.rs.active != nil }

// queued reports whether a turn waits to run.
func (s *session) queued() bool { return s.Queued || len(s.rs.queue) > 0 }

// log is the session's record, made when first needed.
func (s *session) log() *eventLog {
	if s.rec == nil {
		s.rec = newEventLog(s.clk)
	}
	return s.rec
}

// row is the session as GET /v1/sessions lists it: status waiting,
// running, waiting_approval (a call is parked), or for a task session whose
// turn ended, completed or failed.
func (s *session) row() wire.Session {
	status := "waiting"
	switch {
	case len(s.rs.parked) > 0:
		status = "waiting_approval"
	case s.busy():
		status = "running"
	case s.Ended != "":
		status = s.Ended
	}
	return wire.Session{
		SessionID: s.ID, ContinuationToken: s.Token, Title: s.Title, Mode: s.Mode,
		Status: status, Running: s.running(), Queued: s.queued(),
		CreatedAt: s.Created, UpdatedAt: s.Updated, DryRun: s.DryRun, Principal: s.Owner,
	}
}

// sessionStore holds one agent's sessions and persists them when it has a
// directory.
type sessionStore struct {
	mu      sync.Mutex
	byID    map[string]*session
	byToken map[string]*session
	stale   map[string]*session // tokens rotated away by a follow-up
	last    time.Time           // the latest stamp handed out
	dir     string              // "" keeps sessions in memory only
	ledger  *keptLedger         // the server's caps (kept.go)
	clk     clock               // the deployment's clock
	logf    func(string, ...any)
}

// stamp returns the current time as a stamp, strictly after every stamp
// handed out before, so "newest activity" is never a tie. Callers hold mu.
func (st *sessionStore) stamp() string {
	now := st.clk.now().UTC().Truncate(time.Millisecond)
	if !now.After(st.last) {
		now = st.last.Add(time.Millisecond)
	}
	st.last = now
	return now.Format(stampLayout)
}

// create adds a session owned by owner, forgetting an idle one past the
// caps on sessions (or answering 429 too_many_sessions).
func (st *sessionStore) create(owner, message, title, mode string, dryRun bool) (*session, *apiError) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if aerr := st.admitSession(owner); aerr != nil {
		return nil, aerr
	}
	now := st.stamp()
	s := &session{
		ID: "ses_" + randomHex(8), Token: newToken(),
		Title: title, Mode: mode, Owner: owner, Message: message, DryRun: dryRun,
		Created: now, Updated: now, Calls: []callRecord{}, Records: []record{}, clk: st.clk,
	}
	st.byID[s.ID] = s
	st.byToken[s.Token] = s
	st.ledger.addSession(owner, 1)
	st.persist(s)
	return s, nil
}

// list returns the rows of owner's sessions, newest activity first.
func (st *sessionStore) list(owner string) []wire.Session {
	st.mu.Lock()
	defer st.mu.Unlock()
	rows := []wire.Session{}
	for _, s := range st.byID {
		if s.Owner == owner {
			rows = append(rows, s.row())
		}
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].UpdatedAt != rows[j].UpdatedAt {
			return rows[i].UpdatedAt > rows[j].UpdatedAt
		}
		if rows[i].CreatedAt != rows[j].CreatedAt {
			return rows[i].CreatedAt > rows[j].CreatedAt
		}
		return rows[i].SessionID < rows[j].SessionID
	})
	return rows
}

// addCall records a call and what it recorded on the session id: in
// memory (capped) and appended to its call log. The call bumps the
// session's activity time; its stamp is set here.
func (st *sessionStore) addCall(id string, cr callRecord, records []record) {
	st.mu.Lock()
	defer st.mu.Unlock()
	s := st.byID[id]
	if s == nil {
		return
	}
	now := st.stamp()
	cr.At = now
	for i := range records {
		records[i].At = now
	}
	s.addCall(cr, records)
	s.Updated = now
	st.appendLog(s, cr, records)
	st.enforce(s)
}

// with runs fn on the session id under the store's lock; fn reports whether
// it changed the session, which then is persisted. It returns false when
// there is no such session.
func (st *sessionStore) with(id string, fn func(s *session) (changed bool)) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	s := st.byID[id]
	if s == nil {
		return false
	}
	if fn(s) {
		st.persist(s)
	}
	return true
}

// byTok returns the id and owner of the session behind a continuation
// token, current or rotated away (stale); ok is false when none.
func (st *sessionStore) byTok(tok string) (id, owner string, stale, ok bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if s := st.byToken[tok]; s != nil {
		return s.ID, s.Owner, false, true
	}
	if s := st.stale[tok]; s != nil {
		return s.ID, s.Owner, true, true
	}
	return "", "", false, false
}

// rotateLocked gives the session a new continuation token; the old one is
// stale from then on. Callers hold mu.
func (st *sessionStore) rotateLocked(s *session) {
	old := s.Token
	s.Token = newToken()
	delete(st.byToken, old)
	st.byToken[s.Token] = s
	st.stale[old] = s
	s.Stale = append(s.Stale, old)
	if len(s.Stale) > maxStaleTokens {
		delete(st.stale, s.Stale[0])
		s.Stale = append([]string(nil), s.Stale[1:]...)
	}
}

// newToken makes a continuation token, http:<random>.
func newToken() string { return "http:" + randomHex(12) }

// emit appends an event to the session's record and to its file (--state).
// Callers hold mu.
func (st *sessionStore) emit(s *session, typ string, data []byte, callID string) {
	ev := s.log().add(typ, data, callID)
	st.appendEvent(s, ev)
	st.enforce(s)
}

// emitTo is emit for the session id, taking the lock.
func (st *sessionStore) emitTo(id, typ string, data []byte, callID string) {
	st.with(id, func(s *session) bool {
		st.emit(s, typ, data, callID)
		return false
	})
}

// randomHex returns n random bytes in hex.
func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return hex.EncodeToString(b)
}
