package devserver

import (
	"context"
	"errors"
	"sync"
	"time"
)

// Turns of the scripted agent (docs/devserver.md#sessions-with-turns-the-scripted-agent).
// A session runs one turn at a time: a message sent while one runs queues
// behind it (turn.queued, its position), and the turns of two sessions run
// independently. A plain message with nothing running is answered in full
// before its request returns; a step script runs in the background, one
// goroutine per session that has turns to run.

// The causes a turn is interrupted with, as turn.failed's message says.
var (
	errInterrupted = errors.New("interrupted by the operator")
	errStopped     = errors.New("the development deployment stopped")
)

// interruptWait bounds how long the interrupt route waits for the turn to
// record its end (it takes microseconds: a turn never waits on anything
// but its context).
const interruptWait = 5 * time.Second

// hub is what the agents of one server share: the context every turn runs
// under (cancelled by Close), the work Close waits for, and the streams'
// caps.
type hub struct {
	ctx     context.Context
	stop    context.CancelCauseFunc
	work    sync.WaitGroup // running turns and their calls (begin)
	mu      sync.Mutex     // orders begin before shutdown's wait
	halting bool           // shutdown began: no new work
	closed  chan struct{}  // closed once the turns ended: streams end
	once    sync.Once
	// ended is done when closed is: a stream stuck writing to a client that
	// reads nothing is then given a short last deadline.
	ended    context.Context
	setEnded context.CancelFunc
	streams  *streamLimiter
	clock    clock // the deployment's clock (Config.ClockOffset)
	// kept, faults and bodies bound the memory of the whole server
	// (budget.go).
	kept   *keptLedger
	faults *faultLedger
	bodies *bodyGate
}

func newHub(maxStreams, perPrincipal int) *hub {
	ctx, stop := context.WithCancelCause(context.Background())
	ended, setEnded := context.WithCancel(context.Background())
	return &hub{ctx: ctx, stop: stop, closed: make(chan struct{}), ended: ended, setEnded: setEnded,
		streams: newStreamLimiter(maxStreams, perPrincipal),
		kept:    newKeptLedger(), faults: newFaultLedger(), bodies: newBodyGate(maxLargeBodies)}
}

// begin counts one piece of work (a turn's goroutine, a call's) that
// shutdown waits for; it answers false once shutdown began, and the work
// then must not start.
func (h *hub) begin() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.halting {
		return false
	}
	h.work.Add(1)
	return true
}

// shutdown interrupts every turn (each records turn.failed), waits up to d
// for them to end, then ends the streams (after they wrote those ends).
func (h *hub) shutdown(d time.Duration) {
	h.once.Do(func() {
		h.stop(errStopped)
		h.mu.Lock()
		h.halting = true
		h.mu.Unlock()
		done := make(chan struct{})
		go func() { h.work.Wait(); close(done) }()
		timer := time.NewTimer(d)
		defer timer.Stop()
		select {
		case <-done:
		case <-timer.C:
		}
		close(h.closed)
		h.setEnded()
	})
}

// turn is one turn of a session, running or queued.
type turn struct {
	id      string
	source  string
	message string
	script  *script
	ctx     context.Context
	cancel  context.CancelCauseFunc
	ended   chan struct{} // closed once its end is recorded
	inline  bool          // answered before its request returned
}

func (a *agent) newTurn(source, message string, sc *script) *turn {
	ctx, cancel := context.WithCancelCause(a.hub.ctx)
	return &turn{id: "turn_" + randomHex(8), source: source, message: message, script: sc,
		ctx: ctx, cancel: cancel, ended: make(chan struct{})}
}

// runState is a session's turns in memory (never persisted: a restart
// ends them).
type runState struct {
	active *turn
	queue  []*turn
	parked map[string]*parkedCall
}

// parkedCall is a call of the scripted agent waiting for a decision.
type parkedCall struct {
	turnID   string
	decision chan decision // buffered: the decider never waits
}

type decision struct {
	approve bool
	reason  string
}

// turnEnd is how a turn's steps ended: reason "" completed.
type turnEnd struct{ reason, message string }

// startTurn runs t on the session id, or queues it behind the running
// turn. It answers whether t was queued.
func (a *agent) startTurn(id string, t *turn) (queued bool) {
	st := a.sessions
	st.mu.Lock()
	defer st.mu.Unlock()
	s := st.byID[id]
	if s == nil {
		return false // forgotten at once, past the caps on sessions
	}
	if s.rs.active != nil {
		s.rs.queue = append(s.rs.queue, t)
		st.emit(s, evTurnQueued, turnQueuedData(t.id, len(s.rs.queue)), "")
		return true
	}
	s.rs.active = t
	st.emit(s, evTurnStarted, turnStartedData(t.id, t.source, t.message), "")
	if t.script.plain {
		t.inline = true
		st.emit(s, evMessageCompleted, messageCompletedData(t.id, plainReply), "")
		a.finishLocked(s, t, turnEnd{})
		return false
	}
	if !a.hub.begin() {
		a.finishLocked(s, t, interrupted(t.ctx))
		return false
	}
	go a.runTurns(id, t)
	return false
}

