package console

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/exitcode"
)

// The states :wait waits for (docs/console.md#wait).
const (
	WaitDone     = "done"     // the session is idle after a turn that completed
	WaitWaiting  = "waiting"  // a chat session waits for a message
	WaitApproval = "approval" // a call waits for the operator
	WaitFailed   = "failed"   // a turn failed (an interrupt is no failure)
)

// WaitStates are the values --for takes.
var WaitStates = []string{WaitDone, WaitWaiting, WaitApproval, WaitFailed}

// WaitPhrase is a state as a sentence says it ("to be asking for
// approval", not "to be approval").
func WaitPhrase(state string) string {
	if state == WaitApproval {
		return "asking for approval"
	}
	return state
}

// WaitOptions say what :wait waits for.
type WaitOptions struct {
	For string
	// Timeout ends the wait (0: none).
	Timeout time.Duration
	// Task: the session is a task session (it never waits for a message).
	Task bool
	// Backoff and GiveUp are :tail's (GiveUp 0: WaitGiveUp).
	Backoff []time.Duration
	GiveUp  int
}

// WaitGiveUp is how many failed reconnections in a row end a wait (exit 5).
const WaitGiveUp = 10

// WaitOutcome is the state a wait saw the session reach.
type WaitOutcome struct {
	Session string `json:"session"`
	For     string `json:"for"`
	// Reached: the state waited for; else the state that cannot lead there.
	Reached bool   `json:"reached"`
	State   string `json:"state"`
	// Index and At are the event that decided it (-1: the record as it was
	// read at the start, with no event after it).
	Index int64  `json:"index"`
	At    string `json:"at,omitempty"`
	// Why is a failed turn's message, or what the session does instead.
	Why string `json:"why,omitempty"`
}

// WaitError is a wait that did not reach its state: exit 1 (the session
// reached one that cannot lead there), 5 (the timeout, a lost deployment).
type WaitError struct {
	Msg     string
	Exit    int
	Outcome *WaitOutcome
}

func (e *WaitError) Error() string { return e.Msg }

// ExitCode is 1 or 5.
func (e *WaitError) ExitCode() int { return e.Exit }

// Code is the JSON error line's code.
func (e *WaitError) Code() string {
	if e.Exit == exitcode.Unreachable {
		return catalog.CodeTimeout
	}
	return "not_reached"
}

// waitState follows what a record says of the session's turns.
type waitState struct {
	running map[string]bool // turns started and not ended
	queued  map[string]bool
	end     string // the last turn's end: completed, failed, interrupted
	why     string
	parked  *parkedTracker
	idle    bool // nothing runs or waits to run
	seen    bool // any turn event
}

func (w *waitState) see(ev *catalog.Event) {
	w.parked.see(ev)
	switch ev.Type {
	case catalog.EventTurnStarted, catalog.EventTurnQueued:
		d := ev.Fields()
		if ev.Type == catalog.EventTurnStarted {
			delete(w.queued, d.TurnID)
			w.running[d.TurnID] = true
		} else {
			w.queued[d.TurnID] = true
		}
		w.idle, w.seen = false, true
	case catalog.EventTurnCompleted, catalog.EventTurnFailed:
		d := ev.Fields()
		delete(w.running, d.TurnID)
		delete(w.queued, d.TurnID)
		w.end, w.why, w.seen = "completed", "", true
		if ev.Type == catalog.EventTurnFailed {
			w.end, w.why = "failed", d.Message
			if d.Reason == "interrupted" {
				w.end = "interrupted"
			}
		}
		w.idle = len(w.running) == 0 && len(w.queued) == 0
	case catalog.EventSessionWaiting:
		clear(w.running)
		clear(w.queued)
		w.idle, w.seen = true, true
	}
}

// decide says whether the wait for state is over: reached (true) or no
// longer possible (false). ev is the event just seen (nil: the record as
// read).
func (w *waitState) decide(state string, ev *catalog.Event, task bool) (over, reached bool) {
	switch state {
	case WaitApproval:
		if ps, _ := w.parked.calls(); len(ps) > 0 {
			return true, true
		}
	case WaitFailed:
		if ev != nil && ev.Type == catalog.EventTurnFailed && w.end == "failed" {
			return true, true
		}
		if ev == nil && w.idle && w.end == "failed" {
			return true, true
		}
	case WaitWaiting:
		if w.idle && !task && (ev == nil || ev.Type == catalog.EventSessionWaiting || w.end != "") {
			return true, true
		}
	case WaitDone:
		if w.idle && w.end == "completed" {
			return true, true
		}
	}
	if w.idle && (ev == nil || w.seen) {
		return true, false
	}
	return false, false
}

