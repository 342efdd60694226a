package meta

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/console"
	"github.com/agsh-dev/agsh/render"
)

// :sessions' filters and its watch, and :describe
// (docs/console.md#finding-a-session, docs/console.md#describe).

// MetaDescribe is the meta command that prints one session whole.
const MetaDescribe = ":describe"

// sessionsFlags are :sessions' flags.
var sessionsFlags = []MetaFlag{
	{Name: "--state", Placeholder: "<state>", Help: "only the sessions in this state: " + strings.Join(console.States, ", ")},
	{Name: "--since", Placeholder: "<duration>", Help: "only the sessions active within it (30m, 2h)"},
	{Name: "--tool", Placeholder: "<name>", Help: "only the sessions whose record calls this tool (at most 50 records read)"},
	{Name: "--title", Placeholder: "<text>", Help: "only the sessions whose title holds the text"},
	{Name: "--watch", Help: "print the table again whenever it changes, until Ctrl-C"},
	{Name: "--interval", Placeholder: "<duration>", Help: "with --watch, the pause between listings (default 2s)"},
}

// minInterval is the shortest pause a watch takes between listings.
const minInterval = 100 * time.Millisecond

// sessionsArgs is a checked :sessions line.
type sessionsArgs struct {
	filter   console.SessionFilter
	watch    bool
	interval time.Duration
}

// readSessionsArgs reads and checks :sessions' words.
func readSessionsArgs(args []string) (sessionsArgs, metaArgs, error) {
	a, err := parseMetaArgs(&MetaCommand{Name: MetaSessions, Usage: ":sessions", Flags: sessionsFlags}, args)
	if err != nil || a.values["--help"] != "" {
		return sessionsArgs{}, a, err
	}
	s := sessionsArgs{filter: console.SessionFilter{Tool: a.values["--tool"], Title: a.values["--title"]},
		watch: a.values["--watch"] != ""}
	if st := a.values["--state"]; st != "" {
		ok := false
		for _, x := range console.States {
			ok = ok || x == st
		}
		if !ok {
			return s, a, Usagef("%s: --state takes one of %s, not %q", MetaSessions, strings.Join(console.States, ", "), clipWord(st))
		}
		s.filter.State = st
	}
	if v := a.values["--since"]; v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return s, a, Usagef("%s: --since takes a positive duration such as 30m or 2h, not %q", MetaSessions, clipWord(v))
		}
		s.filter.Since = d
	}
	if v := a.values["--interval"]; v != "" {
		d, err := time.ParseDuration(v)
		switch {
		case !s.watch:
			return s, a, Usagef("%s: --interval is the pause of --watch; add --watch", MetaSessions)
		case err != nil || d < minInterval:
			return s, a, Usagef("%s: --interval takes a duration of at least 100ms, such as 2s, not %q", MetaSessions, clipWord(v))
		}
		s.interval = d
	}
	return s, a, nil
}

func checkSessions(args []string) error {
	_, _, err := readSessionsArgs(args)
	return err
}

// runSessions is :sessions: the listing, filtered; with --watch, again
// until Ctrl-C.
func runSessions(ctx context.Context, m *MetaRun, args []string) (MetaResult, error) {
	s, a, err := readSessionsArgs(args)
	if err != nil || a.values["--help"] != "" {
		me, _ := LookupMeta(MetaSessions)
		return helpResult(me, err)
	}
	f := &console.Finder{Client: m.Client, Filter: s.filter}
	if s.watch {
		return MetaResult{Written: true}, m.watchSessions(ctx, f, s)
	}
	ss, err := m.Client.Sessions(ctx)
	if err != nil {
		return MetaResult{}, err
	}
	found := f.FindIn(ctx, ss)
	bound, chosen := m.markBound(ss)
	rows, marked := sessionRows(found, bound)
	data, _ := json.Marshal(rows)
	notes := findNotes(found, s.filter)
	filtered := s.filter != console.SessionFilter{}
	if !filtered || len(rows) > 0 {
		notes = append(notes, SessionsNote(len(rows), m.InShell, bound.IsZero(), chosen, marked))
	} else {
		notes = append(notes, fmt.Sprintf("No session of the %d listed matches.", found.Listed))
	}
	return MetaResult{Value: render.Value{JSON: data, IsJSON: true}, Notes: notes,
		Text: func(w io.Writer, o render.Options) error { return console.WriteSessions(w, o, rows) }}, nil
}

// markBound is the binding whose session the table marks, and whether it
// was chosen at launch (a one-shot command binds per call: the latest).
func (m *MetaRun) markBound(ss []catalog.Session) (catalog.Binding, bool) {
	bound := m.Bound
	chosen := !m.InShell && !bound.IsZero()
	if bound.IsZero() && !m.InShell {
		bound = catalog.BindingOf(catalog.LatestSession(ss))
	}
	return bound, chosen
}

