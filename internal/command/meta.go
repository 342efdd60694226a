package command

import (
	"context"
	"encoding/json"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/render"
)

// Meta commands (shell.md "Commands" [wave 2]) start with ':', which no
// tool name does, so they can never shadow a tool: :sessions lists the
// deployment's sessions, :help the shell's own words, filters and meta
// commands. They work in the shell and one-shot (agsh :sessions).

// The meta commands.
const (
	MetaSessions = ":sessions"
	MetaHelp     = ":help"
)

func init() { metaCommands = []string{MetaHelp, MetaSessions} }

// sessionRow is one row of the :sessions table.
type sessionRow struct {
	Bound        string `json:"bound"`
	ID           string `json:"id"`
	State        string `json:"state"`
	LastActivity string `json:"lastActivity"`
	Title        string `json:"title"`
}

// SessionsTable is the :sessions value: an array of objects (a table) with
// the bound session marked "*", and whether one is.
func SessionsTable(ss []catalog.Session, bound catalog.Binding) (json.RawMessage, bool) {
	marked := false
	rows := make([]sessionRow, 0, len(ss))
	for _, s := range ss {
		r := sessionRow{ID: s.SessionID, State: sessionState(s), LastActivity: s.UpdatedAt, Title: s.Title}
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
	data, _ := json.Marshal(rows)
	return data, marked
}

// sessionState is what a session is doing: running or queued, else its
// status.
func sessionState(s catalog.Session) string {
	switch {
	case s.Running:
		return "running"
	case s.Queued:
		return "queued"
	}
	return s.Status
}

// SessionsNote is the line after the :sessions table (standard error): how
// to bind a session, and that a shell keeps its own. chosen: a one-shot
// command given --session or --continuation-token; marked: a row is marked.
func SessionsNote(count int, inShell, unbound, chosen, marked bool) string {
	switch {
	case count == 0:
		return "No sessions: calls run unbound, in an ephemeral workspace."
	case inShell && unbound:
		return "This shell runs unbound (it keeps that for the whole run); to work in a session: agsh --session <id>"
	case inShell:
		return "* is this shell's session (it keeps it for the whole run); to work in another: agsh --session <id>"
	case chosen && marked:
		return "* is the session given at launch; to pick another: agsh --session <id> …"
	case chosen:
		return "The session given at launch is not among these; to pick one: agsh --session <id> …"
	}
	return "* is the session a call binds by default (the latest); to pick one: agsh --session <id> …"
}

// MetaHelpText is what :help prints: the shell's words, its filters and
// the meta commands.
const MetaHelpText = `Shell words (a tool of the same name wins):
    help [tool]       the deployment's commands, or one command's page
    exit [status]     leave the shell

Filters (after |; help <filter> for each):
    head, tail        the first or last lines or elements
    wc                count lines, words, bytes
    grep              select lines or elements
    jq                a gojq filter; a last jq whose result is an array of
                      objects prints a table

Meta commands (':' is in no tool's name, so they never hide a tool):
    :sessions         the deployment's sessions, the bound one marked
    :help             this list

Pipelines: a | b, lists: a ; b, a && b, a || b. Quote with '…' or "…".
`

// RunMeta runs a meta command line (argv[0] is :sessions or :help): its
// value, the notes for standard error after it, and the --output the line
// gives ("" when none). bound is the binding in force (zero: the default).
func RunMeta(ctx context.Context, c *catalog.Client, bound catalog.Binding, argv []string, inShell bool) (v render.Value, notes []string, output string, err error) {
	l := ScanWords(argv[1:])
	output, _ = l.Output()
	rest := l.Args
	if output != "" {
		if _, err := ParseFormat(output); err != nil {
			return v, nil, "", err
		}
	}
	if len(rest) > 0 {
		return v, nil, "", Usagef("%s takes no arguments (got %q)", argv[0], rest[0])
	}
	if argv[0] == MetaHelp {
		return render.Value{Text: MetaHelpText, Final: true}, nil, output, nil
	}
	ss, err := c.Sessions(ctx)
	if err != nil {
		return v, nil, "", err
	}
	chosen := !inShell && !bound.IsZero()
	if bound.IsZero() && !inShell {
		// A one-shot command binds per call: mark the one a call would bind.
		bound = catalog.BindingOf(catalog.LatestSession(ss))
	}
	table, marked := SessionsTable(ss, bound)
	v = render.Value{JSON: table, IsJSON: true}
	return v, []string{SessionsNote(len(ss), inShell, bound.IsZero(), chosen, marked)}, output, nil
}
