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
	var order []entry // the order of asking; an entry is stale once its call is not parked at that index
	parked := map[string]*Parked{}
	byTurn := map[string]map[string]bool{} // the parked calls of each turn
	forget := func(id string) {
		if p := parked[id]; p != nil {
			delete(byTurn[p.TurnID], id)
			if len(byTurn[p.TurnID]) == 0 {
				delete(byTurn, p.TurnID)
			}
			delete(parked, id)
		}
	}
	dropped := 0
	running, direct := "", false // the model turn running; the last turn started was a direct call
	err := c.Record(ctx, session, func(ev *catalog.Event) error {
		switch ev.Type {
		case catalog.EventTurnStarted:
			f := ev.Fields()
			direct = f.Source == "direct"
			if !direct {
				running = f.TurnID
			}
		case catalog.EventApprovalRequested:
			f := ev.Fields()
			if f.CallID == "" {
				return nil
			}
			turn := f.TurnID
			if turn == "" {
				turn = running
			}
			p := &Parked{ID: f.CallID, Tool: f.ToolName, At: ev.At, Index: ev.Index, TurnID: turn,
				Truncated: f.InputTruncated || len(f.Input) == 0 || string(f.Input) == "null"}
			if !p.Truncated {
				p.Input = append(json.RawMessage(nil), f.Input...)
			}
			forget(p.ID)
			parked[p.ID] = p
			if byTurn[turn] == nil {
				byTurn[turn] = map[string]bool{}
			}
			byTurn[turn][p.ID] = true
			order = append(order, entry{p.ID, p.Index})
			for len(parked) > MaxParked {
				e := order[0]
				order = order[1:]
				if q := parked[e.id]; q != nil && q.Index == e.index {
					forget(e.id)
					dropped++
				}
			}
			if len(order) > 4*MaxParked {
				order = live(order, parked)
			}
		case catalog.EventApprovalResolved, catalog.EventActionResult:
			forget(ev.Fields().CallID)
		case catalog.EventTurnCompleted, catalog.EventTurnFailed:
			f := ev.Fields()
			ended := f.TurnID
			if ended == "" && !direct {
				ended = running
			}
			if ended != "" || f.TurnID == "" && !direct {
				for id := range byTurn[ended] {
					forget(id)
				}
			}
			if f.TurnID == "" && !direct || f.TurnID == running {
				running = ""
			}
		}
		return nil
	}, note)
	if err != nil {
		return nil, 0, err
	}
	out := make([]Parked, 0, len(parked))
	for _, e := range live(order, parked) {
		out = append(out, *parked[e.id])
	}
	return out, dropped, nil
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