// sessionRows are the table's rows of a find, the bound session marked
// "*", and whether one is.
func sessionRows(found console.Found, bound catalog.Binding) ([]console.SessionRow, bool) {
	marked := false
	rows := make([]console.SessionRow, 0, len(found.Sessions))
	for _, s := range found.Sessions {
		r := console.SessionRow{ID: s.SessionID, State: s.State, LastActivity: s.UpdatedAt, Title: s.Title}
		if r.ID == "" {
			r.ID = s.ContinuationToken
		}
		if r.LastActivity == "" {
			r.LastActivity = s.CreatedAt
		}
		if bound.SessionID != "" && bound.SessionID == s.SessionID ||
			bound.ContinuationToken != "" && bound.ContinuationToken == s.ContinuationToken {
			r.Bound = "*"
			marked = true
		}
		rows = append(rows, r)
	}
	return rows, marked
}

// findNotes say what a find left out.
func findNotes(found console.Found, f console.SessionFilter) []string {
	var notes []string
	if found.Unsearched > 0 {
		notes = append(notes, fmt.Sprintf("note: %d older session(s) were not searched (agsh reads at most %d records a command); narrow with --since",
			found.Unsearched, console.MaxRecordReads))
	}
	if found.Unread > 0 {
		notes = append(notes, fmt.Sprintf("note: the record of %d session(s) could not be read (%s); they are left out",
			found.Unread, clip(found.Err.Error(), 200)))
	}
	return notes
}

// watchSessions is :sessions --watch.
func (m *MetaRun) watchSessions(ctx context.Context, f *console.Finder, s sessionsArgs) error {
	if !m.Last {
		return Usagef("%s --watch writes as it goes until Ctrl-C; it cannot feed a pipeline's filters", MetaSessions)
	}
	o := console.WatchOptions{Interval: s.interval, Live: m.Live, Format: m.Format,
		Rows: func(found console.Found) []console.SessionRow {
			// The listing of this refresh decides the latest session.
			ss := make([]catalog.Session, len(found.Sessions))
			for i, x := range found.Sessions {
				ss[i] = x.Session
			}
			bound, _ := m.markBound(ss)
			rows, _ := sessionRows(found, bound)
			return rows
		},
		Notes: func(found console.Found) []string { return findNotes(found, s.filter) },
	}
	return console.Watch(ctx, m.consoleEnv(ctx), f, o)
}

// describeFlags: :describe takes --output only.
func runDescribe(ctx context.Context, m *MetaRun, args []string) (MetaResult, error) {
	me, _ := LookupMeta(MetaDescribe)
	a, err := parseMetaArgs(me, args)
	if err != nil || a.values["--help"] != "" {
		return helpResult(me, err)
	}
	ch, err := m.session(ctx, a.operand(0))
	if err != nil {
		return MetaResult{}, err
	}
	ss, err := m.Client.Sessions(ctx)
	if err != nil && !catalog.IsCode(err, catalog.CodeNoSessionsRoute) {
		return MetaResult{}, err
	}
	var row *catalog.Session
	for i := range ss {
		if ss[i].SessionID == ch.ID {
			row = &ss[i]
		}
	}
	d, err := console.Describe(ctx, m.Client, ch.ID, m.note)
	if err != nil {
		return MetaResult{}, err
	}
	doc := describeDoc(m, ch.ID, row, d, time.Now())
	if m.Format.IsData() {
		data, _ := json.Marshal(doc)
		return MetaResult{Value: render.Value{JSON: data, IsJSON: true}}, nil
	}
	return MetaResult{Value: render.Value{Text: describeText(doc, time.Now()), Final: true}}, nil
}

// describeDocument is :describe --output json.
type describeDocument struct {
	Session    string            `json:"session"`
	Title      *string           `json:"title"`
	State      string            `json:"state"`
	Mode       *string           `json:"mode"`
	DryRun     bool              `json:"dryRun"`
	Principal  *string           `json:"principal"`
	CreatedAt  *string           `json:"createdAt"`
	UpdatedAt  *string           `json:"updatedAt"`
	Token      describeToken     `json:"token"`
	RecordURL  string            `json:"recordUrl"`
	Events     int64             `json:"events"`
	LastEvent  *string           `json:"lastEvent"`
	Turns      []console.Turn    `json:"turns"`
	OlderTurns int               `json:"olderTurns"`
	Parked     []describedParked `json:"parked"`
	Listed     bool              `json:"listed"`
	raw        *catalog.Session
}

type describeToken struct {
	Listed *string `json:"listed"`
	Held   *string `json:"held"`
	// Fresh: the token this run holds is the listed one (null when the
	// run holds none, or the listing gives none).
	Fresh *bool `json:"fresh"`
}

type describedParked struct {
	CallID string          `json:"callId"`
	Tool   string          `json:"tool"`
	At     string          `json:"at"`
	TurnID string          `json:"turnId"`
	Input  json.RawMessage `json:"input"`
}

