package devserver

import (
	"context"
	"fmt"
	"net/http"
	"sync"
)

// The server's memory is bounded as a whole (docs/devserver.md#bounds), not
// only per request or per session: what the sessions keep (their calls,
// what tools recorded, their records of events) and the faults armed have
// caps per principal and on the whole server, and the request bodies large
// enough to matter are read a few at a time.
//
// (Variables so that tests can make them small.)
var (
	// maxSessionsPerPrincipal and maxSessions cap the sessions kept; past
	// a cap, creating one forgets the session of the principal (or of
	// anyone) with the oldest activity that runs no turn.
	maxSessionsPerPrincipal = 1000
	maxSessions             = 10000
	// maxKeptPerPrincipal and maxKept cap the bytes the sessions keep:
	// calls, records and events together. Past a cap, the oldest entries
	// of the sessions with the oldest activity are dropped (the session
	// just written keeps its newest call and event).
	maxKeptPerPrincipal int64 = 128 << 20
	maxKept             int64 = 256 << 20
	// maxFaultsPerPrincipal, maxFaults, maxFaultBytesPerPrincipal and
	// maxFaultBytes cap the armed faults and their bodies (429 past them).
	maxFaultsPerPrincipal           = 256
	maxFaults                       = 4096
	maxFaultBytesPerPrincipal int64 = 256 << 20
	maxFaultBytes             int64 = 512 << 20
	// largeBody is the size from which a request body goes through the
	// body gate; maxLargeBodies the bytes of such bodies handled at once
	// (a larger one waits for the others to finish, then goes alone).
	largeBody      int64 = 1 << 20
	maxLargeBodies int64 = 96 << 20
)

// Codes of the caps.
const (
	codeTooManySessions = "too_many_sessions"
	codeTooManyFaults   = "too_many_faults"
)

// keptLedger counts the sessions and the bytes they keep, per principal
// and in all, across the agents of a server. The stores update it under
// their own lock (store, then ledger: never the other way).
type keptLedger struct {
	mu            sync.Mutex
	sessions      map[string]int
	bytes         map[string]int64
	totalSessions int
	totalBytes    int64
}

func newKeptLedger() *keptLedger {
	return &keptLedger{sessions: map[string]int{}, bytes: map[string]int64{}}
}

func (l *keptLedger) addSession(owner string, n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sessions[owner] += n
	l.totalSessions += n
	if l.sessions[owner] <= 0 {
		delete(l.sessions, owner)
	}
}

func (l *keptLedger) addBytes(owner string, n int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.bytes[owner] += n
	l.totalBytes += n
	if l.bytes[owner] <= 0 {
		delete(l.bytes, owner)
	}
}

// sessionsOver reports whether one more session of owner is past a cap,
// and whether the principal's cap (rather than the server's) is the one.
func (l *keptLedger) sessionsOver(owner string) (over, own bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.sessions[owner] >= maxSessionsPerPrincipal {
		return true, true
	}
	return l.totalSessions >= maxSessions, false
}

// bytesOver is how far owner's kept bytes are past their cap, or else how
// far the server's are (own false); 0 when neither is.
func (l *keptLedger) bytesOver(owner string) (over int64, own bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if n := l.bytes[owner] - maxKeptPerPrincipal; n > 0 {
		return n, true
	}
	return max(l.totalBytes-maxKept, 0), false
}

// faultLedger counts the armed faults and their body bytes, per principal
// and in all, across the agents of a server. A fault set updates it under
// its own lock (fault set, then ledger).
type faultLedger struct {
	mu         sync.Mutex
	count      map[string]int
	bytes      map[string]int64
	totalCount int
	totalBytes int64
}

func newFaultLedger() *faultLedger {
	return &faultLedger{count: map[string]int{}, bytes: map[string]int64{}}
}

