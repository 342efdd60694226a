package console

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/jsontext"
)

// A record as rows for a person (docs/console.md#the-timeline): one row per
// event that matters, a call as the agsh command line its input maps to.

// Row is one row of the timeline.
type Row struct {
	// Index is the event's index (-1 for a date row).
	Index int64
	// Time is the event's time of day, or a date row's date.
	Time string
	// Event says what happened: "turn started", "call ok", "message" …
	Event string
	// Took is a call's duration.
	Took string
	// ID is the call's id, for :replay and the approval commands.
	ID string
	// What is the rest: the call's command line and its result's first
	// line, the message's first line, a turn's reason …
	What string

	// pending: a call whose result has not come yet (:trace holds it).
	pending bool
	// day is the event's date, for the date rows.
	day string
}

// shortID is how much of an id a narrow table keeps: "call_" and seven hex
// digits, unique in any record a person reads (:replay takes a prefix).
const shortID = 12

// fill writes the row's cells into c.
func (r *Row) fill(c *[6]string) []string {
	idx := ""
	if r.Index >= 0 {
		idx = strconv.FormatInt(r.Index, 10)
	}
	*c = [6]string{idx, r.Time, r.Event, r.Took, r.ID, r.What}
	return c[:]
}

// CallLine writes a call as the agsh command line that sends its input;
// inputJSON when that is --input-json.
type CallLine func(ctx context.Context, tool string, input json.RawMessage) (line string, inputJSON bool, err error)

// describer turns events into rows.
type describer struct {
	ctx  context.Context
	line CallLine
	// paired: a call's result fills the call's row (:trace); else it is a
	// row of its own naming the call (:tail).
	paired bool
	// tool, when set, keeps the calls of that tool only.
	tool string
	// lines remembers each recent call's command line, for the result rows
	// of :tail (bounded).
	lines map[string]string
	// made remembers the command lines made of recent inputs (tool and
	// input bytes; bounded): a record repeats its calls, and making a line
	// parses it back to check it.
	made map[madeKey]string
	// loc is the time zone times are shown in.
	loc *time.Location
	day string
	// lastDay caches the date of the last event's day; lastAt and
	// lastClock the last time read and its clock.
	lastY     int
	lastYD    int
	lastDay   string
	lastAt    string
	lastClock string
}

// maxRemembered bounds the calls :tail remembers.
const maxRemembered = 1024

func newDescriber(ctx context.Context, e Env, paired bool, tool string) *describer {
	loc := e.Location
	if loc == nil {
		loc = time.Local
	}
	line := e.CallLine
	if line == nil {
		line = func(context.Context, string, json.RawMessage) (string, bool, error) { return "", false, errNoLine }
	}
	return &describer{ctx: ctx, line: line, paired: paired, tool: tool, lines: map[string]string{}, loc: loc}
}

// errNoLine: no way to write a call as a command line was given.
var errNoLine = errors.New("no command line")

// rows appends the rows of ev to out.
func (d *describer) rows(out []Row, ev *catalog.Event) []Row {
	f := ev.Fields()
	return d.rowsOf(out, ev, &f, nil)
}

