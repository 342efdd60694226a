package console

import (
	"context"
	"io"
	"strconv"
	"time"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/termsafe"
	"github.com/agsh-dev/agsh/render"
)

// Env is what the console commands use: the deployment, the streams and
// how to write a call as a command line.
type Env struct {
	Client *catalog.Client
	// Out is standard output, rendered for Opts.
	Out  io.Writer
	Opts render.Options
	// Note writes one line on standard error (the caller makes it safe).
	Note func(string)
	// CallLine writes a call as the agsh command line its input maps to.
	CallLine CallLine
	// Execution is a tool's execution as its detail says ("agent": it runs
	// inside the agent's turn, agsh cannot call it; "" when unknown). Nil:
	// unknown for every tool.
	Execution func(ctx context.Context, tool string) string
	// Location is the time zone times show in (nil: the local one).
	Location *time.Location
}

func (e Env) note(s string) {
	if e.Note != nil {
		e.Note(s)
	}
}

// TraceOptions narrow a trace.
type TraceOptions struct {
	// Tool keeps the events whose data names this tool.
	Tool string
	// Type keeps the events of this type, or of a type it begins
	// ("approval": approval.requested and approval.resolved).
	Type string
	// Last keeps the last N rows (events, with JSON) after the filters; 0:
	// all.
	Last int
	// Format is the line's: a data format writes the events as received,
	// one value holding them all (its Records); the text views a timeline.
	Format render.Format
}

// Limits of a trace (docs/console.md#bounds).
const (
	// layoutRows lay a trace's table out; the rest stream at their widths.
	layoutRows = 1000
	// maxPending bounds the rows held while a call waits for its result:
	// past it the oldest is written without its outcome.
	maxPending = 1000
	// MaxLast bounds --last.
	MaxLast = 100_000
	// maxLastBytes bounds what --last holds of the events' bytes (JSON).
	maxLastBytes = 64 << 20
)

// Trace writes the record of session id: a timeline table, or in a data
// format the events as received. A record of any length streams through.
func Trace(ctx context.Context, e Env, id string, o TraceOptions) error {
	if o.Format.IsData() {
		return traceData(ctx, e, id, o)
	}
	d := newDescriber(ctx, e, true, o.Tool)
	tw := newTimeline(e.Out, e.Opts, layoutRows, true, d)
	var sink rowSink = tw
	var ring *rowRing
	if o.Last > 0 {
		ring = &rowRing{max: o.Last}
		sink = ring
	}
	p := &pairer{emit: sink.row, pending: map[string]int{}}
	var rows []Row
	n := 0
	// The calls' command lines are made on the reading goroutine, ahead of
	// the rows (only it calls d.callLine).
	prepare := func(ev *catalog.Event, f *catalog.EventData) []string {
		if !matchType(ev.Type, o.Type) || !namesToolIn(f, o.Tool) {
			return nil
		}
		return d.linesOf(ev, f)
	}
	err := readAhead(ctx, e.Client, id, e.note, prepare, func(ev *catalog.Event, f *catalog.EventData, lines []string) error {
		n++
		if ev.Type == catalog.EventActionResult && p.result(*f) {
			return p.err
		}
		if !matchType(ev.Type, o.Type) || !namesToolIn(f, o.Tool) {
			return nil
		}
		rows = d.rowsOf(rows[:0], ev, f, lines)
		for _, r := range rows {
			p.add(r)
		}
		return p.err
	})
	if err != nil {
		_ = tw.close()
		return err
	}
	p.flushAll()
	if ring != nil {
		for _, r := range ring.rows() {
			_ = tw.row(r)
		}
	}
	if err := tw.close(); err != nil {
		return err
	}
	switch {
	case n == 0:
		e.note("(the record of " + id + " has no events)")
	case tw.count == 0:
		e.note("(no events match)")
	}
	return p.err
}

// rowSink takes the rows of a trace in order.
type rowSink interface{ row(Row) error }

// timeline writes rows as a streamed table, with a date row before each
// new day.
type timeline struct {
	t     *render.TableStream
	d     *describer
	count int
	cells [6]string
}

func newTimeline(w io.Writer, o render.Options, hold int, header bool, d *describer) *timeline {
	cols := []render.Column{
		{Header: "#", Right: true}, {Header: "TIME"}, {Header: "EVENT"},
		{Header: "TOOK", Right: true}, {Header: "ID", Short: shortID}, {Header: "WHAT", Flex: true},
	}
	if hold == 0 {
		cols = liveColumns()
	}
	return &timeline{t: render.NewTableStream(w, cols, o, hold, header), d: d}
}

func (tw *timeline) row(r Row) error { return tw.write(r, false) }

