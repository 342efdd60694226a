package console

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/top"
	"github.com/agsh-dev/agsh/render"
)

// The fleet: :top's Source over the deployment (docs/console.md#the-fleet-view).
// Each refresh is one GET /v1/sessions and at most RecordsPerRefresh reads
// of records (GET …/events), FleetReaders at a time, whatever the number
// of sessions: the sessions an action was just sent to, then the rows on the
// screen (those not read yet, then those whose listing row changed), then
// parked approvals anywhere not read since they changed, then the running
// rows on the screen read longest ago, then, with what is left, rows off
// the screen that were never read or changed.
// A session's record is streamed only while it is open (Open).

// Bounds of a refresh.
const (
	// RecordsPerRefresh bounds the records one refresh reads: with the
	// listing, a refresh sends at most RecordsPerRefresh+1 requests.
	RecordsPerRefresh = 8
	// FleetReaders is how many records are read at once.
	FleetReaders = 4
)

// Fleet is the fleet view's Source over one deployment.
type Fleet struct {
	e   Env
	now func() time.Time

	mu      sync.Mutex
	tokens  map[string]string       // the listing's continuation token of each session
	acted   map[string]bool         // sessions an action was sent to since their last read
	summary map[string]*fleetRecord // what a record read said, by session
	// Requests counts the requests the refreshes sent (tests, benchmarks).
	requests int
}

// fleetRecord is what one read of a session's record said.
type fleetRecord struct {
	key    string    // the listing row when it was read (status, activity)
	read   time.Time // when it was read
	last   time.Time // its last event
	call   string    // its last call, as its command line
	parked time.Time // its oldest parked call asked (zero: none)
	failed time.Time // its last turn failed (not interrupted)
	end    string    // how its last turn ended: turn.completed, turn.failed, "interrupted", "" (runs)
}

// NewFleet is the fleet over e.Client; calls are written with e.CallLine.
func NewFleet(e Env) *Fleet {
	if line := e.CallLine; line != nil {
		// Records are read FleetReaders at a time; the command lines are made
		// one at a time (the caller's function keeps a table of the tools).
		var mu sync.Mutex
		e.CallLine = func(ctx context.Context, tool string, input json.RawMessage) (string, bool, error) {
			mu.Lock()
			defer mu.Unlock()
			return line(ctx, tool, input)
		}
	}
	return &Fleet{e: e, now: time.Now, tokens: map[string]string{}, acted: map[string]bool{}, summary: map[string]*fleetRecord{}}
}

// Requests is how many requests the refreshes have sent so far.
func (f *Fleet) Requests() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.requests
}

// rowKey is what of a listing row says its record may have changed.
func rowKey(s *catalog.Session) string {
	return s.Status + "|" + s.UpdatedAt + "|" + boolWord(s.Running) + boolWord(s.Queued)
}

func boolWord(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// Refresh lists the sessions and reads the records worth reading (at most
// RecordsPerRefresh), visible first.
func (f *Fleet) Refresh(ctx context.Context, visible []string) ([]top.Row, error) {
	f.count(1)
	ss, err := f.e.Client.Sessions(ctx)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]*catalog.Session, len(ss))
	for i := range ss {
		if ss[i].SessionID != "" {
			byID[ss[i].SessionID] = &ss[i]
		}
	}
	f.mu.Lock()
	for id := range f.summary {
		if byID[id] == nil {
			delete(f.summary, id)
		}
	}
	clear(f.tokens)
	for id, s := range byID {
		f.tokens[id] = s.ContinuationToken
	}
	want := f.choose(ss, byID, visible)
	f.mu.Unlock()
	f.readAll(ctx, want, byID)

	f.mu.Lock()
	defer f.mu.Unlock()
	rows := make([]top.Row, 0, len(ss))
	for i := range ss {
		if ss[i].SessionID == "" {
			continue
		}
		rows = append(rows, f.row(&ss[i], f.summary[ss[i].SessionID]))
	}
	return rows, nil
}

func (f *Fleet) count(n int) {
	f.mu.Lock()
	f.requests += n
	f.mu.Unlock()
}

