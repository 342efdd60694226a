package console

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agsh-dev/agsh/catalog"
)

// Finding a session (docs/console.md#finding-a-session): the listing
// filtered by state, last activity, title and the tools a record calls.
// Each find costs one GET /v1/sessions and, only when a filter needs what
// the listing cannot say (--tool, a chat session's failed or stopped
// turn), the records of at most MaxRecordReads sessions, the most recently
// active first, RecordReaders at a time; a finder that runs again (watch)
// reads again only the records of sessions whose activity changed.

// The states a session is in.
const (
	StateRunning  = "running"
	StateQueued   = "queued"
	StateApproval = "approval"
	StateWaiting  = "waiting"
	StateFailed   = "failed"
	StateStopped  = "stopped"
	StateDone     = "done"
)

// States are the states --state accepts, in the order help lists them.
var States = []string{StateRunning, StateQueued, StateApproval, StateWaiting, StateFailed, StateStopped, StateDone}

// MaxRecordReads bounds the records one find reads; RecordReaders how many
// at a time.
const (
	MaxRecordReads = 50
	RecordReaders  = 4
)

// ListedState is a session's state as its listing row says it: a parked
// call's session is approval; one with a turn waiting to run (queued:
// true, behind a running turn or for a slot) queued, whatever its status
// says; one whose turn runs and none waits running; a task session whose
// turn ended is failed or done; any other is waiting (a chat session waits
// for a follow-up).
// Whether a chat session's last turn failed or was stopped only its record
// says (RecordFacts).
func ListedState(s catalog.Session) string {
	switch {
	case s.Status == "waiting_approval":
		return StateApproval
	case s.Queued:
		return StateQueued
	case s.Running || s.Status == "running":
		return StateRunning
	case s.Status == "failed":
		return StateFailed
	case s.Status == "completed":
		return StateDone
	}
	return StateWaiting
}

// LastActivity is a row's updatedAt, else its createdAt, and whether it
// reads as a time.
func LastActivity(s catalog.Session) (time.Time, bool) {
	at := s.UpdatedAt
	if at == "" {
		at = s.CreatedAt
	}
	t, err := time.Parse(time.RFC3339Nano, at)
	return t, err == nil
}

// SessionFilter is what :sessions' filters keep; the zero filter keeps
// every session.
type SessionFilter struct {
	// State is one of States ("": any).
	State string
	// Since keeps sessions active within it (0: any).
	Since time.Duration
	// Tool keeps sessions whose record calls the tool.
	Tool string
	// Title keeps sessions whose title holds the text, case aside.
	Title string
}

// needsRecord reports whether the filter needs s's record to decide, given
// its listed state.
func (f SessionFilter) needsRecord(listed string) bool {
	if f.Tool != "" {
		return true
	}
	switch f.State {
	case StateFailed, StateStopped:
		return listed == StateWaiting || listed == StateFailed
	case StateWaiting:
		return listed == StateWaiting
	}
	return false
}

// RecordFacts is what the finder reads from a record.
type RecordFacts struct {
	// LastEnd is how the last turn ended: StateDone, StateFailed (a
	// turn.failed whose reason is not interrupted), StateStopped
	// (interrupted); "" when no turn ended, or one started after it.
	LastEnd string
	// CallsTool: a call of the filter's tool is in the record.
	CallsTool bool
}

// readFacts reads session id's record once for its facts.
func readFacts(ctx context.Context, c *catalog.Client, id, tool string) (RecordFacts, error) {
	var f RecordFacts
	err := c.Record(ctx, id, func(ev *catalog.Event) error {
		switch ev.Type {
		case catalog.EventTurnStarted:
			f.LastEnd = ""
		case catalog.EventTurnCompleted:
			f.LastEnd = StateDone
		case catalog.EventTurnFailed:
			f.LastEnd = StateFailed
			if ev.Fields().Reason == "interrupted" {
				f.LastEnd = StateStopped
			}
		case catalog.EventActionsRequested, catalog.EventApprovalRequested, catalog.EventActionResult:
			if tool != "" && !f.CallsTool {
				d := ev.Fields()
				f.CallsTool = d.ToolName == tool
				for _, call := range d.Calls {
					f.CallsTool = f.CallsTool || call.ToolName == tool
				}
			}
		}
		return nil
	}, nil)
	return f, err
}

// State is a session's state from its row and, when read, its record: an
// idle session whose last turn failed is failed, whose last turn was
// interrupted is stopped.
func State(s catalog.Session, facts *RecordFacts) string {
	listed := ListedState(s)
	if facts == nil {
		return listed
	}
	switch listed {
	case StateWaiting, StateFailed, StateDone:
		if facts.LastEnd == StateFailed || facts.LastEnd == StateStopped {
			return facts.LastEnd
		}
	}
	return listed
}

// FoundSession is a session the finder kept, with its state.
type FoundSession struct {
	catalog.Session
	State string
}