// write writes a row (and the date row before it), flushed when live.
func (tw *timeline) write(r Row, live bool) error {
	if dr, ok := tw.d.dateRow(&r); ok {
		if err := tw.t.Span(1, dr.Time); err != nil {
			return err
		}
	}
	tw.count++
	return tw.t.Row(live, r.fill(&tw.cells)...)
}

func (tw *timeline) close() error { return tw.t.Close() }

// rowRing keeps the last rows.
type rowRing struct {
	max  int
	buf  []Row
	next int
	full bool
}

func (r *rowRing) row(x Row) error {
	if len(r.buf) < r.max {
		r.buf = append(r.buf, x)
		return nil
	}
	r.buf[r.next] = x
	r.next = (r.next + 1) % r.max
	r.full = true
	return nil
}

func (r *rowRing) rows() []Row {
	if !r.full {
		return r.buf
	}
	return append(r.buf[r.next:len(r.buf):len(r.buf)], r.buf[:r.next]...)
}

// pairer holds a call's row until its result fills it in, so that a call
// shows its outcome and duration on its own row; the rows after it wait
// with it, in order. At most maxPending rows wait.
type pairer struct {
	held    []Row
	base    int            // the sequence number of held[0]
	pending map[string]int // call id → sequence number of its row
	emit    func(Row) error
	err     error
}

func (p *pairer) add(r Row) {
	if r.pending && r.ID != "" {
		if _, dup := p.pending[r.ID]; !dup {
			p.pending[r.ID] = p.base + len(p.held)
		} else {
			r.pending = false
		}
	} else {
		r.pending = false
	}
	p.held = append(p.held, r)
	p.flush(len(p.held) > maxPending)
}

// result fills the row of the result's call: false when no row waits for
// it (the result is then a row of its own).
func (p *pairer) result(f catalog.EventData) bool {
	seq, ok := p.pending[f.CallID]
	if !ok || seq < p.base {
		return false
	}
	delete(p.pending, f.CallID)
	r := &p.held[seq-p.base]
	r.pending = false
	r.Event, r.Took = outcome(f.IsError, f.Stubbed), duration(f.DurationMs)
	r.What += resultText(f)
	p.flush(false)
	return true
}

// flush writes the rows that wait for nothing; force writes the first one
// even if it waits.
func (p *pairer) flush(force bool) {
	i := 0
	for ; i < len(p.held) && p.err == nil; i++ {
		r := &p.held[i]
		if r.pending {
			if !force {
				break
			}
			force = false
			delete(p.pending, r.ID)
			r.Event = "call …" // no result in the record (yet)
		}
		p.err = p.emit(*r)
	}
	p.held = append(p.held[:0], p.held[i:]...)
	p.base += i
}

// flushAll writes every held row: a call still waiting shows "call …"
// (the record has no result for it yet).
func (p *pairer) flushAll() {
	for len(p.held) > 0 && p.err == nil {
		p.flush(true)
	}
}

// traceData writes the events that pass the filters as one value of the
// line's data format (JSON: one array), each as received (escaped on a
// terminal: the same JSON values).
func traceData(ctx context.Context, e Env, id string, o TraceOptions) error {
	w := o.Format.Data.Records(e.Out, false)
	add := func(raw []byte) error {
		if e.Opts.TTY {
			raw = termsafe.AppendJSON(nil, raw)
		}
		return w.Add(raw)
	}
	var ring *rawRing
	if o.Last > 0 {
		ring = &rawRing{max: o.Last}
	}
	err := e.Client.Record(ctx, id, func(ev *catalog.Event) error {
		if !matchType(ev.Type, o.Type) || !namesTool(ev, o.Tool) {
			return nil
		}
		if ring != nil {
			ring.add(ev.Raw)
			return nil
		}
		return add(ev.Raw)
	}, e.note)
	if err != nil {
		_ = w.Flush()
		return err
	}
	if ring != nil {
		if ring.dropped > 0 {
			e.note("(--last: the last events hold more than 64 MiB; the " + strconv.Itoa(ring.dropped) + " oldest of them are left out)")
		}
		for _, raw := range ring.items() {
			if err := add(raw); err != nil {
				return err
			}
		}
	}
	return w.Close()
}

// rawRing keeps copies of the last events' bytes, within maxLastBytes.
type rawRing struct {
	max     int
	items_  [][]byte
	bytes   int
	dropped int
}

func (r *rawRing) add(raw []byte) {
	c := append([]byte(nil), raw...)
	r.items_ = append(r.items_, c)
	r.bytes += len(c)
	for len(r.items_) > r.max || r.bytes > maxLastBytes && len(r.items_) > 1 {
		if len(r.items_) <= r.max {
			r.dropped++
		}
		r.bytes -= len(r.items_[0])
		r.items_[0] = nil
		r.items_ = r.items_[1:]
	}
}

func (r *rawRing) items() [][]byte { return r.items_ }
