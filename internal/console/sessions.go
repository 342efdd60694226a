package console

import (
	"context"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/exitcode"
	"github.com/agsh-dev/agsh/render"
)

// The sessions table (docs/console.md#finding-a-session) as text, and its
// watch: the table printed again whenever it changes, or one line (NDJSON)
// per change.

// SessionRow is one row of the :sessions table; its JSON is the row of
// --output json and of a pipeline.
type SessionRow struct {
	Bound        string `json:"bound"`
	ID           string `json:"id"`
	State        string `json:"state"`
	LastActivity string `json:"lastActivity"`
	Title        string `json:"title"`
}

// WriteSessions writes the table as text: the ids whole (they are what
// an operator pastes back; never shortened, the title gives way), the
// title cut with … to the width left on a terminal.
func WriteSessions(w io.Writer, o render.Options, rows []SessionRow) error {
	cols := []render.Column{{Header: "BOUND"}, {Header: "ID", Whole: true}, {Header: "STATE"},
		{Header: "LASTACTIVITY"}, {Header: "TITLE", Flex: true}}
	t := render.NewTableStream(w, cols, o, len(rows)+1, true)
	for _, r := range rows {
		if err := t.Row(false, r.Bound, r.ID, r.State, r.LastActivity, r.Title); err != nil {
			return err
		}
	}
	return t.Close()
}

// WatchOptions shape a watch.
type WatchOptions struct {
	// Interval is the pause between listings (0: 2s).
	Interval time.Duration
	// Live: standard output is a terminal: the table is printed again
	// whenever it changes, and a lost deployment is retried until Ctrl-C.
	// Otherwise the table is printed once, then one line per change, and
	// GiveUp failed listings in a row (0: 30) end the watch (exit 5).
	Live   bool
	GiveUp int
	// Format is the line's: a data format writes one object per change, a
	// line each (its Line; JSON: NDJSON), from the first listing's
	// sessions on ("was": null).
	Format render.Format
	// Rows makes the table's rows of a find (the bound session marked).
	Rows func(Found) []SessionRow
	// Notes are written after each table (standard error): the finder's
	// notes for a find.
	Notes func(Found) []string
	// Clock is the time of a change line (nil: time.Now).
	Clock func() time.Time
}

// Change is one line of a watch: a session's state and what it was ("" for
// a session new to the listing; State "gone" once it left it).
type Change struct {
	Session string  `json:"session"`
	State   string  `json:"state"`
	Was     *string `json:"was"`
}

// StateGone is the state of a session the listing no longer has.
const StateGone = "gone"

// Stopped is the end of a watch by Ctrl-C (exit 130).
type Stopped struct{}

func (Stopped) Error() string { return "stopped watching" }

// ExitCode is 130.
func (Stopped) ExitCode() int { return exitcode.Interrupted }

// Code is the JSON error line's code.
func (Stopped) Code() string { return catalog.CodeInterrupted }

// Watch lists the sessions every interval until ctx ends (Ctrl-C: Stopped)
// and writes what changed. A refusal (the credential, a deployment without
// the listing) ends it at once with that error; a lost deployment is noted
// and retried.
func Watch(ctx context.Context, e Env, f *Finder, o WatchOptions) error {
	interval := o.Interval
	if interval <= 0 {
		interval = 2 * time.Second
	}
	giveUp := o.GiveUp
	if giveUp <= 0 {
		giveUp = 30
	}
	clock := o.Clock
	if clock == nil {
		clock = time.Now
	}
	w := &watcher{e: e, o: o, clock: clock}
	fails := 0
	lost := time.Time{}
	for first := true; ; first = false {
		if !first {
			select {
			case <-ctx.Done():
				return w.stop(ctx)
			case <-time.After(interval):
			}
		}
		found, err := f.Find(ctx)
		if ctx.Err() != nil {
			return w.stop(ctx)
		}
		if err != nil {
			if !transient(err) {
				return err
			}
			fails++
			if lost.IsZero() {
				lost = clock()
				e.note("the deployment is unreachable since " + lost.Format("15:04:05") + " (" + oneLineText(err.Error()) + "); trying again every " + interval.String())
			}
			if !o.Live && fails >= giveUp {
				return err
			}
			continue
		}
		if !lost.IsZero() {
			e.note("the deployment answers again")
			lost, fails = time.Time{}, 0
		}
		if err := w.show(found, first); err != nil {
			return err
		}
	}
}

