package console

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/exitcode"
	"github.com/agsh-dev/agsh/internal/termsafe"
	"github.com/agsh-dev/agsh/render"
)

// TailOptions say how a tail runs.
type TailOptions struct {
	// Format is the line's: a data format writes each event as received,
	// one a line (its Records with lines; JSON: NDJSON); the text views a
	// live timeline.
	Format render.Format
	// Live: standard output is a terminal; the tail runs until Ctrl-C.
	// Otherwise, unless Follow, it ends after the initial events when the
	// session is not running, else after the next session.waiting or
	// approval.requested, or a task session's turn end.
	Live, Follow bool
	// Task: the session is a task session (its turn's end ends the tail).
	Task bool
	// Initial is how many of the last events are shown first (0: 10).
	Initial int
	// From, when FromSet, replaces the last events: the tail streams from
	// index From on (:say --follow, from the first event of its turn).
	From    int64
	FromSet bool
	// UntilWaits ends the tail at the session's next wait even when Live.
	UntilWaits bool
	// Backoff are the pauses between reconnections (nil: the default);
	// GiveUp is how many failed reconnections in a row end a tail that is
	// not Live (0: 30).
	Backoff []time.Duration
	GiveUp  int
}

// Detached is the end of a tail by Ctrl-C: the agent goes on (exit 130).
type Detached struct{}

func (Detached) Error() string { return "detached; the agent goes on" }

// ExitCode is 130.
func (Detached) ExitCode() int { return exitcode.Interrupted }

// Code is the JSON error line's code.
func (Detached) Code() string { return catalog.CodeInterrupted }

// errEnd ends a tail that reached the event it waits for.
var errEnd = errors.New("end of the tail")

// defaultBackoff are the pauses before each reconnection (the last
// repeats).
func defaultBackoff() []time.Duration {
	return []time.Duration{100 * time.Millisecond, 250 * time.Millisecond, 500 * time.Millisecond,
		time.Second, 2 * time.Second, 3 * time.Second}
}

// Tail shows the last events of session id, then each new one as it
// happens (docs/console.md#tail): a dropped connection resumes from the
// last index + 1, so no event shows twice and none is lost. Memory stays
// flat however long it runs.
func Tail(ctx context.Context, e Env, id string, o TailOptions) error {
	initial := o.Initial
	if initial <= 0 {
		initial = 10
	}
	backoff := o.Backoff
	if backoff == nil {
		backoff = defaultBackoff()
	}
	giveUp := o.GiveUp
	if giveUp <= 0 {
		giveUp = 30
	}
	t := &tailer{e: e, o: o, d: newDescriber(ctx, e, false, "")}
	if !o.Format.IsData() {
		t.tw = newTimeline(e.Out, e.Opts, 0, e.Opts.TTY, t.d)
	}
	last := int64(-1)
	ring := &rawRing{max: initial}
	w := &waitState{running: map[string]bool{}, queued: map[string]bool{}, parked: newParkedTracker()}
	var err error
	if o.FromSet {
		last = o.From - 1
	} else {
		err = e.Client.Record(ctx, id, func(ev *catalog.Event) error {
			ring.add(ev.Raw)
			w.see(ev)
			last = ev.Index
			return nil
		}, e.note)
	}
	if err != nil {
		return t.end(ctx, err)
	}
	for _, raw := range ring.items() {
		ev, ok := catalog.ParseEvent(raw)
		if !ok {
			continue
		}
		if err := t.show(ev); err != nil {
			return t.end(ctx, err)
		}
	}
	t.initialDone = true
	if !o.FromSet && !o.Live && !o.Follow && !o.UntilWaits && notRunning(ctx, e, id, w) {
		return t.end(ctx, nil)
	}
	if t.tw != nil {
		if err := t.tw.t.Begin(); err != nil {
			return t.end(ctx, err)
		}
	}
	err = resume(ctx, e, id, &last, o.Live, backoff, giveUp, t.show)
	if err == errEnd {
		err = nil
	}
	return t.end(ctx, err)
}

// notRunning reports a session a piped tail ends at after its initial
// events (docs/console.md#tail): the record read says it is not running
// (it waits, a call waits for an approval, its last turn failed or was
// stopped, a task session's turn ended), and the listing read after it
// does not say a turn has started since (that turn's events are then
// followed to its next wait). A listing that cannot be read, or a record
// without a turn event, is no proof: the tail follows as before.
func notRunning(ctx context.Context, e Env, id string, w *waitState) bool {
	if !w.seen {
		return false
	}
	if ps, _ := w.parked.calls(); len(ps) == 0 && !w.idle {
		return false
	}
	ss, err := e.Client.Sessions(ctx)
	if err != nil {
		return false
	}
	for _, s := range ss {
		if s.SessionID == id {
			st := ListedState(s)
			return st != StateRunning && st != StateQueued
		}
	}
	return false
}