// stateWord is what the session is doing, for the outcome.
func (w *waitState) stateWord(task bool) string {
	if ps, _ := w.parked.calls(); len(ps) > 0 {
		return WaitApproval
	}
	switch {
	case !w.idle:
		return "running"
	case w.end == "completed" && task:
		return WaitDone
	case w.end == "failed":
		return WaitFailed
	case w.end == "interrupted":
		return "stopped"
	case task:
		return WaitDone
	}
	return WaitWaiting
}

// Wait blocks until session id reaches o.For (docs/console.md#wait): it
// reads the record, then follows it live as :tail does (the connection
// resumed where it dropped), never polling. It answers the outcome, a
// *WaitError when the session reached a state that cannot lead there
// (exit 1), at the timeout or once the deployment is lost (exit 5), or
// the error that stopped it (ctx's, a refusal).
func Wait(ctx context.Context, e Env, id string, o WaitOptions) (*WaitOutcome, error) {
	parent := ctx
	if o.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.Timeout)
		defer cancel()
	}
	backoff := o.Backoff
	if backoff == nil {
		backoff = defaultBackoff()
	}
	giveUp := o.GiveUp
	if giveUp <= 0 {
		giveUp = WaitGiveUp
	}
	w := &waitState{running: map[string]bool{}, queued: map[string]bool{}, parked: newParkedTracker()}
	last := int64(-1)
	err := e.Client.Record(ctx, id, func(ev *catalog.Event) error {
		w.see(ev)
		last = ev.Index
		return nil
	}, e.note)
	if !w.seen && err == nil {
		// A record without a turn event: the session is as idle as its
		// listing row says; wait for its first turn otherwise.
		w.idle = false
	}
	out := &WaitOutcome{Session: id, For: o.For, Index: -1}
	finish := func(reached bool, ev *catalog.Event) (*WaitOutcome, error) {
		out.Reached, out.State, out.Why = reached, w.stateWord(o.Task), w.why
		if ev != nil {
			out.Index, out.At = ev.Index, ev.At
		}
		if reached {
			return out, nil
		}
		msg := id + " is " + WaitPhrase(out.State) + "; it will not be " + WaitPhrase(o.For) + " without another turn"
		if o.For == WaitApproval {
			msg = id + " is " + WaitPhrase(out.State) + " and no call waits for approval"
		}
		if out.Why != "" && out.State == WaitFailed {
			msg += " (" + out.Why + ")"
		}
		return out, &WaitError{Msg: msg, Exit: exitcode.ToolError, Outcome: out}
	}
	if err == nil {
		if over, reached := w.decide(o.For, nil, o.Task); over {
			return finish(reached, nil)
		}
		var decided *WaitOutcome
		var derr error
		err = resume(ctx, e, id, &last, false, backoff, giveUp, func(ev *catalog.Event) error {
			w.see(ev)
			if over, reached := w.decide(o.For, ev, o.Task); over {
				decided, derr = finish(reached, ev)
				return errEnd
			}
			return nil
		})
		if err == errEnd {
			return decided, derr
		}
	}
	switch {
	case parent.Err() != nil:
		return nil, Detached{}
	case ctx.Err() != nil:
		return nil, &WaitError{Exit: exitcode.Unreachable,
			Msg: "timed out after " + o.Timeout.String() + " waiting for " + id + " to be " + WaitPhrase(o.For) + " (it is " + WaitPhrase(w.stateWord(o.Task)) + ")"}
	case err != nil && transient(err):
		return nil, &WaitError{Exit: exitcode.Unreachable,
			Msg: "lost the deployment while waiting for " + id + " to be " + WaitPhrase(o.For) + " (" + err.Error() + "; " +
				strconv.Itoa(giveUp) + " reconnections failed)"}
	}
	return nil, err
}

// JSON is the outcome as --output json prints it.
func (o *WaitOutcome) JSON() json.RawMessage {
	b, _ := json.Marshal(o)
	return b
}

// IsWaitError reports a *WaitError.
func IsWaitError(err error) bool {
	var we *WaitError
	return errors.As(err, &we)
}