// watcher is a watch's memory: the last states and the last table.
type watcher struct {
	e      Env
	o      WatchOptions
	clock  func() time.Time
	states map[string]string
	order  []string
	table  []SessionRow
}

func (w *watcher) stop(ctx context.Context) error {
	if ctx.Err() != nil {
		return Stopped{}
	}
	return nil
}

// show writes what a find changed (everything, the first time).
func (w *watcher) show(found Found, first bool) error {
	states := make(map[string]string, len(found.Sessions))
	var order []string
	for _, s := range found.Sessions {
		id := s.SessionID
		if id == "" {
			id = s.ContinuationToken
		}
		if _, dup := states[id]; !dup {
			order = append(order, id)
		}
		states[id] = s.State
	}
	var changes []Change
	for _, id := range order {
		was, ok := w.states[id]
		switch {
		case first || !ok:
			changes = append(changes, Change{Session: id, State: states[id]})
		case was != states[id]:
			changes = append(changes, Change{Session: id, State: states[id], Was: &was})
		}
	}
	for _, id := range w.order {
		if _, ok := states[id]; !ok {
			was := w.states[id]
			changes = append(changes, Change{Session: id, State: StateGone, Was: &was})
		}
	}
	w.states, w.order = states, order
	rows := w.o.Rows(found)
	tableChanged := first || !slices.Equal(rows, w.table)
	w.table = rows
	out := w.e.Out
	switch {
	case w.o.Format.IsData():
		for _, c := range changes {
			if err := w.o.Format.Data.Line(out, c); err != nil {
				return err
			}
		}
	case w.o.Live || first:
		if !tableChanged {
			return nil
		}
		if !first {
			if _, err := io.WriteString(out, "\n"+w.clock().Format("15:04:05")+"\n"); err != nil {
				return err
			}
		}
		if err := WriteSessions(out, w.e.Opts, rows); err != nil {
			return err
		}
		if w.o.Notes != nil {
			for _, n := range w.o.Notes(found) {
				w.e.note(n)
			}
		}
	default:
		titles := make(map[string]string, len(rows))
		for _, r := range rows {
			titles[r.ID] = r.Title
		}
		lines := make([]SessionRow, 0, len(changes))
		for _, c := range changes {
			was := "new"
			if c.Was != nil {
				was = "was " + *c.Was
			}
			lines = append(lines, SessionRow{Bound: w.clock().Format("15:04:05"), ID: c.Session, State: c.State,
				LastActivity: "(" + was + ")", Title: titles[c.Session]})
		}
		if len(lines) > 0 {
			if err := writeChangeLines(out, w.e.Opts, lines); err != nil {
				return err
			}
		}
	}
	return flush(out)
}

// writeChangeLines writes a piped watch's change lines: time, id, state,
// what it was, title; one line each, nothing cut.
func writeChangeLines(w io.Writer, o render.Options, lines []SessionRow) error {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.Bound + "  " + cell(o, l.ID) + "  " + l.State + "  " + l.LastActivity)
		if l.Title != "" {
			b.WriteString("  " + cell(o, l.Title))
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// cell is one line of the deployment's text, made safe on a terminal.
func cell(o render.Options, s string) string {
	s = oneLineText(s)
	if o.TTY {
		return render.SafeLabel(s)
	}
	return s
}

// oneLineText shows line breaks as ⏎.
func oneLineText(s string) string {
	return strings.NewReplacer("\r\n", "⏎", "\n", "⏎", "\r", "⏎").Replace(s)
}

// flush flushes w when it buffers.
func flush(w io.Writer) error {
	if f, ok := w.(interface{ Flush() error }); ok {
		return f.Flush()
	}
	return nil
}
