package console

import (
	"context"
	"encoding/json"

	"github.com/agsh-dev/agsh/catalog"
)

// Parked is a call of a record that asked for the operator's decision and
// still waits for it (docs/console.md#approvals).
type Parked struct {
	ID, Tool string
	// Input is the call's input as recorded; nil when the deployment cut it
	// to bound the event (Truncated).
	Input     json.RawMessage
	Truncated bool
	// At is the time of its approval.requested ("" when the event has none).
	At     string
	Index  int64
	TurnID string
}

// MaxParked bounds the parked calls kept from one record: a turn parks one
// call at a time, so more means a record agsh does not understand; past it
// the oldest are dropped and counted.
const MaxParked = 1000

// ParkedCalls reads the record of session and returns the calls waiting
// for a decision, in the order they asked, and how many more were dropped
// past MaxParked. A call waits from its approval.requested until its
// approval.resolved, its action.result, or the end of its turn (an
// interrupted turn resolves nothing). A call's turn is the event's turnId,
// else the model turn running when it asked.
func ParkedCalls(ctx context.Context, c *catalog.Client, session string, note func(string)) ([]Parked, int, error) {
	t := newParkedTracker()
	err := c.Record(ctx, session, func(ev *catalog.Event) error {
		t.see(ev)
		return nil
	}, note)
	if err != nil {
		return nil, 0, err
	}
	ps, dropped := t.calls()
	return ps, dropped, nil
}

// parkedTracker follows a record event by event and knows the calls
// waiting for a decision at every point (ParkedCalls' rules).
type parkedTracker struct {
	order   []entry // the order of asking; an entry is stale once its call is not parked at that index
	parked  map[string]*Parked
	byTurn  map[string]map[string]bool // the parked calls of each turn
	dropped int
	running string // the model turn running
	direct  bool   // the last turn started was a direct call
}

func newParkedTracker() *parkedTracker {
	return &parkedTracker{parked: map[string]*Parked{}, byTurn: map[string]map[string]bool{}}
}

func (t *parkedTracker) forget(id string) {
	if p := t.parked[id]; p != nil {
		delete(t.byTurn[p.TurnID], id)
		if len(t.byTurn[p.TurnID]) == 0 {
			delete(t.byTurn, p.TurnID)
		}
		delete(t.parked, id)
	}
}

// see takes the record's next event.
func (t *parkedTracker) see(ev *catalog.Event) {
	switch ev.Type {
	case catalog.EventTurnStarted:
		f := ev.Fields()
		t.direct = f.Source == "direct"
		if !t.direct {
			t.running = f.TurnID
		}
	case catalog.EventApprovalRequested:
		f := ev.Fields()
		if f.CallID == "" {
			return
		}
		turn := f.TurnID
		if turn == "" {
			turn = t.running
		}
		p := &Parked{ID: f.CallID, Tool: f.ToolName, At: ev.At, Index: ev.Index, TurnID: turn,
			Truncated: f.InputTruncated || len(f.Input) == 0 || string(f.Input) == "null"}
		if !p.Truncated {
			p.Input = append(json.RawMessage(nil), f.Input...)
		}
		t.forget(p.ID)
		t.parked[p.ID] = p
		if t.byTurn[turn] == nil {
			t.byTurn[turn] = map[string]bool{}
		}
		t.byTurn[turn][p.ID] = true
		t.order = append(t.order, entry{p.ID, p.Index})
		for len(t.parked) > MaxParked {
			e := t.order[0]
			t.order = t.order[1:]
			if q := t.parked[e.id]; q != nil && q.Index == e.index {
				t.forget(e.id)
				t.dropped++
			}
		}
		if len(t.order) > 4*MaxParked {
			t.order = live(t.order, t.parked)
		}
	case catalog.EventApprovalResolved, catalog.EventActionResult:
		t.forget(ev.Fields().CallID)
	case catalog.EventTurnCompleted, catalog.EventTurnFailed:
		f := ev.Fields()
		ended := f.TurnID
		if ended == "" && !t.direct {
			ended = t.running
		}
		if ended != "" || f.TurnID == "" && !t.direct {
			for id := range t.byTurn[ended] {
				t.forget(id)
			}
		}
		if f.TurnID == "" && !t.direct || f.TurnID == t.running {
			t.running = ""
		}
	}
}

// calls are the calls waiting now, in the order they asked, and how many
// were dropped past MaxParked.
func (t *parkedTracker) calls() ([]Parked, int) {
	out := make([]Parked, 0, len(t.parked))
	for _, e := range live(t.order, t.parked) {
		out = append(out, *t.parked[e.id])
	}
	return out, t.dropped
}

// entry is one approval.requested in the order of asking.
type entry struct {
	id    string
	index int64
}

// live are the entries whose call is still parked at that index.
func live(order []entry, parked map[string]*Parked) []entry {
	out := order[:0]
	for _, e := range order {
		if p := parked[e.id]; p != nil && p.Index == e.index {
			out = append(out, e)
		}
	}
	return out
}

// NextIndex is the index the next event of session's record will take (0
// for an empty record), read from the record as it arrives: where :say
// --follow starts, so that it shows the turn it started and nothing
// before.
func NextIndex(ctx context.Context, c *catalog.Client, session string) (int64, error) {
	next := int64(0)
	err := c.Record(ctx, session, func(ev *catalog.Event) error {
		next = ev.Index + 1
		return nil
	}, nil)
	return next, err
}
