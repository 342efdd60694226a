package console

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/generated"
	"github.com/agsh-dev/agsh/internal/exitcode"
	"github.com/agsh-dev/agsh/render"
)

// :export (docs/console.md#export): a session's record as an agsh script
// that repeats its calls, as a Markdown report for a ticket, or as
// :trace --output json of the whole record. The record is read once, as it
// arrives; a call waits for its result (bounded, as :trace's rows do) so
// that its outcome is written beside it.

// Export formats, the values of --as.
const (
	ExportScript   = "script"
	ExportMarkdown = "md"
	ExportJSON     = "json"
)

// ExportFormats are --as's values.
var ExportFormats = []string{ExportScript, ExportMarkdown, ExportJSON}

// ExportOptions say what an export writes.
type ExportOptions struct {
	// As is the format: ExportScript, ExportMarkdown or ExportJSON.
	As string
	// File, when set, is written instead of Env.Out: through a new file
	// beside it renamed into place once the export is whole (0600: a record
	// holds what the session read).
	File string
	// Agent is the agent's name, for the header ("" when unknown).
	Agent string
	// Version is agsh's version, for the header.
	Version string
	// Now is the export's time (zero: the clock's).
	Now time.Time
}

// Limits of an export.
const (
	// maxHeldItems and maxHeldBytes bound what waits for a call's result:
	// past them the oldest call is written without its outcome (its
	// result, when it comes, is written on its own).
	maxHeldItems = 1000
	maxHeldBytes = 32 << 20
	// maxCommentLines bounds the lines of one message written as comments
	// in a script (the report has the message whole).
	maxCommentLines = 200
	// maxSeenCalls bounds the call ids remembered to tell an
	// approval.requested of a requested call from a call of its own.
	maxSeenCalls = 4096
)

// LeftOutError ends a script export that left calls out (exit 3): the
// script was written whole, each call left out a comment saying why.
type LeftOutError struct{ N, Calls int }

func (e *LeftOutError) Error() string {
	return strconv.Itoa(e.N) + " of the " + strconv.Itoa(e.Calls) + " calls of the record have no command line and were left out of the script " +
		"(a \"# left out\" comment says why for each)"
}

// ExitCode is 3: the script does not repeat the whole session.
func (e *LeftOutError) ExitCode() int { return exitcode.Refused }

// Code is the JSON error line's code.
func (e *LeftOutError) Code() string { return codeNotReplayable }