// choose picks the records this refresh reads. Callers hold mu.
func (f *Fleet) choose(ss []catalog.Session, byID map[string]*catalog.Session, visible []string) []string {
	var want []string
	taken := map[string]bool{}
	take := func(id string) {
		if len(want) < RecordsPerRefresh && !taken[id] {
			taken[id] = true
			want = append(want, id)
		}
	}
	// The sessions an action was just sent to (the refresh after it shows
	// what it did), then the rows on the screen: never read, then changed.
	for _, id := range sortedKeys(f.acted) {
		if byID[id] != nil {
			take(id)
		}
		delete(f.acted, id)
	}
	for pass := 0; pass < 2; pass++ {
		for _, id := range visible {
			s := byID[id]
			if s == nil {
				continue
			}
			sum := f.summary[id]
			if pass == 0 && sum == nil || pass == 1 && sum != nil && sum.key != rowKey(s) {
				take(id)
			}
		}
	}
	// Then parked approvals, on the screen or off, never read or changed:
	// their calls' times order the first rows, and a row not read yet has
	// only its listing's last activity for it.
	for i := 0; i < len(ss) && len(want) < RecordsPerRefresh; i++ {
		if s := &ss[i]; s.SessionID != "" && s.Status == "waiting_approval" {
			if sum := f.summary[s.SessionID]; sum == nil || sum.key != rowKey(s) {
				take(s.SessionID)
			}
		}
	}
	// Then the running ones on the screen, read longest ago.
	var live []string
	for _, id := range visible {
		if s := byID[id]; s != nil && !taken[id] && (s.Running || s.Queued || s.Status == "waiting_approval") {
			live = append(live, id)
		}
	}
	for len(want) < RecordsPerRefresh && len(live) > 0 {
		oldest := 0
		readAt := func(id string) time.Time {
			if sum := f.summary[id]; sum != nil {
				return sum.read
			}
			return time.Time{}
		}
		for i, id := range live {
			if readAt(id).Before(readAt(live[oldest])) {
				oldest = i
			}
		}
		take(live[oldest])
		live = append(live[:oldest], live[oldest+1:]...)
	}
	// Then, off the screen, rows never read or changed (the listing's
	// order: newest first).
	for i := 0; i < len(ss) && len(want) < RecordsPerRefresh; i++ {
		id := ss[i].SessionID
		if id == "" {
			continue
		}
		if sum := f.summary[id]; sum == nil || sum.key != rowKey(&ss[i]) {
			take(id)
		}
	}
	return want
}

// readAll reads the records of ids, FleetReaders at a time.
func (f *Fleet) readAll(ctx context.Context, ids []string, byID map[string]*catalog.Session) {
	if len(ids) == 0 {
		return
	}
	f.count(len(ids))
	work := make(chan string)
	var wg sync.WaitGroup
	for range min(FleetReaders, len(ids)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range work {
				sum, err := f.read(ctx, id)
				f.mu.Lock()
				if err == nil {
					sum.key = rowKey(byID[id])
					f.summary[id] = sum
				} else if old := f.summary[id]; old != nil {
					old.read = f.now() // tried: the next one goes first
				}
				f.mu.Unlock()
			}
		}()
	}
	for _, id := range ids {
		work <- id
	}
	close(work)
	wg.Wait()
}

// read reads one record into what the view needs of it.
func (f *Fleet) read(ctx context.Context, id string) (*fleetRecord, error) {
	sum := &fleetRecord{read: f.now()}
	pt := newParkedTracker()
	var tool string
	var input []byte
	err := f.e.Client.Record(ctx, id, func(ev *catalog.Event) error {
		pt.see(ev)
		if t, ok := parseTime(ev.At); ok {
			sum.last = t
		}
		switch ev.Type {
		case catalog.EventActionsRequested:
			if d := ev.Fields(); len(d.Calls) > 0 {
				c := d.Calls[len(d.Calls)-1]
				tool, input = c.ToolName, append(input[:0], c.Input...)
			}
		case catalog.EventApprovalRequested:
			d := ev.Fields()
			tool, input = d.ToolName, append(input[:0], d.Input...)
		case catalog.EventTurnStarted, catalog.EventTurnQueued:
			sum.end = ""
		case catalog.EventTurnCompleted:
			sum.end = ev.Type
		case catalog.EventTurnFailed:
			sum.end = ev.Type
			if d := ev.Fields(); d.Reason == "interrupted" {
				sum.end = "interrupted"
			} else if t, ok := parseTime(ev.At); ok {
				sum.failed = t
			}
		}
		return nil
	}, nil)
	if err != nil {
		return nil, err
	}
	if ps, _ := pt.calls(); len(ps) > 0 {
		sum.parked, _ = parseTime(ps[0].At)
		if sum.parked.IsZero() {
			sum.parked = sum.last
		}
	}
	if tool != "" {
		sum.call = f.line(ctx, tool, input)
	}
	return sum, nil
}

// line is a call as its command line (its tool's name alone when the input
// makes none).
func (f *Fleet) line(ctx context.Context, tool string, input json.RawMessage) string {
	if f.e.CallLine != nil {
		if l, _, err := f.e.CallLine(ctx, tool, input); err == nil {
			return l
		}
	}
	return tool
}