// resume follows the record of session id from *last + 1 and hands each
// event to each, reconnecting when the connection drops or the deployment
// ends the stream (docs/console.md#tail): from the last index seen + 1, so
// no event comes twice and none is lost, with backoff's pauses between
// tries; a note says when it is lost and when it is back. It returns each's
// error, a refusal, ctx's error, or (unless live) the failure past giveUp
// in a row.
func resume(ctx context.Context, e Env, id string, last *int64, live bool, backoff []time.Duration, giveUp int,
	each func(*catalog.Event) error) error {
	failures := 0
	for {
		err := e.Client.Follow(ctx, id, *last+1, func(ev *catalog.Event) error {
			if failures > 0 {
				e.note("reconnected; events from " + strconv.FormatInt(ev.Index, 10) + " on")
				failures = 0
			}
			*last = ev.Index
			return each(ev)
		}, e.note)
		switch {
		case err == errEnd:
			return err
		case err != nil && !transient(err) && ctx.Err() == nil:
			return err
		case ctx.Err() != nil:
			return ctx.Err()
		}
		failures++
		if !live && failures > giveUp {
			return err
		}
		if failures == 1 {
			why := "the deployment ended the stream"
			if err != nil {
				why = err.Error()
			}
			e.note("connection lost (" + why + "); reconnecting from event " + strconv.FormatInt(*last+1, 10) + "…")
		}
		pause := backoff[min(failures-1, len(backoff)-1)]
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause):
		}
	}
}

// transient reports a failure worth reconnecting after: the connection,
// a timeout, the deployment restarting (5xx); not a refusal, nor a stream
// agsh stopped reading for what it held.
func transient(err error) bool {
	var ce *catalog.Error
	if !errors.As(err, &ce) {
		return false
	}
	switch ce.Code() {
	case catalog.CodeUnreachable, catalog.CodeTimeout:
		return true
	case catalog.CodeBadResponse:
		return ce.Status >= 500
	}
	return ce.Status >= 500 || ce.Status == 429
}

// tailer writes the events of a tail.
type tailer struct {
	e           Env
	out         render.RecordSink // a data format's
	o           TailOptions
	d           *describer
	tw          *timeline
	rows        []Row
	count       int
	initialDone bool
}

// show writes one event, and ends a tail that is not live at the event it
// waits for.
func (t *tailer) show(ev *catalog.Event) error {
	t.count++
	// Each event is written as it comes; the flush waits while more of a
	// replay is already here (ev.More).
	flush := !ev.More
	if t.o.Format.IsData() {
		raw := ev.Raw
		if t.e.Opts.TTY {
			raw = termsafe.AppendJSON(nil, raw)
		}
		if t.out == nil {
			t.out = t.o.Format.Data.Records(t.e.Out, true)
		}
		if err := t.out.Add(raw); err != nil {
			return err
		}
		if flush {
			if err := t.out.Flush(); err != nil {
				return err
			}
		}
	} else {
		t.rows = t.d.rows(t.rows[:0], ev)
		for i, r := range t.rows {
			if err := t.tw.write(r, flush && i == len(t.rows)-1); err != nil {
				return err
			}
		}
	}
	if t.initialDone && (t.o.UntilWaits || !t.o.Live && !t.o.Follow) && t.ends(ev) {
		return errEnd
	}
	return nil
}

// ends reports the event a tail that is not live stops after.
func (t *tailer) ends(ev *catalog.Event) bool {
	switch ev.Type {
	case catalog.EventSessionWaiting, catalog.EventApprovalRequested:
		return true
	case catalog.EventTurnCompleted, catalog.EventTurnFailed:
		return t.o.Task
	}
	return false
}

// end finishes the output and turns an interruption into Detached.
func (t *tailer) end(ctx context.Context, err error) error {
	if t.out != nil {
		if ferr := t.out.Close(); err == nil {
			err = ferr
		}
	}
	if t.tw != nil {
		if cerr := t.tw.close(); err == nil {
			err = cerr
		}
	}
	if ctx.Err() != nil && (err == nil || errors.Is(err, ctx.Err()) || catalog.IsCode(err, catalog.CodeInterrupted)) {
		return Detached{}
	}
	return err
}

// liveIDWidth is the ID column of a live table: a whole call id of the
// development deployment (call_ and 16 hex digits). A live table cannot
// know which prefix keeps its ids apart, so it never cuts one: a longer id
// pushes the rest of its row right.
const liveIDWidth = 21

// liveColumns are the columns of a live table, with the widths it starts
// with (it holds no rows to lay itself out).
func liveColumns() []render.Column {
	return []render.Column{
		{Header: "#", Right: true, Width: 4}, {Header: "TIME", Width: 8}, {Header: "EVENT", Width: 12},
		{Header: "TOOK", Right: true, Width: 6}, {Header: "ID", Whole: true, Width: liveIDWidth}, {Header: "WHAT", Flex: true, Width: 40},
	}
}