// Export writes session id's record as o.As says.
func Export(ctx context.Context, e Env, id string, o ExportOptions) (err error) {
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	if o.File != "" {
		if fi, serr := os.Stat(o.File); serr == nil && fi.IsDir() {
			// -o . or -o reports/: the rename would fail after the whole
			// record was read, naming the temporary file.
			name := map[string]string{ExportMarkdown: "report.md", ExportJSON: "record.json"}[o.As]
			if name == "" {
				name = "session.agsh"
			}
			return &ExportFileError{File: o.File, Err: errors.New("it is a directory; name a file (-o " +
				filepath.Join(o.File, name) + ")")}
		}
		dir := filepath.Dir(o.File)
		f, ferr := os.CreateTemp(dir, ".agsh-export-*")
		if ferr != nil {
			// Said of the directory: the temporary file's name is agsh's.
			switch {
			case errors.Is(ferr, fs.ErrNotExist):
				ferr = errors.New("there is no directory " + dir)
			case errors.Is(ferr, fs.ErrPermission):
				ferr = errors.New("permission denied to create a file in " + dir)
			}
			return &ExportFileError{File: o.File, Err: ferr}
		}
		defer func() {
			cerr := f.Close()
			if err == nil && cerr != nil {
				err = &ExportFileError{File: o.File, Err: cerr}
			}
			if _, ok := err.(*LeftOutError); err == nil || ok {
				if rerr := os.Rename(f.Name(), o.File); rerr != nil {
					err = &ExportFileError{File: o.File, Err: rerr}
				}
			}
			if err != nil {
				if _, ok := err.(*LeftOutError); !ok {
					_ = os.Remove(f.Name())
				}
			}
		}()
		e.Out = f
		e.Opts.TTY = false
	}
	if o.As == ExportJSON {
		return traceData(ctx, e, id, TraceOptions{Format: render.JSON})
	}
	if e.CallLine == nil {
		e.CallLine = func(context.Context, string, json.RawMessage) (string, bool, error) { return "", false, errNoLine }
	}
	x := &exporter{e: e, ctx: ctx, o: o, id: id, pending: map[string]*xCall{}, seen: map[string]bool{}}
	x.w = bufio.NewWriterSize(e.Out, 64<<10)
	if o.As == ExportMarkdown {
		x.f = &mdWriter{x: x}
	} else {
		x.f = &scriptWriter{x: x}
	}
	x.f.head(x.listed(ctx))
	rerr := readAhead(ctx, e.Client, id, e.note, nil, func(ev *catalog.Event, f *catalog.EventData, _ []string) error {
		return x.event(ev, f)
	})
	x.flush(true)
	if rerr != nil && x.events == 0 && x.err == nil {
		// Nothing of the record could be read (an unknown session, a
		// refusal, no connection): no report of nothing, the error alone.
		x.w.Reset(e.Out)
		return rerr
	}
	if rerr != nil && x.err == nil {
		x.f.cut(rerr)
	}
	if rerr == nil && x.err == nil {
		x.f.end()
	}
	if ferr := x.w.Flush(); x.err == nil {
		x.err = ferr
	}
	switch {
	case rerr != nil:
		return rerr
	case x.err != nil:
		return x.err
	case x.leftOut > 0 && o.As == ExportScript:
		return &LeftOutError{N: x.leftOut, Calls: x.calls}
	}
	return nil
}

// ExportFileError is an -o file that could not be written (exit 2: the
// file named is the operator's to fix).
type ExportFileError struct {
	File string
	Err  error
}

func (e *ExportFileError) Error() string {
	return "cannot write " + strconv.Quote(e.File) + ": " + e.Err.Error()
}

// ExitCode is 2.
func (e *ExportFileError) ExitCode() int { return exitcode.Usage }

// Code is the JSON error line's code.
func (e *ExportFileError) Code() string { return "usage" }

// exporter reads the record for a format: it pairs each call with its
// result and approvals, holding the items that follow a call until it has
// its result, within bounds.
type exporter struct {
	e   Env
	ctx context.Context
	o   ExportOptions
	id  string
	w   *bufio.Writer
	f   exportFormat
	err error

	held      []xItem
	heldBytes int
	pending   map[string]*xCall // call id → its held call, waiting
	seen      map[string]bool   // recent call ids requested

	// Counts for the end.
	events, calls, leftOut, errors, turns int
	first, last                           int64
	firstAt, lastAt                       string
	// lastMessage is the last model message (the report's final message).
	lastMessage string
	// exec caches each tool's execution ("agent": it runs inside the turn).
	exec map[string]string
}

// exportFormat writes items in one format.
type exportFormat interface {
	head(row *catalog.Session)
	item(it *xItem)
	// cut ends an export whose record could not be read whole.
	cut(err error)
	end()
}

// Item kinds.
const (
	itemCall = iota
	itemResult
	itemApproval
	itemTurnStart
	itemTurnQueued
	itemTurnEnd
	itemMessage
	itemWaiting
	itemDropped
	itemOther
)

// xItem is one thing an export writes: a call, or an event.
type xItem struct {
	kind  int
	index int64
	at    string
	call  *xCall
	// word is a turn's source or outcome, a result's outcome, a
	// decision; text a message, a turn's message, a result's text, a
	// note; reason a failure's or decision's reason.
	word, text, reason string
	turnID, traceID    string
	callID, tool, by   string
	took               string
	isError            bool
}

