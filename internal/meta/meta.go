package meta

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/render"
)

// The meta commands: words starting with ':', which no tool name does, so
// they can never shadow a tool (docs/shell.md#meta-commands). They work in
// the shell and one-shot (agsh :sessions). Each is a row of metas.
const (
	MetaSessions = ":sessions"
	MetaHelp     = ":help"
)

// MetaCommand is one meta command.
type MetaCommand struct {
	Name string
	// Usage is its synopsis (":sessions"), Summary its line in :help.
	Usage, Summary string
	// Operands and Flags are what its line takes (help, completion and the
	// check read them); a row with either is checked by parseMetaArgs.
	Operands []MetaOperand
	Flags    []MetaFlag
	// Check reads the words after the name (--output taken out) without
	// calling the deployment: nil, or the usage error. A script is checked
	// whole with it before anything runs. Nil: parseMetaArgs by the row.
	Check func(args []string) error
	// Run runs it.
	Run func(ctx context.Context, m *MetaRun, args []string) (MetaResult, error)
	// Wraps: its words are a command line of their own (:curl read …),
	// which a script's check checks as that command's.
	Wraps bool
	// Notes are more lines of its --help ("" when none).
	Notes string
	// Writes: it writes its output as it goes (MetaRun.Out), rather than
	// returning a value; Live: for as long as it is left to run, so no
	// pager may hold its output.
	Writes, Live bool
	// LiveWith: it is Live when its line has this flag (:sessions --watch).
	LiveWith string
}

// MetaRun is what a meta command may use.
type MetaRun struct {
	Client *catalog.Client
	// Bound is the binding in force (zero: the default, the latest).
	Bound catalog.Binding
	// InShell: it runs in the shell (else one-shot).
	InShell bool
	// Prepare resolves and parses a tool's command line (argv[0] its name)
	// as its call would be, and answers the request without sending it.
	Prepare func(ctx context.Context, argv []string) (*catalog.PreparedCall, error)
	// Credential is where the run's credential came from; CredentialFlag:
	// it was given with --bearer-token (no variable holds it).
	Credential     catalog.CredentialOrigin
	CredentialFlag bool

	// Out is where a command that Writes writes, rendered for OutOpts;
	// Format is the line's output format.
	Out     io.Writer
	OutOpts render.Options
	Format  render.Format
	// Live: standard output is a terminal that shows it as it comes (a
	// live command runs until Ctrl-C). Last: its output is the line's
	// (not a pipeline's filters').
	Live, Last bool
	// Note writes a note on standard error, made safe.
	Note func(string)
	// Tools is the catalog's listing; Command the live command of a tool
	// (to write a call as a command line). Either may be nil.
	Tools   func(ctx context.Context) ([]catalog.ToolEntry, error)
	Command func(ctx context.Context, tool string) (Command, error)
	// PutLine, in the REPL, puts a line on the editor for the next input.
	PutLine func(string)
	// Screen runs a full-screen program on the terminal (standard input
	// and output), the REPL's hold on it released; nil when they are not
	// both terminals (:top).
	Screen func(run func(in io.Reader, out io.Writer) error) error

	// Yes: --yes was given, at launch or on the line (RunMeta reads it).
	Yes bool
	// WillAsk reports whether a question is due (no --yes, no AGSH_YES);
	// Confirm asks q and returns nil to go on, or the error of a no, or of
	// a run that cannot ask (what says what is then not done). Nil:
	// nothing is ever asked.
	WillAsk func(yes bool) bool
	Confirm func(ctx context.Context, yes bool, q Question, what string) error
	// Rotated records that a message rotated session id's continuation
	// token from old to token (catalog.Run.Rotated); Token is the token
	// the run keeps for id ("" when none). Either may be nil.
	Rotated func(id, old, token string)
	Token   func(id string) string

	// Status is what :status reports of the run itself.
	Status StatusFacts
}

// asks reports whether the command's question will be asked.
func (m *MetaRun) asks() bool { return m.WillAsk != nil && m.Confirm != nil && m.WillAsk(m.Yes) }

// MetaResult is what a meta command produced: its value (rendered, or
// passed on to the filters) and the notes for standard error after it.
// Written: it wrote its output itself (there is no value).
type MetaResult struct {
	Value   render.Value
	Notes   []string
	Written bool
	// Status is the command's exit status when it succeeded (:status's
	// verdict); 0 otherwise.
	Status int
	// Text, when set, writes Value's text view itself (the sessions
	// table, its ids whole) when the line's output is text.
	Text func(w io.Writer, o render.Options) error
}