// row is a listing row with what its record said (sum nil: not read).
func (f *Fleet) row(s *catalog.Session, sum *fleetRecord) top.Row {
	r := top.Row{ID: s.SessionID, Title: s.Title, Principal: s.Principal}
	r.Created, _ = parseTime(s.CreatedAt)
	r.Activity, _ = parseTime(s.UpdatedAt)
	if r.Activity.IsZero() {
		r.Activity = r.Created
	}
	busy := s.Running || s.Queued || s.Status == "running" || s.Status == "waiting_approval"
	switch {
	case s.Status == "waiting_approval":
		r.State = top.StateApproval
	case s.Queued: // behind a running turn or for a slot (ListedState)
		r.State = top.StateQueued
	case s.Running || s.Status == "running":
		r.State = top.StateRunning
	case s.Status == "completed":
		r.State = top.StateDone
	case s.Status == "failed":
		r.State = top.StateFailed
		r.Failed = r.Activity
	case s.Status == "waiting" || s.Status == "":
		r.State = top.StateWaiting
	default:
		r.State = s.Status
	}
	if sum == nil {
		if r.State == top.StateApproval {
			r.Parked = r.Activity // asking is activity
		}
		return r
	}
	r.Call = sum.call
	if sum.last.After(r.Activity) {
		r.Activity = sum.last
	}
	if !sum.failed.IsZero() {
		r.Failed = sum.failed
	}
	if busy && (s.Status == "waiting_approval" || sum.key == rowKey(s)) {
		// A read older than the row (not read again in this refresh) says
		// nothing of a call parked now: the listing is newer.
		r.Parked = sum.parked
		if !r.Parked.IsZero() {
			r.State = top.StateApproval
		}
	} else if r.State == top.StateWaiting {
		switch sum.end {
		case catalog.EventTurnFailed:
			r.State = top.StateFailed
		case "interrupted":
			r.State = top.StateStopped
		}
	}
	if r.State == top.StateApproval && r.Parked.IsZero() {
		r.Parked = r.Activity
	}
	return r
}

func parseTime(s string) (time.Time, bool) {
	if s == "" {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	return t, err == nil
}

// errNothingParked is Parked's answer when no call waits.
var errNothingParked = errors.New("no call waits for approval now")

// Parked is the oldest call of session id that waits for approval, its
// input whole as its command line.
func (f *Fleet) Parked(ctx context.Context, id string) (top.Parked, error) {
	ps, _, err := ParkedCalls(ctx, f.e.Client, id, nil)
	if err != nil {
		return top.Parked{}, err
	}
	if len(ps) == 0 {
		return top.Parked{}, errNothingParked
	}
	p := ps[0]
	out := top.Parked{CallID: p.ID, Tool: p.Tool}
	out.At, _ = parseTime(p.At)
	switch {
	case p.Truncated:
		out.Line = p.Tool + " (the deployment cut this input in its record; agsh cannot show it whole)"
	case f.e.CallLine != nil:
		l, _, err := f.e.CallLine(ctx, p.Tool, p.Input)
		if err != nil {
			l = p.Tool + " (its input is not a JSON object: " + string(p.Input) + ")"
		}
		out.Line = l
	default:
		out.Line = p.Tool + " " + string(p.Input)
	}
	return out, nil
}

// Decide approves or denies a parked call (sent once).
func (f *Fleet) Decide(ctx context.Context, id, callID string, approve bool) error {
	defer f.act(id)
	return f.e.Client.Decide(ctx, id, callID, approve, "")
}

// Stop interrupts the session's running turn.
func (f *Fleet) Stop(ctx context.Context, id string) (bool, error) {
	defer f.act(id)
	return f.e.Client.Interrupt(ctx, id)
}

// act notes an action sent to session id (once its answer came): the next
// refresh reads its record first.
func (f *Fleet) act(id string) {
	f.mu.Lock()
	f.acted[id] = true
	f.mu.Unlock()
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Say sends the session a message with the continuation token of its row
// in the last listing; the rotated token is kept for the next.
func (f *Fleet) Say(ctx context.Context, id, text string) error {
	f.mu.Lock()
	tok := f.tokens[id]
	f.mu.Unlock()
	if tok == "" {
		return errors.New("the listing gives no continuation token for " + id + "; no message can be sent")
	}
	defer f.act(id)
	a, err := f.e.Client.Message(ctx, catalog.MessageRequest{Message: text, ContinuationToken: tok})
	if err != nil {
		return err
	}
	f.mu.Lock()
	f.tokens[id] = a.ContinuationToken
	f.mu.Unlock()
	return nil
}

// Open writes the record of session id as :tail does on a terminal (its
// last events, then each new one, the connection resumed when it drops),
// one line at a time, until ctx ends.
func (f *Fleet) Open(ctx context.Context, id string, width int, line func(string)) error {
	w := &lineWriter{line: line}
	e := f.e
	e.Out, e.Opts = w, render.Options{TTY: true, Width: width}
	e.Note = func(s string) { line("agsh: " + s) }
	err := Tail(ctx, e, id, TailOptions{Live: true})
	w.flush()
	var d Detached
	if errors.As(err, &d) {
		return nil
	}
	return err
}

// lineWriter hands each complete line written to it to line.
type lineWriter struct {
	line func(string)
	buf  []byte
}

var _ io.Writer = (*lineWriter)(nil)

func (w *lineWriter) Write(p []byte) (int, error) {
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			break
		}
		w.line(strings.TrimRight(string(w.buf[:i]), "\r"))
		w.buf = w.buf[i+1:]
	}
	if len(w.buf) > 1<<20 {
		w.flush()
	}
	return len(p), nil
}

func (w *lineWriter) flush() {
	if len(w.buf) > 0 {
		w.line(string(w.buf))
		w.buf = w.buf[:0]
	}
}