func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func describeDoc(m *MetaRun, id string, row *catalog.Session, d console.Description, now time.Time) describeDocument {
	doc := describeDocument{Session: id, RecordURL: m.Client.RecordURL(id), Events: d.Events, LastEvent: strPtr(d.LastEvent),
		Turns: d.Turns, OlderTurns: d.OlderTurns, Parked: []describedParked{}, raw: row}
	if doc.Turns == nil {
		doc.Turns = []console.Turn{}
	}
	held := ""
	if m.Token != nil {
		held = m.Token(id)
	}
	if held == "" && m.Bound.ContinuationToken != "" && (m.Bound.SessionID == "" || m.Bound.SessionID == id) {
		held = m.Bound.ContinuationToken
	}
	doc.Token.Held = strPtr(held)
	if row != nil {
		doc.Listed = true
		facts := console.RecordFacts{LastEnd: d.LastEnd}
		doc.State = console.State(*row, &facts)
		doc.Title, doc.Mode, doc.Principal = strPtr(row.Title), strPtr(row.Mode), strPtr(row.Principal)
		doc.CreatedAt, doc.UpdatedAt, doc.DryRun = strPtr(row.CreatedAt), strPtr(row.UpdatedAt), row.DryRun
		doc.Token.Listed = strPtr(row.ContinuationToken)
		if row.TraceURL != "" {
			doc.RecordURL = row.TraceURL
		}
		if held != "" && row.ContinuationToken != "" {
			fresh := held == row.ContinuationToken
			doc.Token.Fresh = &fresh
		}
	} else {
		doc.State = "unknown"
	}
	for _, p := range d.Parked {
		in := p.Input
		if in == nil {
			in = json.RawMessage("null")
		}
		doc.Parked = append(doc.Parked, describedParked{CallID: p.ID, Tool: p.Tool, At: p.At, TurnID: p.TurnID, Input: in})
	}
	return doc
}

// describeText is :describe's text: one fact a line, the deployment's
// text made safe and kept on one line.
func describeText(doc describeDocument, now time.Time) string {
	var b strings.Builder
	line := func(k, v string) { fmt.Fprintf(&b, "%-14s %s\n", k, oneLine(v)) }
	safe := func(s *string, none string) string {
		if s == nil {
			return none
		}
		return *s
	}
	when := func(s *string) string {
		if s == nil {
			return "not listed"
		}
		if ag := age(*s, now); ag != "" {
			return *s + " (" + ag + " ago)"
		}
		return *s
	}
	line("session", doc.Session)
	line("title", safe(doc.Title, "none"))
	state := doc.State
	if doc.Mode != nil {
		state += " (" + *doc.Mode + ")"
	}
	if doc.DryRun {
		state += ", a dry run: read tools run, write tools get stub results"
	}
	if !doc.Listed {
		state = "unknown: the listing does not have this session"
	}
	line("state", state)
	line("principal", safe(doc.Principal, "not listed"))
	line("created", when(doc.CreatedAt))
	line("last activity", when(doc.UpdatedAt))
	tok := "not listed"
	switch t := doc.Token; {
	case t.Listed != nil && t.Fresh == nil:
		tok = *t.Listed + " (the listing's; this run holds none)"
	case t.Fresh != nil && *t.Fresh:
		tok = *t.Listed + " — current: the listing's, and the one this run holds"
	case t.Fresh != nil:
		tok = *t.Listed + " — the one this run holds (" + *t.Held + ") is stale: a follow-up replaced it"
	case t.Held != nil:
		tok = *t.Held + " (held by this run; the listing gives none)"
	}
	line("token", tok)
	rec := doc.RecordURL + " (" + strconv.FormatInt(doc.Events, 10) + " events"
	if doc.LastEvent != nil {
		rec += ", the last " + *doc.LastEvent
	}
	line("record", rec+")")
	turns := strconv.Itoa(len(doc.Turns) + doc.OlderTurns)
	if doc.OlderTurns > 0 {
		turns += fmt.Sprintf(" (the last %d shown)", len(doc.Turns))
	}
	line("turns", turns)
	for _, t := range doc.Turns {
		calls := plural(t.Calls, "call")
		if t.Errors > 0 {
			calls += ", " + plural(t.Errors, "error")
		}
		if t.Stubbed > 0 {
			calls += ", " + strconv.Itoa(t.Stubbed) + " stubbed"
		}
		what := t.Message
		if t.Reason != "" {
			what = t.Reason
		}
		fmt.Fprintf(&b, "  %s  %-9s  %-8s %-20s %s\n", oneLine(t.ID), oneLine(t.Source), t.Outcome, calls, oneLine(what))
	}
	if len(doc.Parked) == 0 {
		line("parked", "none")
	} else {
		line("parked", plural(len(doc.Parked), "call")+" waiting for approval (:approvals "+doc.Session+" shows them whole)")
		for _, p := range doc.Parked {
			fmt.Fprintf(&b, "  %s  %s  asked %s\n", oneLine(p.CallID), oneLine(p.Tool), oneLine(p.At))
		}
	}
	return b.String()
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
