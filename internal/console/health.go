package console

import (
	"context"
	"time"

	"github.com/agsh-dev/agsh/catalog"
)

// Health is what one read of a session's record tells :status
// (docs/console.md#status): the calls waiting for a decision, and the turns
// that failed since a time.
type Health struct {
	Parked []Parked
	// Failed counts the turns that failed at or after the time asked about
	// (an interrupted turn is not counted: the operator or a restart ended
	// it); Last is the latest of them.
	Failed int
	Last   FailedTurn
}

// FailedTurn is a turn.failed of the record.
type FailedTurn struct {
	TurnID, At, Message string
}

// ReadHealth reads the record of session once and returns its Health: the
// parked calls as ParkedCalls finds them, and the turn.failed events whose
// time is at or after since and whose reason is not "interrupted". An event
// without a readable time is not counted.
func ReadHealth(ctx context.Context, c *catalog.Client, session string, since time.Time) (Health, error) {
	var h Health
	t := newParkedTracker()
	err := c.Record(ctx, session, func(ev *catalog.Event) error {
		t.see(ev)
		if ev.Type != catalog.EventTurnFailed {
			return nil
		}
		f := ev.Fields()
		if f.Reason == "interrupted" {
			return nil
		}
		at, err := time.Parse(time.RFC3339Nano, ev.At)
		if err != nil || at.Before(since) {
			return nil
		}
		h.Failed++
		msg := f.Message
		if msg == "" {
			msg = f.Reason
		}
		h.Last = FailedTurn{TurnID: f.TurnID, At: ev.At, Message: clip(msg, 200)}
		return nil
	}, nil)
	if err != nil {
		return Health{}, err
	}
	h.Parked, _ = t.calls()
	return h, nil
}