// Found is what one find kept.
type Found struct {
	// Sessions are the sessions kept, in the listing's order.
	Sessions []FoundSession
	// Listed counts the listing's rows.
	Listed int
	// Unsearched counts the sessions whose record the filter needed past
	// MaxRecordReads (left out: they may match); Unread the records that
	// could not be read (left out too), Err the first such error.
	Unsearched, Unread int
	Err                error
}

// Finder finds sessions; one that runs again keeps what it read of each
// record until the session's activity changes.
type Finder struct {
	Client *catalog.Client
	Filter SessionFilter
	// Now is the clock (nil: time.Now).
	Now func() time.Time

	mu    sync.Mutex
	facts map[string]keptFacts
}

type keptFacts struct {
	activity string
	facts    RecordFacts
}

// Find lists the sessions and keeps those the filter keeps.
func (f *Finder) Find(ctx context.Context) (Found, error) {
	ss, err := f.Client.Sessions(ctx)
	if err != nil {
		return Found{}, err
	}
	return f.FindIn(ctx, ss), nil
}

// FindIn is Find over a listing already read.
func (f *Finder) FindIn(ctx context.Context, ss []catalog.Session) Found {
	now := time.Now
	if f.Now != nil {
		now = f.Now
	}
	flt := f.Filter
	out := Found{Listed: len(ss)}
	title := strings.ToLower(flt.Title)
	var cand []int // rows that pass what the listing says
	for i, s := range ss {
		if flt.Since > 0 {
			at, ok := LastActivity(s)
			if !ok || now().Sub(at) > flt.Since {
				continue
			}
		}
		if title != "" && !strings.Contains(strings.ToLower(s.Title), title) {
			continue
		}
		listed := ListedState(s)
		if flt.State != "" && !flt.needsRecord(listed) && listed != flt.State {
			continue
		}
		cand = append(cand, i)
	}
	facts := f.readAll(ctx, ss, cand, &out)
	for _, i := range cand {
		s := ss[i]
		fs, need := facts[i]
		if flt.needsRecord(ListedState(s)) && !need {
			continue // past the bound, or unreadable
		}
		var fp *RecordFacts
		if need {
			fp = &fs
		}
		st := State(s, fp)
		if flt.State != "" && st != flt.State || flt.Tool != "" && !fs.CallsTool {
			continue
		}
		out.Sessions = append(out.Sessions, FoundSession{Session: s, State: st})
	}
	return out
}

// readAll reads the facts of the candidate rows whose filter needs them:
// the most recently active first, at most MaxRecordReads, RecordReaders at
// a time; a kept read is used while the session's activity is unchanged.
func (f *Finder) readAll(ctx context.Context, ss []catalog.Session, cand []int, out *Found) map[int]RecordFacts {
	var need []int
	for _, i := range cand {
		if f.Filter.needsRecord(ListedState(ss[i])) && ss[i].SessionID != "" {
			need = append(need, i)
		}
	}
	got := make(map[int]RecordFacts, len(need))
	if len(need) == 0 {
		return got
	}
	slices.SortStableFunc(need, func(a, b int) int {
		ta, oka := LastActivity(ss[a])
		tb, okb := LastActivity(ss[b])
		switch {
		case oka && okb:
			return tb.Compare(ta)
		case oka:
			return -1
		case okb:
			return 1
		}
		return 0
	})
	f.mu.Lock()
	if f.facts == nil {
		f.facts = map[string]keptFacts{}
	}
	var read []int
	for _, i := range need {
		s := ss[i]
		if k, ok := f.facts[s.SessionID]; ok && k.activity == activityKey(s) {
			got[i] = k.facts
			continue
		}
		if len(read) == MaxRecordReads {
			out.Unsearched++
			continue
		}
		read = append(read, i)
	}
	f.mu.Unlock()
	var mu sync.Mutex
	var wg sync.WaitGroup
	slots := make(chan struct{}, RecordReaders)
	for _, i := range read {
		wg.Add(1)
		slots <- struct{}{}
		go func(i int) {
			defer wg.Done()
			defer func() { <-slots }()
			s := ss[i]
			fs, err := readFacts(ctx, f.Client, s.SessionID, f.Filter.Tool)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				out.Unread++
				if out.Err == nil {
					out.Err = err
				}
				return
			}
			got[i] = fs
			f.mu.Lock()
			f.facts[s.SessionID] = keptFacts{activity: activityKey(s), facts: fs}
			f.mu.Unlock()
		}(i)
	}
	wg.Wait()
	// Forget the sessions the listing no longer has.
	f.mu.Lock()
	if len(f.facts) > 2*len(ss)+MaxRecordReads {
		listed := make(map[string]bool, len(ss))
		for _, s := range ss {
			listed[s.SessionID] = true
		}
		for id := range f.facts {
			if !listed[id] {
				delete(f.facts, id)
			}
		}
	}
	f.mu.Unlock()
	return got
}

// activityKey is what changes when a session does: its activity and state.
func activityKey(s catalog.Session) string {
	return s.UpdatedAt + "\x00" + s.CreatedAt + "\x00" + s.Status + "\x00" + boolKey(s.Running) + boolKey(s.Queued)
}

func boolKey(b bool) string {
	if b {
		return "1"
	}
	return "0"
}