// rowsOf is rows of an event whose data f is decoded already; lines, when
// set, are its calls' command lines as d.lines makes them (made ahead).
func (d *describer) rowsOf(out []Row, ev *catalog.Event, fp *catalog.EventData, lines []string) []Row {
	f := *fp
	line := func(i int, tool string, input json.RawMessage, truncated bool) string {
		if i < len(lines) {
			return lines[i]
		}
		return d.callLine(tool, input, truncated)
	}
	base := Row{Index: ev.Index}
	base.Time, base.day = d.when(ev.At)
	add := func(r Row) {
		out = append(out, r)
	}
	switch ev.Type {
	case catalog.EventTurnStarted:
		r := base
		r.Event = "turn started"
		r.What = parens(f.Source)
		if msg := firstLine(f.Message); msg != "" {
			r.What = strings.TrimSpace(r.What + " " + msg)
		}
		if f.TraceID != "" {
			// The collector's trace of the turn (docs/console.md#the-timeline).
			r.What = strings.TrimSpace(r.What + "  trace " + f.TraceID)
		}
		add(r)
	case catalog.EventTurnQueued:
		r := base
		r.Event = "turn QUEUED"
		if f.Position != "" {
			r.What = "position " + string(f.Position)
		}
		if msg := firstLine(f.Message); msg != "" {
			r.What = strings.TrimSpace(r.What + ": " + msg)
		}
		add(r)
	case catalog.EventTurnCompleted:
		r := base
		r.Event = "turn done"
		add(r)
	case catalog.EventTurnFailed:
		r := base
		r.Event = "turn FAILED"
		r.What = f.Reason
		if msg := firstLine(f.Message); msg != "" {
			r.What = strings.TrimPrefix(r.What+": "+msg, ": ")
		}
		add(r)
	case catalog.EventActionsRequested:
		for i, c := range f.Calls {
			if d.tool != "" && c.ToolName != d.tool {
				continue
			}
			r := base
			r.Event, r.ID, r.pending = "call", c.CallID, d.paired
			r.What = line(i, c.ToolName, c.Input, c.InputTruncated)
			if !d.paired {
				r.Event = "call …"
				d.remember(c.CallID, r.What)
			}
			add(r)
		}
	case catalog.EventActionResult:
		r := base
		r.Event, r.ID, r.Took = outcome(f.IsError, f.Stubbed), f.CallID, duration(f.DurationMs)
		line := d.lines[f.CallID]
		if line == "" {
			line = safeName(f.ToolName)
		}
		r.What = line + resultText(f)
		add(r)
	case catalog.EventMessageCompleted:
		r := base
		r.Event = "message"
		r.What = firstLine(f.Text)
		add(r)
	case catalog.EventApprovalRequested:
		r := base
		r.Event, r.ID = "APPROVAL?", f.CallID
		r.What = "waits for approval: " + line(0, f.ToolName, f.Input, f.InputTruncated)
		add(r)
	case catalog.EventApprovalResolved:
		r := base
		r.Event, r.ID = f.Decision, f.CallID
		switch f.Decision {
		case "approve":
			r.Event = "approved"
		case "deny":
			r.Event = "denied"
		}
		r.What = firstLine(f.Reason)
		add(r)
	case catalog.EventSessionWaiting:
		r := base
		r.Event = "waiting"
		r.What = "the session waits for a follow-up message"
		add(r)
	case catalog.EventRecordTruncated:
		r := base
		r.Event = "dropped"
		r.What = firstLine(f.Note)
		if r.What == "" && f.Dropped != "" {
			r.What = string(f.Dropped) + " older events were dropped by the deployment"
		}
		add(r)
	default:
		r := base
		r.Event = clip(ev.Type, 24)
		if r.Event == "" {
			r.Event = "?"
		}
		r.What = clip(string(jsontext.AppendCompact(nil, ev.Data)), maxWhat)
		add(r)
	}
	return out
}

// outcome is the event word of a call's result: a dry run's stub result
// (the tool did not run) is "call STUB", whatever else it says.
func outcome(isError, stubbed bool) string {
	switch {
	case stubbed:
		return "call STUB"
	case isError:
		return "call ERROR"
	}
	return "call ok"
}

// remember keeps a call's command line for its result row.
func (d *describer) remember(id, line string) {
	if id == "" {
		return
	}
	if len(d.lines) >= maxRemembered {
		clear(d.lines)
	}
	d.lines[id] = line
}

// callLine is a call's command line (clipped).
func (d *describer) callLine(tool string, input json.RawMessage, truncated bool) string {
	if tool == "" {
		tool = "?"
	}
	if truncated || len(input) == 0 || string(input) == "null" {
		return safeName(tool) + " (its input is not in the record: the deployment cut it)"
	}
	keep := len(input) <= maxMadeInput
	var key madeKey
	if keep {
		key = madeKey{tool, string(input)}
		if line, ok := d.made[key]; ok {
			return line
		}
	}
	line, _, err := d.line(d.ctx, tool, input)
	if err != nil {
		return safeName(tool) + " " + clip(string(input), maxWhat)
	}
	line = clip(line, maxWhat)
	if keep {
		if d.made == nil || len(d.made) >= maxMade {
			d.made = make(map[madeKey]string)
		}
		d.made[key] = line
	}
	return line
}