// runTurns runs t, then every turn queued behind it.
func (a *agent) runTurns(id string, t *turn) {
	defer a.hub.work.Done()
	for t != nil {
		end := a.runSteps(id, t)
		a.sessions.mu.Lock()
		t = a.finishLocked(a.sessions.byID[id], t, end)
		a.sessions.mu.Unlock()
	}
}

// finishLocked records t's end and starts the next queued turn, which it
// returns (nil when none). Callers hold the store's lock.
func (a *agent) finishLocked(s *session, t *turn, end turnEnd) *turn {
	st := a.sessions
	typ := evTurnCompleted
	if end.reason != "" {
		typ = evTurnFailed
	}
	st.emit(s, typ, turnEndData(t.id, end.reason, end.message), "")
	t.cancel(context.Canceled)
	for id, p := range s.rs.parked {
		if p.turnID == t.id {
			delete(s.rs.parked, id)
		}
	}
	close(t.ended)
	s.rs.active = nil
	if a.hub.ctx.Err() != nil {
		// The server stops: what is queued will not run.
		for _, q := range s.rs.queue {
			st.emit(s, evTurnFailed, turnEndData(q.id, reasonInterrupted, errStopped.Error()), "")
			q.cancel(context.Canceled)
			close(q.ended)
		}
		s.rs.queue = nil
	}
	if !t.inline {
		s.Updated = st.stamp()
	}
	if len(s.rs.queue) > 0 {
		next := s.rs.queue[0]
		s.rs.queue[0] = nil
		s.rs.queue = s.rs.queue[1:]
		s.rs.active = next
		st.emit(s, evTurnStarted, turnStartedData(next.id, next.source, next.message), "")
		st.persist(s)
		return next
	}
	if s.Mode == modeTask {
		s.Ended = "completed"
		if end.reason != "" {
			s.Ended = "failed"
		}
	} else {
		st.emit(s, evSessionWaiting, emptyData, "")
	}
	st.persist(s)
	return nil
}

// runSteps runs t's steps and says how they ended.
func (a *agent) runSteps(id string, t *turn) turnEnd {
	steps := t.script.steps
	for i := 0; i < len(steps); {
		if t.ctx.Err() != nil {
			return interrupted(t.ctx)
		}
		st := steps[i]
		switch st.kind {
		case stepCall:
			// Consecutive calls are one request of the model.
			j := i
			for j < len(steps) && steps[j].kind == stepCall {
				j++
			}
			batch := steps[i:j]
			calls := make([]requestedCall, len(batch))
			for k, c := range batch {
				calls[k] = requestedCall{callID: "call_" + randomHex(8), toolName: c.tool, input: c.input}
			}
			a.sessions.emitTo(id, evActionsRequested, actionsRequestedData(t.id, calls), "")
			for k := range batch {
				if !a.scriptedCall(id, t, calls[k]) {
					return interrupted(t.ctx)
				}
			}
			i = j
			continue
		case stepSay:
			a.sessions.emitTo(id, evMessageCompleted, messageCompletedData(t.id, st.text), "")
		case stepSleep:
			timer := time.NewTimer(st.dur)
			select {
			case <-timer.C:
			case <-t.ctx.Done():
				timer.Stop()
				return interrupted(t.ctx)
			}
		case stepFail:
			return turnEnd{reason: reasonError, message: st.text}
		}
		i++
	}
	return turnEnd{}
}

// interrupted is the end of a turn whose context was cancelled.
func interrupted(ctx context.Context) turnEnd {
	msg := errInterrupted.Error()
	if c := context.Cause(ctx); c != nil && !errors.Is(c, context.Canceled) {
		msg = c.Error()
	}
	return turnEnd{reason: reasonInterrupted, message: msg}
}

// interrupt ends the session's running turn, if any, and waits for its end
// to be recorded. Queued turns stay queued: the next one starts.
func (a *agent) interrupt(id string) bool {
	var t *turn
	a.sessions.with(id, func(s *session) bool {
		if t = s.rs.active; t != nil {
			t.cancel(errInterrupted)
			for cid, p := range s.rs.parked {
				if p.turnID == t.id {
					delete(s.rs.parked, cid)
				}
			}
		}
		return false
	})
	if t == nil {
		return false
	}
	timer := time.NewTimer(interruptWait)
	defer timer.Stop()
	select {
	case <-t.ended:
	case <-timer.C:
	case <-a.hub.ctx.Done():
	}
	return true
}