// metas is the table of meta commands, in the order :help lists them.
var metas = append(append(append([]MetaCommand{
	{Name: MetaSessions, Usage: ":sessions", Summary: "the deployment's sessions, the bound one marked, filtered; --watch follows them",
		Flags: sessionsFlags, Check: checkSessions, LiveWith: "--watch"}, // Run: runSessions
	{Name: MetaDescribe, Usage: ":describe [session]", Summary: "one session whole: state, turns, parked calls, token, record",
		Operands: []MetaOperand{sessionOperand}}, // Run: runDescribe
	{Name: MetaCurl, Usage: ":curl <command…>", Summary: "the curl command of the call (no call is made)",
		Check: checkCurl, Run: runCurl, Wraps: true},
	statusRow,
}, consoleRows...), append(actRows, fleetRows...)...),
	MetaCommand{Name: MetaHelp, Usage: ":help", Summary: "this list", Check: noArguments(MetaHelp)}, // Run: runHelp
)

// The table refers to itself through :help.
func init() {
	metas[len(metas)-1].Run = runHelp
	for i := range metas {
		if run := consoleRun(metas[i].Name); run != nil {
			metas[i].Run = run
		}
		if run := actRun(metas[i].Name); run != nil {
			metas[i].Run = run
		}
		if run := fleetRun(metas[i].Name); run != nil {
			metas[i].Run = run
		}
		switch metas[i].Name {
		case MetaStatus:
			metas[i].Run = runStatus
		case MetaSessions:
			metas[i].Run = runSessions
		case MetaDescribe:
			metas[i].Run = runDescribe
		case ":wait":
			WaitWord = ":wait"
		}
	}
}

// MetaCommands are the rows of the meta table, in :help's order (read
// only).
func MetaCommands() []MetaCommand { return metas }

// runHelp is :help.
func runHelp(context.Context, *MetaRun, []string) (MetaResult, error) {
	return MetaResult{Value: render.Value{Text: MetaHelpText(), Final: true}}, nil
}

// MetaLive reports a meta command line (argv[0] its name) that runs for as
// long as it is left to: its row is Live, or its LiveWith flag is given.
func MetaLive(argv []string) bool {
	m, ok := LookupMeta(argv[0])
	if !ok {
		return false
	}
	if m.Live {
		return true
	}
	if m.LiveWith != "" {
		for _, a := range argv[1:] {
			if a == "--" {
				break
			}
			if a == m.LiveWith {
				return true
			}
		}
	}
	return false
}

// LookupMeta is the meta command named name.
func LookupMeta(name string) (*MetaCommand, bool) {
	for i := range metas {
		if metas[i].Name == name {
			return &metas[i], true
		}
	}
	return nil, false
}

// MetaNames are the meta commands' names.
func MetaNames() []string {
	out := make([]string, len(metas))
	for i, m := range metas {
		out[i] = m.Name
	}
	return out
}

// AsksHelp reports a meta command line that asks for its usage: -h or
// --help before "--".
func AsksHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "--help":
			return true
		}
	}
	return false
}

// noArguments is the Check of a meta command that takes no words.
func noArguments(name string) func([]string) error {
	return func(args []string) error {
		if len(args) > 0 && !AsksHelp(args) {
			return Usagef("%s takes no arguments (got %q)", name, args[0])
		}
		return nil
	}
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
func MetaHelpText() string {
	var b strings.Builder
	b.WriteString(metaHelpHead)
	for _, m := range metas {
		if len(m.Usage) >= 18 {
			fmt.Fprintf(&b, "    %s\n    %-18s%s\n", m.Usage, "", m.Summary)
		} else {
			fmt.Fprintf(&b, "    %-18s%s\n", m.Usage, m.Summary)
		}
		for _, f := range m.Flags {
			term := f.Name
			if f.Placeholder != "" {
				term += " " + f.Placeholder
			}
			fmt.Fprintf(&b, "      %-16s  %s\n", term, f.Help)
		}
	}
	b.WriteString(metaHelpTail)
	return b.String()
}

const metaHelpHead = `Shell words (a tool of the same name wins):
    help [tool]       the deployment's commands, or one command's page
    exit [status]     leave the shell

Filters (after |; help <filter> for each):
    head, tail        the first or last lines or elements
    wc                count lines, words, bytes
    grep              select lines or elements
    jq                a gojq filter; a last jq whose result is an array of
                      objects prints a table

Meta commands (':' is in no tool's name, so they never hide a tool):
`

const metaHelpTail = `
Pipelines: a | b, lists: a ; b, a && b, a || b. Quote with '…' or "…".
`
