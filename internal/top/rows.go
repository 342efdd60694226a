package top

import (
	"context"
	"sort"
	"strings"
	"time"
)

// The states a row shows (docs/console.md#the-fleet-view).
const (
	StateApproval = "approval" // a call of the running turn waits for the operator
	StateRunning  = "running"
	StateQueued   = "queued"  // a turn waits to run: behind a running one, or for a slot
	StateWaiting  = "waiting" // idle, waiting for a message
	StateFailed   = "failed"  // its last turn failed
	StateStopped  = "stopped" // its last turn was interrupted
	StateDone     = "done"    // a task session whose turn completed
)

// Row is one session as the fleet view shows it. Every string is the
// deployment's, untrusted: the view escapes it.
type Row struct {
	ID, Title, Principal string
	// State is one of the State constants (another value is shown as it
	// is, escaped).
	State string
	// Created is when the session was created; Activity its last event
	// (else the listing's last activity). Zero: unknown.
	Created, Activity time.Time
	// Call is the current or last call, as its agsh command line.
	Call string
	// Parked is when its oldest parked call asked (zero: none waits);
	// Failed when its last failed turn ended (zero: none, or not known).
	Parked, Failed time.Time
}

// Parked is a call waiting for the operator, whole.
type Parked struct {
	CallID, Tool string
	// Line is the call's whole input as its agsh command line.
	Line string
	// At is when it asked (zero: unknown).
	At time.Time
}

// Source is what the view shows and does, implemented over the
// deployment. Each method may be called from a goroutine of its own; none
// is called twice at once for a refresh.
type Source interface {
	// Refresh lists the sessions. visible are the ids on the screen, the
	// ones whose records are worth reading; the Source bounds the requests
	// it sends whatever their number.
	Refresh(ctx context.Context, visible []string) ([]Row, error)
	// Parked is the oldest call of session id waiting for approval.
	Parked(ctx context.Context, id string) (Parked, error)
	// Decide approves or denies a parked call; Stop interrupts the running
	// turn (whether one ran); Say sends the session a message.
	Decide(ctx context.Context, id, callID string, approve bool) error
	Stop(ctx context.Context, id string) (bool, error)
	Say(ctx context.Context, id, text string) error
	// Open writes session id's record as :trace and :tail show it, then
	// follows it live, one line at a time, until ctx ends; width is the
	// screen's.
	Open(ctx context.Context, id string, width int, line func(string)) error
}

// failedWindow is how recent a failed turn must be to come first.
const failedWindow = time.Hour

// rank is a row's place in the order: what needs the operator first.
func rank(r *Row, now time.Time, stale time.Duration) int {
	switch {
	case !r.Parked.IsZero() || r.State == StateApproval:
		return 0
	case !r.Failed.IsZero() && now.Sub(r.Failed) <= failedWindow:
		return 1
	case r.State == StateRunning && !r.Activity.IsZero() && now.Sub(r.Activity) > stale:
		return 2
	}
	return 3
}

// Stalled reports a running row with no event for longer than stale.
func Stalled(r *Row, now time.Time, stale time.Duration) bool {
	return r.State == StateRunning && !r.Activity.IsZero() && now.Sub(r.Activity) > stale
}

// Sort orders rows with what needs the operator first: parked approvals
// (oldest first), failed turns of the last hour (newest first), running
// turns with no event for longer than stale (longest silent first), then
// the rest by last activity (newest first); ties by id.
func Sort(rows []Row, now time.Time, stale time.Duration) {
	ranks := make(map[string]int, len(rows))
	for i := range rows {
		ranks[rows[i].ID] = rank(&rows[i], now, stale)
	}
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := &rows[i], &rows[j]
		ra, rb := ranks[a.ID], ranks[b.ID]
		if ra != rb {
			return ra < rb
		}
		var ta, tb time.Time
		newer := true
		switch ra {
		case 0:
			ta, tb, newer = a.Parked, b.Parked, false
		case 1:
			ta, tb = a.Failed, b.Failed
		case 2:
			ta, tb, newer = a.Activity, b.Activity, false
		default:
			ta, tb = a.Activity, b.Activity
		}
		if !ta.Equal(tb) {
			if newer {
				return ta.After(tb)
			}
			return ta.Before(tb)
		}
		return a.ID < b.ID
	})
}

// matches reports a row the filter keeps: the text in its id, title, call
// or state, case aside.
func matches(r *Row, lower string) bool {
	if lower == "" {
		return true
	}
	for _, s := range []string{r.ID, r.Title, r.Call, r.State} {
		if strings.Contains(strings.ToLower(s), lower) {
			return true
		}
	}
	return false
}

// counts is the header's count of rows by state.
func counts(rows []Row) map[string]int {
	c := map[string]int{}
	for i := range rows {
		c[rows[i].State]++
	}
	return c
}
