package devserver

import (
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"slices"
)

// What the sessions of a store keep, against the server's caps (budget.go):
// each write to a session (a call, an event) brings the ledger up to date
// and, past a cap, drops the oldest entries of the sessions with the oldest
// activity; creating a session past a cap forgets an idle one. The store
// acts on its own sessions only (it holds its lock, never another store's):
// what another agent's sessions keep is dropped by that agent's next write.

// keptBytes is what s keeps, as the caps count it.
func (s *session) keptBytes() int64 {
	n := int64(s.bytes)
	if s.rec != nil {
		n += int64(s.rec.bytes)
	}
	return n
}

// account brings the ledger up to date with what s keeps. Callers hold mu.
func (st *sessionStore) account(s *session) {
	if d := s.keptBytes() - s.accounted; d != 0 {
		st.ledger.addBytes(s.Owner, d)
		s.accounted += d
	}
}

// enforce drops entries while the kept bytes of keep's owner, or of the
// server, are past their cap: from the sessions of this store with the
// oldest activity first (only the owner's when it is the owner's cap), a
// quarter of a session at least, so that a store at its cap does not copy
// a record on every write. keep, the session just written, keeps its newest
// call and event. Callers hold mu.
func (st *sessionStore) enforce(keep *session) {
	st.account(keep)
	done := map[*session]bool{}
	for {
		over, own := st.ledger.bytesOver(keep.Owner)
		if over <= 0 {
			return
		}
		var victim *session
		for _, s := range st.byID {
			if done[s] || own && s.Owner != keep.Owner || s.accounted == 0 {
				continue
			}
			if victim == nil || s.Updated < victim.Updated || s.Updated == victim.Updated && s.ID < victim.ID {
				victim = s
			}
		}
		if victim == nil {
			return // what is left is another agent's: its next write drops it
		}
		victim.shed(max(over, victim.accounted/4), victim == keep)
		if victim.keptBytes() == victim.accounted {
			done[victim] = true // nothing more to drop
		}
		st.account(victim)
	}
}

// shed drops s's oldest calls and records, then its oldest events, until n
// bytes are freed or nothing is left to drop (with keepNewest, its newest
// call and event stay).
func (s *session) shed(n int64, keepNewest bool) {
	start := s.keptBytes()
	freed := func() int64 { return start - s.keptBytes() }
	floor := 0
	if keepNewest {
		floor = 1
	}
	for freed() < n && len(s.Calls) > floor {
		at := s.Calls[0].At
		s.dropCall()
		for len(s.Records) > 0 && s.Records[0].At <= at {
			s.dropRecord()
		}
	}
	for freed() < n && len(s.Records) > 0 && len(s.Calls) <= floor {
		s.dropRecord()
	}
	if s.rec != nil && freed() < n {
		s.rec.shed(n-freed(), floor)
	}
	s.shedByCaps = s.shedByCaps || freed() > 0
}

// shed drops the oldest events until n bytes are freed, keeping at least
// floor. The events kept move to a new array: readers may hold the old one
// (an element once appended is never written), and the dropped lines must
// not stay reachable through it.
func (l *eventLog) shed(n int64, floor int) {
	var freed int64
	k := 0
	for freed < n && len(l.events)-k > floor {
		freed += int64(len(l.events[k].line) + eventOverhead)
		l.droppedAt = eventAt(l.events[k].line)
		k++
	}
	if k == 0 {
		return
	}
	l.bytes -= int(freed)
	l.events = slices.Clone(l.events[k:])
	if len(l.events) == 0 {
		l.events = nil
		l.first = l.next
	} else {
		l.first = l.events[0].index
	}
	l.shedByCaps = true
}

// admitSession makes room for one more session of owner: past a cap it
// forgets the session of this store with the oldest activity that runs no
// turn (the owner's, when it is the owner's cap), or answers 429
// too_many_sessions when there is none. Callers hold mu.
func (st *sessionStore) admitSession(owner string) *apiError {
	over, own := st.ledger.sessionsOver(owner)
	if !over {
		return nil
	}
	var victim *session
	for _, s := range st.byID {
		if own && s.Owner != owner || s.busy() || len(s.rs.parked) > 0 {
			continue
		}
		if victim == nil || s.Updated < victim.Updated || s.Updated == victim.Updated && s.ID < victim.ID {
			victim = s
		}
	}
	if victim == nil {
		if own {
			return errorf(http.StatusTooManyRequests, codeTooManySessions, fmt.Sprintf(
				"this principal has %d sessions, the most allowed, and each runs a turn; retry when one ends", maxSessionsPerPrincipal))
		}
		return errorf(http.StatusTooManyRequests, codeTooManySessions, fmt.Sprintf(
			"the server has %d sessions, the most allowed; retry later", maxSessions))
	}
	st.forget(victim)
	return nil
}

// forget removes a session: from memory, from the ledger and, with a
// state directory, its files. Callers hold mu.
func (st *sessionStore) forget(s *session) {
	delete(st.byID, s.ID)
	delete(st.byToken, s.Token)
	for _, tok := range s.Stale {
		if st.stale[tok] == s {
			delete(st.stale, tok)
		}
	}
	st.ledger.addSession(s.Owner, -1)
	st.ledger.addBytes(s.Owner, -s.accounted)
	s.accounted = 0
	if s.rec != nil {
		close(s.rec.notify) // its streams look again, find it gone, and end
		s.rec.notify = make(chan struct{})
	}
	if st.dir == "" {
		return
	}
	for _, name := range []string{s.ID + ".json", s.ID + ".calls.jsonl", s.ID + ".events.jsonl"} {
		if err := os.Remove(st.dir + string(os.PathSeparator) + name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			st.logf("devserver: forgetting session %s: %v", s.ID, err)
		}
	}
	st.logf("devserver: forgot session %s (the oldest idle one): the sessions are at their cap", s.ID)
}