// xCall is a call with what the record says of it after.
type xCall struct {
	index      int64
	at         string
	id, tool   string
	line, left string // its command line, or why it has none
	agent      bool   // it runs inside the agent's turn (agsh cannot call it)
	pending    bool
	// result is its result's item (nil: none in the record, yet).
	result    *xItem
	approvals []xItem
}

// listed is the session's row of the listing (nil when unlisted or the
// listing cannot be read).
func (x *exporter) listed(ctx context.Context) *catalog.Session {
	rows, err := x.e.Client.Sessions(ctx)
	if err != nil {
		return nil
	}
	for i := range rows {
		if rows[i].SessionID == x.id {
			return &rows[i]
		}
	}
	return nil
}

// event takes one event of the record.
func (x *exporter) event(ev *catalog.Event, fp *catalog.EventData) error {
	if x.events == 0 {
		x.first, x.firstAt = ev.Index, ev.At
	}
	x.events++
	x.last, x.lastAt = ev.Index, ev.At
	f := *fp
	base := xItem{index: ev.Index, at: ev.At, turnID: f.TurnID, traceID: f.TraceID}
	switch ev.Type {
	case catalog.EventActionsRequested:
		for _, c := range f.Calls {
			x.addCall(ev, c.CallID, c.ToolName, c.Input, c.InputTruncated)
		}
	case catalog.EventApprovalRequested:
		if !x.seen[f.CallID] {
			// A call the record asks approval for without requesting it.
			x.addCall(ev, f.CallID, f.ToolName, f.Input, f.InputTruncated)
		}
		it := base
		it.kind, it.callID, it.tool, it.word = itemApproval, f.CallID, f.ToolName, "asked"
		x.attach(it)
	case catalog.EventApprovalResolved:
		it := base
		it.kind, it.callID, it.word, it.reason, it.by = itemApproval, f.CallID, f.Decision, f.Reason, f.DecidedBy
		x.attach(it)
	case catalog.EventActionResult:
		it := base
		it.kind, it.callID, it.tool, it.word = itemResult, f.CallID, f.ToolName, outcome(f.IsError, f.Stubbed)
		it.isError, it.took, it.text = f.IsError && !f.Stubbed, duration(f.DurationMs), resultString(f.Result)
		if f.ResultTruncated {
			it.reason = "cut by the deployment"
		}
		if f.IsError && !f.Stubbed {
			x.errors++
		}
		x.attach(it)
	case catalog.EventTurnStarted:
		x.turns++
		it := base
		it.kind, it.word, it.text = itemTurnStart, f.Source, f.Message
		x.add(it)
	case catalog.EventTurnQueued:
		it := base
		it.kind, it.word, it.text = itemTurnQueued, string(f.Position), f.Message
		x.add(it)
	case catalog.EventTurnCompleted, catalog.EventTurnFailed:
		it := base
		it.kind, it.word = itemTurnEnd, "done"
		if ev.Type == catalog.EventTurnFailed {
			it.word, it.reason, it.text = "FAILED", f.Reason, f.Message
			if f.Reason == "interrupted" {
				it.word = "stopped"
			}
		}
		x.add(it)
	case catalog.EventMessageCompleted:
		x.lastMessage = f.Text
		it := base
		it.kind, it.text = itemMessage, f.Text
		x.add(it)
	case catalog.EventSessionWaiting:
		it := base
		it.kind = itemWaiting
		x.add(it)
	case catalog.EventRecordTruncated:
		it := base
		it.kind, it.text, it.word = itemDropped, f.Note, string(f.Dropped)
		x.add(it)
	default:
		it := base
		it.kind, it.word = itemOther, clip(ev.Type, 64)
		it.text = clip(string(ev.Data), maxWhat)
		x.add(it)
	}
	return x.err
}