// lines are the command lines of ev's calls, as rowsOf writes them (in the
// order of its calls, "" for a call the tool filter leaves out), made
// ahead of the rows; nil for an event without calls.
func (d *describer) linesOf(ev *catalog.Event, f *catalog.EventData) []string {
	switch ev.Type {
	case catalog.EventActionsRequested:
		if len(f.Calls) == 0 {
			return nil
		}
		lines := make([]string, len(f.Calls))
		for i, c := range f.Calls {
			if d.tool == "" || c.ToolName == d.tool {
				lines[i] = d.callLine(c.ToolName, c.Input, c.InputTruncated)
			}
		}
		return lines
	case catalog.EventApprovalRequested:
		return []string{d.callLine(f.ToolName, f.Input, f.InputTruncated)}
	}
	return nil
}

// madeKey is a call's tool and input, as describer.made keeps them.
type madeKey struct{ tool, input string }

// maxMade and maxMadeInput bound describer.made: the lines of inputs up
// to 4 KiB, 256 of them at most (then it begins again): 5 MiB at worst,
// a line being clipped at maxWhat.
const (
	maxMade      = 256
	maxMadeInput = 4 << 10
)

// safeName is a tool name as the first word of a line.
func safeName(s string) string { return clip(s, 200) }

// maxWhat bounds the WHAT cell: a table cuts it at the terminal's width
// anyway, and a pipe gets this much of a call's line (:replay prints it
// whole).
const maxWhat = 16 << 10

// resultText is " ⇒ " and the first line of a call's result.
func resultText(f catalog.EventData) string {
	s := resultHead(f.Result)
	if f.ResultTruncated {
		s = strings.TrimSpace(s + " (cut by the deployment)")
	}
	if s == "" {
		return ""
	}
	return "  ⇒ " + s
}

// resultString is a result's text: a string, the text of an MCP result's
// first text part, or the compact JSON.
func resultString(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	switch raw[0] {
	case '"':
		return jsontext.UnquoteValid(raw)
	case '{':
		var mcp struct {
			Content []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
		}
		if json.Unmarshal(raw, &mcp) == nil {
			for _, p := range mcp.Content {
				if p.Type == "text" && p.Text != "" {
					return p.Text
				}
			}
		}
	}
	return string(jsontext.AppendCompact(nil, raw[:min(len(raw), maxWhat)]))
}

// headBytes is how much of a long string result resultHead reads for its
// first line.
const headBytes = 64 << 10

// resultHead is firstLine of a result's text. A string result longer than
// headBytes is read no further than that for it (a call that read a
// megabyte file is not decoded whole for its first line): a first line
// that does not end there is cut with "…", and one that does is taken to
// have more after it.
func resultHead(raw json.RawMessage) string {
	if len(raw) <= headBytes || raw[0] != '"' {
		return firstLine(resultString(raw))
	}
	p := 1
	for p < headBytes {
		if raw[p] == '\\' {
			n := 2
			if p+1 < len(raw) && raw[p+1] == 'u' {
				n = 6
			}
			if p+n > headBytes {
				break
			}
			p += n
			continue
		}
		p++
	}
	for p > 1 && !utf8.RuneStart(raw[p]) {
		p--
	}
	head := jsontext.UnquoteValid(append(raw[:p:p], '"'))
	line := firstLine(head)
	switch {
	case strings.HasSuffix(line, " …"), strings.HasSuffix(line, "…") && len(line) > maxWhat:
		return line
	case strings.ContainsRune(strings.TrimLeft(head, " \t\r\n"), '\n'):
		return line + " …"
	}
	return line + "…"
}

// firstLine is the first non-blank line of s, " …" after it when more
// follows, clipped.
func firstLine(s string) string {
	s = strings.TrimLeft(s, " \t\r\n")
	line, rest, more := strings.Cut(s, "\n")
	line = strings.TrimRight(line, " \t\r")
	if more && strings.TrimSpace(rest) != "" {
		line += " …"
	}
	return clip(line, maxWhat)
}

