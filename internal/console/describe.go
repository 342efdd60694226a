package console

import (
	"context"

	"github.com/agsh-dev/agsh/catalog"
)

// :describe's read of one session (docs/console.md#describe): its row
// from the listing, and one read of its record for its turns and parked
// calls.

// MaxTurns bounds the turns a description keeps: the last ones, the
// older counted.
const MaxTurns = 50

// Turn is one turn of a record as :describe shows it.
type Turn struct {
	ID     string `json:"turnId"`
	Source string `json:"source"`
	// Message is the first line of what the turn runs (when recorded).
	Message string `json:"message"`
	// Started and Ended are the times of its start and end ("" when not
	// recorded, or not yet).
	Started string `json:"started"`
	Ended   string `json:"ended"`
	// Outcome is queued, running, done, failed or stopped; Reason a
	// failed turn's message.
	Outcome string `json:"outcome"`
	Reason  string `json:"reason"`
	// Calls counts its calls, Errors those whose result is an error,
	// Stubbed those a dry run stubbed.
	Calls   int `json:"calls"`
	Errors  int `json:"errors"`
	Stubbed int `json:"stubbed"`
}

// Description is what one read of a record says of its session.
type Description struct {
	Turns []Turn
	// OlderTurns counts the turns left out past MaxTurns.
	OlderTurns int
	Parked     []Parked
	// Events counts the record's events; LastEvent is the last one's time.
	Events    int64
	LastEvent string
	// LastEnd is how the last turn ended (RecordFacts.LastEnd).
	LastEnd string
}

// Describe reads session id's record once.
func Describe(ctx context.Context, c *catalog.Client, id string, note func(string)) (Description, error) {
	var d Description
	t := newParkedTracker()
	byID := map[string]int{} // turn id -> index in d.Turns
	var current string       // the turn that owns the calls that follow
	turn := func(tid string) *Turn {
		if i, ok := byID[tid]; ok && tid != "" {
			return &d.Turns[i]
		}
		if len(d.Turns) == MaxTurns {
			delete(byID, d.Turns[0].ID)
			d.Turns = append(d.Turns[:0], d.Turns[1:]...)
			for k, v := range byID {
				byID[k] = v - 1
			}
			d.OlderTurns++
		}
		d.Turns = append(d.Turns, Turn{ID: tid})
		byID[tid] = len(d.Turns) - 1
		return &d.Turns[len(d.Turns)-1]
	}
	err := c.Record(ctx, id, func(ev *catalog.Event) error {
		t.see(ev)
		d.Events++
		d.LastEvent = ev.At
		f := ev.Fields()
		switch ev.Type {
		case catalog.EventTurnQueued:
			tr := turn(f.TurnID)
			tr.Outcome, tr.Message = StateQueued, firstLine(f.Message)
		case catalog.EventTurnStarted:
			tr := turn(f.TurnID)
			tr.Outcome, tr.Source, tr.Started = StateRunning, f.Source, ev.At
			if m := firstLine(f.Message); m != "" {
				tr.Message = m
			}
			current = f.TurnID
			d.LastEnd = ""
		case catalog.EventTurnCompleted, catalog.EventTurnFailed:
			tr := turn(f.TurnID)
			tr.Ended = ev.At
			tr.Outcome = StateDone
			if ev.Type == catalog.EventTurnFailed {
				tr.Outcome = StateFailed
				if f.Reason == "interrupted" {
					tr.Outcome = StateStopped
				}
				tr.Reason = firstLine(f.Message)
				if tr.Reason == "" {
					tr.Reason = f.Reason
				}
			}
			d.LastEnd = tr.Outcome
		case catalog.EventActionsRequested:
			tid := f.TurnID
			if tid == "" {
				tid = current
			}
			if tid != "" {
				turn(tid).Calls += len(f.Calls)
			}
		case catalog.EventActionResult:
			tid := f.TurnID
			if tid == "" {
				tid = current
			}
			if tid == "" {
				break
			}
			tr := turn(tid)
			switch {
			case f.Stubbed:
				tr.Stubbed++
			case f.IsError:
				tr.Errors++
			}
		}
		return nil
	}, note)
	if err != nil {
		return Description{}, err
	}
	d.Parked, _ = t.calls()
	return d, nil
}