// addCall holds a call until its result.
func (x *exporter) addCall(ev *catalog.Event, id, tool string, input json.RawMessage, cut bool) {
	x.calls++
	c := &xCall{index: ev.Index, at: ev.At, id: id, tool: tool, pending: id != ""}
	switch {
	case ToolWordProblem(tool) != "":
		c.left = ToolWordProblem(tool)
	case cut || len(input) == 0 || string(input) == "null":
		c.left = "the deployment cut its input in the record"
	default:
		line, _, err := x.e.CallLine(x.ctx, tool, input)
		switch {
		case err != nil:
			c.left = "its input is not a JSON object"
		case strings.ContainsFunc(line, generated.Hazard):
			c.left = "its command line would hold a control, bidi or zero-width character"
		default:
			c.line = line
			c.agent = x.execution(tool) == "agent"
		}
	}
	if c.left != "" {
		x.leftOut++
	}
	if id != "" {
		if _, dup := x.pending[id]; dup {
			c.pending = false
		} else {
			x.pending[id] = c
		}
		if len(x.seen) >= maxSeenCalls {
			clear(x.seen)
		}
		x.seen[id] = true
	}
	x.held = append(x.held, xItem{kind: itemCall, index: ev.Index, call: c})
	x.heldBytes += len(c.line) + len(c.left) + 64
	x.flush(false)
}

// execution is a tool's execution as its detail says ("" when unknown).
func (x *exporter) execution(tool string) string {
	if x.e.Execution == nil {
		return ""
	}
	if v, ok := x.exec[tool]; ok {
		return v
	}
	if x.exec == nil || len(x.exec) >= maxDetailsCached {
		x.exec = map[string]string{}
	}
	v := x.e.Execution(x.ctx, tool)
	x.exec[tool] = v
	return v
}

// maxDetailsCached bounds the tools whose execution an export remembers.
const maxDetailsCached = 1024

// attach gives a result or an approval to its held call, or writes it as an
// item of its own.
func (x *exporter) attach(it xItem) {
	if c, ok := x.pending[it.callID]; ok && it.callID != "" {
		if it.kind == itemResult {
			delete(x.pending, it.callID)
			c.pending = false
			c.result = &it
			x.heldBytes += len(it.text)
		} else {
			c.approvals = append(c.approvals, it)
			x.heldBytes += len(it.reason) + len(it.by)
		}
		x.flush(false)
		return
	}
	x.add(it)
}

// add holds an item behind the calls that wait, or writes it.
func (x *exporter) add(it xItem) {
	if len(x.held) == 0 {
		x.write(&it)
		return
	}
	x.held = append(x.held, it)
	x.heldBytes += len(it.text) + len(it.reason) + 64
	x.flush(false)
}

// flush writes the held items that wait for nothing; past the bounds (or
// all: at the end) the first call is written without its result.
func (x *exporter) flush(all bool) {
	force := all || len(x.held) > maxHeldItems || x.heldBytes > maxHeldBytes
	i := 0
	for ; i < len(x.held) && x.err == nil; i++ {
		it := &x.held[i]
		if it.kind == itemCall && it.call.pending {
			if !force {
				break
			}
			delete(x.pending, it.call.id)
			it.call.pending = false
			force = all || len(x.held)-i-1 > maxHeldItems || x.heldBytes > maxHeldBytes
		}
		x.write(it)
		x.heldBytes -= x.size(it)
	}
	clear(x.held[:i])
	x.held = append(x.held[:0], x.held[i:]...)
	if len(x.held) == 0 {
		x.heldBytes = 0
	}
}

// size is what an item counts against maxHeldBytes.
func (x *exporter) size(it *xItem) int {
	n := len(it.text) + len(it.reason) + 64
	if c := it.call; c != nil {
		n += len(c.line) + len(c.left)
		if c.result != nil {
			n += len(c.result.text)
		}
		for _, a := range c.approvals {
			n += len(a.reason) + len(a.by)
		}
	}
	return n
}

func (x *exporter) write(it *xItem) {
	if x.err != nil {
		return
	}
	x.f.item(it)
}

// str writes s.
func (x *exporter) str(s string) {
	if x.err == nil {
		_, x.err = x.w.WriteString(s)
	}
}