// parens is "(s)", or "" for "".
func parens(s string) string {
	if s == "" {
		return ""
	}
	return "(" + clip(s, 40) + ")"
}

// clip cuts s to at most n bytes on a rune boundary, "…" after a cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// duration is a call's durationMs for people: "3ms", "1.2s", "2m03s".
func duration(ms json.Number) string {
	if ms == "" {
		return ""
	}
	f, err := ms.Float64()
	if err != nil || f < 0 {
		return clip(string(ms), 12)
	}
	switch {
	case f < 1000:
		return strconv.FormatFloat(f, 'f', 0, 64) + "ms"
	case f < 60_000:
		return strconv.FormatFloat(f/1000, 'f', 1, 64) + "s"
	case f < 100*3600_000:
		s := int64(f / 1000)
		if s >= 3600 {
			return strconv.FormatInt(s/3600, 10) + "h" + pad2(s/60%60) + "m"
		}
		return strconv.FormatInt(s/60, 10) + "m" + pad2(s%60) + "s"
	}
	return ">100h"
}

func pad2(n int64) string {
	if n < 10 {
		return "0" + strconv.FormatInt(n, 10)
	}
	return strconv.FormatInt(n, 10)
}

// when is an event time as the table shows it (the time of day in the
// local zone) and its date; a time that is not RFC 3339 shows as sent.
func (d *describer) when(at string) (clock, day string) {
	// Events a second apart or closer share the answer: only the fraction
	// of a second differs, which the clock does not show.
	if d.lastAt != "" && sameSecond(at, d.lastAt) {
		return d.lastClock, d.lastDay
	}
	clock, day = d.parseWhen(at)
	d.lastAt = ""
	if day != "" {
		d.lastAt, d.lastClock = at, clock
	}
	return clock, day
}

// sameSecond reports two RFC 3339 times that differ at most in their
// fraction of a second ("2026-01-02T03:04:05.1Z", "2026-01-02T03:04:05.9Z"),
// both with one.
func sameSecond(a, b string) bool {
	if len(a) < 21 || len(b) < 21 || a[19] != '.' || b[19] != '.' || a[:19] != b[:19] {
		return false
	}
	return a[fractionEnd(a):] == b[fractionEnd(b):] && fractionEnd(a) > 20 && a[10] == 'T'
}

// fractionEnd is where the digits after a time's '.' (at 19) end.
func fractionEnd(s string) int {
	i := 20
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// parseWhen is when's reading of at.
func (d *describer) parseWhen(at string) (clock, day string) {
	t, err := time.Parse(time.RFC3339Nano, at)
	if err != nil {
		return clip(at, 24), ""
	}
	t = t.In(d.loc)
	if y, yd := t.Year(), t.YearDay(); y != d.lastY || yd != d.lastYD {
		d.lastY, d.lastYD, d.lastDay = y, yd, t.Format("2006-01-02")
	}
	h, m, s := t.Clock()
	b := [8]byte{byte('0' + h/10), byte('0' + h%10), ':', byte('0' + m/10), byte('0' + m%10), ':', byte('0' + s/10), byte('0' + s%10)}
	return string(b[:]), d.lastDay
}

// dateRow is the row that starts a new day, or false.
func (d *describer) dateRow(r *Row) (Row, bool) {
	if r.day == "" || r.day == d.day {
		return Row{}, false
	}
	d.day = r.day
	return Row{Index: -1, Time: r.day}, true
}

// matchType reports whether an event type is typ or starts with it.
func matchType(t, typ string) bool { return typ == "" || strings.HasPrefix(t, typ) }

// namesTool reports whether ev's data names the tool (its toolName, or a
// call's).
func namesTool(ev *catalog.Event, tool string) bool {
	if tool == "" {
		return true
	}
	f := ev.Fields()
	return namesToolIn(&f, tool)
}

// namesToolIn is namesTool of an event's decoded data.
func namesToolIn(f *catalog.EventData, tool string) bool {
	if tool == "" {
		return true
	}
	if f.ToolName == tool {
		return true
	}
	for _, c := range f.Calls {
		if c.ToolName == tool {
			return true
		}
	}
	return false
}