// reserve counts one more fault of principal with a body of n bytes, or
// answers the 429 of the cap it would pass.
func (l *faultLedger) reserve(principal string, n int64) *apiError {
	l.mu.Lock()
	defer l.mu.Unlock()
	var msg string
	switch {
	case l.count[principal] >= maxFaultsPerPrincipal:
		msg = fmt.Sprintf("this principal has %d faults armed, the most allowed; clear them (DELETE /v1/dev/faults) or let them fire", maxFaultsPerPrincipal)
	case l.bytes[principal]+n > maxFaultBytesPerPrincipal:
		msg = fmt.Sprintf("the bodies of this principal's armed faults would pass %s, the most allowed; clear them (DELETE /v1/dev/faults) or let them fire", sizeText(maxFaultBytesPerPrincipal))
	case l.totalCount >= maxFaults:
		msg = fmt.Sprintf("the server has %d faults armed, the most allowed; retry later", maxFaults)
	case l.totalBytes+n > maxFaultBytes:
		msg = fmt.Sprintf("the bodies of the server's armed faults would pass %s, the most allowed; retry later", sizeText(maxFaultBytes))
	default:
		l.count[principal]++
		l.bytes[principal] += n
		l.totalCount++
		l.totalBytes += n
		return nil
	}
	return errorf(http.StatusTooManyRequests, codeTooManyFaults, msg)
}

// release forgets one fault of principal with a body of n bytes.
func (l *faultLedger) release(principal string, n int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.totalCount--
	l.totalBytes -= n
	if l.count[principal]--; l.count[principal] <= 0 {
		delete(l.count, principal)
	}
	if l.bytes[principal] -= n; l.bytes[principal] <= 0 {
		delete(l.bytes, principal)
	}
}

// sizeText says n bytes in MiB when it is whole MiB, else in bytes.
func sizeText(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// keptNote is what a note of dropped entries adds when the server's caps
// dropped some.
func keptNote() string {
	return fmt.Sprintf(", and the sessions of one principal keep %s of calls and events together, the whole server %s",
		sizeText(maxKeptPerPrincipal), sizeText(maxKept))
}

// bodyGate lets large request bodies in a few at a time: at most max bytes
// of them at once, first come first served. A body larger than max waits
// until it can go alone.
type bodyGate struct {
	mu      sync.Mutex
	max     int64
	used    int64
	waiters []*gateWaiter
}

type gateWaiter struct {
	n     int64
	ready chan struct{} // closed once admitted
}

func newBodyGate(max int64) *bodyGate { return &bodyGate{max: max} }

// enter waits until a body of n bytes may be read, or ctx ends (false).
// The caller calls leave(n) when done with the body and all it made.
func (g *bodyGate) enter(ctx context.Context, n int64) bool {
	n = min(n, g.max)
	g.mu.Lock()
	if len(g.waiters) == 0 && g.used+n <= g.max {
		g.used += n
		g.mu.Unlock()
		return true
	}
	w := &gateWaiter{n: n, ready: make(chan struct{})}
	g.waiters = append(g.waiters, w)
	g.mu.Unlock()
	select {
	case <-w.ready:
		return true
	case <-ctx.Done():
		g.mu.Lock()
		defer g.mu.Unlock()
		select {
		case <-w.ready: // admitted meanwhile: give it back
			g.used -= n
			g.admitLocked()
			return false
		default:
		}
		for i, x := range g.waiters {
			if x == w {
				g.waiters = append(g.waiters[:i], g.waiters[i+1:]...)
				break
			}
		}
		g.admitLocked()
		return false
	}
}

// leave gives back what enter(n) took.
func (g *bodyGate) leave(n int64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.used -= min(n, g.max)
	g.admitLocked()
}

// admitLocked admits the waiters at the head of the line that fit.
func (g *bodyGate) admitLocked() {
	for len(g.waiters) > 0 && g.used+g.waiters[0].n <= g.max {
		w := g.waiters[0]
		g.waiters[0] = nil
		g.waiters = g.waiters[1:]
		g.used += w.n
		close(w.ready)
	}
}
