package meta

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/generated"
	"github.com/agsh-dev/agsh/internal/console"
	"github.com/agsh-dev/agsh/internal/jsontext"
	"github.com/agsh-dev/agsh/render"
)

// The console words (docs/console.md): meta commands over a session's
// record. Their lines are read by parseMetaArgs against their rows' Flags
// and Operands, so that a script is checked whole (CheckMeta) before any
// of it runs.

// The console words' names.
const (
	MetaTrace  = ":trace"
	MetaTail   = ":tail"
	MetaReplay = ":replay"
	MetaExport = ":export"
)

// MetaFlag is a flag of a meta command.
type MetaFlag struct {
	// Name is "--tool"; Placeholder "<name>" ("" for a flag without a
	// value); Help its line.
	Name, Placeholder, Help string
	// Int: the value is a whole number from 1 to Max.
	Int bool
	Max int
	// Values, when set, are the values it takes.
	Values []string
	// Required: a usage line writes it without brackets (the command's
	// Run or Check refuses a line without it).
	Required bool
}

// MetaOperand is a positional operand of a meta command.
type MetaOperand struct {
	// Name is "session", "callId"; Required when it must be given.
	Name     string
	Required bool
	// Session: a session id, a continuation token or a pasted URL (Tab
	// offers the session ids).
	Session bool
	// Call: a call id of the record (Tab offers the record's call ids);
	// Parked: of a call waiting for approval (Tab offers those).
	Call, Parked bool
	// Words: the last operand, it takes every word left, joined by spaces
	// (a message).
	Words bool
}

var sessionOperand = MetaOperand{Name: "session", Session: true}

// consoleRows are the console words' rows of the meta table.
var consoleRows = []MetaCommand{
	{Name: MetaTrace, Usage: ":trace [session]", Summary: "the session's record: calls as command lines, messages, turns",
		Operands: []MetaOperand{sessionOperand}, Writes: true,
		Flags: []MetaFlag{
			{Name: "--tool", Placeholder: "<name>", Help: "only the events whose data names this tool"},
			{Name: "--type", Placeholder: "<type>", Help: "only the events of this type, or of types it begins (approval)"},
			{Name: "--last", Placeholder: "<n>", Help: "only the last n rows after the other filters", Int: true, Max: console.MaxLast},
		}}, // Run: runTrace
	{Name: MetaTail, Usage: ":tail [session]", Summary: "the last 10 events, then each new one live (Ctrl-C detaches)",
		Operands: []MetaOperand{sessionOperand}, Writes: true, Live: true,
		Flags: []MetaFlag{
			{Name: "--follow", Help: "piped, keep going after the session waits (else it ends there)"},
		}}, // Run: runTail
	{Name: MetaReplay, Usage: ":replay <callId> [session]", Summary: "the command line that repeats a call of the record",
		Operands: []MetaOperand{{Name: "callId", Required: true, Call: true}, sessionOperand}}, // Run: runReplay
	{Name: MetaExport, Usage: ":export [session]", Summary: "the record as an agsh script that repeats its calls, a Markdown report, or JSON",
		Operands: []MetaOperand{sessionOperand}, Writes: true,
		Flags: []MetaFlag{
			{Name: "--as", Placeholder: "<script|md|json>", Required: true, Help: "script: the calls as command lines; md: a report; json: :trace --output json",
				Values: console.ExportFormats},
			{Name: "-o", Placeholder: "<file>", Help: "write it to this file (whole, then renamed into place) instead of standard output"},
		},
		Notes: "A call whose tool name is not a plain command word, or whose input the deployment cut, is a\n" +
			"\"# left out\" comment of the script, which then exits 3."}, // Run: runExport
}

// consoleRun is a console word's Run, set in the table at init (the
// functions read the table).
func consoleRun(name string) func(context.Context, *MetaRun, []string) (MetaResult, error) {
	switch name {
	case MetaTrace:
		return runTrace
	case MetaTail:
		return runTail
	case MetaReplay:
		return runReplay
	case MetaExport:
		return runExport
	}
	return nil
}

// metaArgs is a meta command line read: its operands and flag values.
type metaArgs struct {
	operands []string
	values   map[string]string
}

func (a metaArgs) operand(i int) string {
	if i < len(a.operands) {
		return a.operands[i]
	}
	return ""
}

// parseMetaArgs reads a meta command's words (--output taken out) by its
// row: flags as --x=v or --x v, operands by position, "--" ends the
// flags. Everything is checked that needs no call: unknown flags, values,
// the count of operands, a session operand's form.
func parseMetaArgs(m *MetaCommand, args []string) (metaArgs, error) {
	a := metaArgs{values: map[string]string{}}
	flags := true
	for i := 0; i < len(args); i++ {
		w := args[i]
		if flags && w == "--" {
			flags = false
			continue
		}
		if flags && strings.HasPrefix(w, "-") && len(w) > 1 {
			name, val, hasVal := strings.Cut(w, "=")
			if name == "-h" || name == "--help" {
				a.values["--help"] = "true"
				continue
			}
			f := m.flag(name)
			if f == nil {
				return a, m.unknownFlag(name)
			}
			switch {
			case f.Placeholder == "" && hasVal:
				return a, Usagef("%s: %s takes no value", m.Name, name)
			case f.Placeholder == "":
				val = "true"
			case !hasVal && i+1 < len(args):
				i++
				val = args[i]
			case !hasVal:
				return a, Usagef("%s: %s needs a value %s", m.Name, name, f.Placeholder)
			}
			if f.Int {
				n, err := strconv.Atoi(val)
				if err != nil || n < 1 || n > f.Max {
					return a, Usagef("%s: %s takes a whole number from 1 to %d, not %q", m.Name, name, f.Max, val)
				}
			}
			if f.Placeholder != "" && val == "" {
				return a, Usagef("%s: %s needs a value %s", m.Name, name, f.Placeholder)
			}
			if len(f.Values) > 0 && !slices.Contains(f.Values, val) {
				return a, Usagef("%s: %s takes %s, not %q", m.Name, name, strings.Join(f.Values, ", "), clipWord(val))
			}
			a.values[name] = val
			continue
		}
		a.operands = append(a.operands, w)
	}
	if a.values["--help"] != "" {
		return a, nil
	}
	if n := len(m.Operands); n > 0 && m.Operands[n-1].Words && len(a.operands) > n {
		a.operands = append(a.operands[:n-1], strings.Join(a.operands[n-1:], " "))
	}
	if len(a.operands) > len(m.Operands) {
		return a, Usagef("%s: unexpected operand %q\nusage: %s", m.Name, a.operands[len(m.Operands)], m.synopsis())
	}
	for i, op := range m.Operands {
		switch {
		case i >= len(a.operands) || op.Words && strings.TrimSpace(a.operands[i]) == "":
			if op.Required {
				return a, Usagef("%s: missing <%s>\nusage: %s", m.Name, op.Name, m.synopsis())
			}
		case op.Session:
			if _, err := catalog.ParseSessionOperand(a.operands[i]); err != nil {
				return a, err
			}
		case op.Call:
			if _, ok := catalog.SessionIDOK(a.operands[i]); !ok {
				return a, Usagef("%s: %q is not a call id", m.Name, a.operands[i])
			}
		}
	}
	return a, nil
}

// flag is the row's flag spelled name.
func (m *MetaCommand) flag(name string) *MetaFlag {
	for i := range m.Flags {
		if m.Flags[i].Name == name {
			return &m.Flags[i]
		}
	}
	return nil
}

// unknownFlag is the usage error of a flag the command does not have.
func (m *MetaCommand) unknownFlag(name string) error {
	var names []string
	for _, f := range m.Flags {
		names = append(names, f.Name)
	}
	msg := fmt.Sprintf("%s: unknown flag %s", m.Name, clipWord(name))
	if s := generated.Suggest(name, names); len(s) > 0 {
		msg += "; did you mean " + s[0] + "?"
	} else if len(names) > 0 {
		msg += " (it takes " + strings.Join(names, ", ") + ")"
	} else {
		msg += " (it takes none)"
	}
	return Usagef("%s", msg)
}

// clipWord is a word of the user's line quoted for a message.
func clipWord(s string) string {
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	return strconv.Quote(s)[1 : len(strconv.Quote(s))-1]
}

// synopsis is the usage line with the flags.
func (m *MetaCommand) synopsis() string {
	var b strings.Builder
	b.WriteString(m.Usage)
	for _, f := range m.Flags {
		b.WriteString(" " + f.Synopsis())
	}
	return b.String()
}

// Synopsis is the flag as a usage line writes it: "[--tool <name>]", or
// "--for <state>" when it is Required.
func (f MetaFlag) Synopsis() string {
	s := f.Name
	if f.Placeholder != "" {
		s += " " + f.Placeholder
	}
	if f.Required {
		return s
	}
	return "[" + s + "]"
}

// usagePage is a meta command's --help.
func (m *MetaCommand) usagePage() string {
	var b strings.Builder
	fmt.Fprintf(&b, "usage: %s\n\n%s.\n", m.synopsis(), upperFirst(m.Summary))
	if len(m.Flags) > 0 {
		b.WriteString("\nFlags:\n")
		terms := make([]string, len(m.Flags))
		width := 18 // the help column: past the longest term
		for i, f := range m.Flags {
			terms[i] = f.Name
			if f.Placeholder != "" {
				terms[i] += " " + f.Placeholder
			}
			width = max(width, len(terms[i]))
		}
		for i, f := range m.Flags {
			fmt.Fprintf(&b, "  %-*s %s\n", width, terms[i], f.Help)
		}
	}
	for _, op := range m.Operands {
		if op.Session {
			b.WriteString("\nThe session is a session id, a continuation token, or a traceUrl or playgroundUrl\n" +
				"pasted whole (agsh takes the id from it and sends nothing there); without one, the\n" +
				"bound session.")
			if m.Writes {
				b.WriteString(" --output json prints the events as received.")
			}
			b.WriteString("\n")
			break
		}
	}
	if m.Notes != "" {
		b.WriteString("\n" + m.Notes + "\n")
	}
	b.WriteString("\nSee docs/console.md.\n")
	return b.String()
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// session is the session a console word reads: its operand, else the
// bound session, else (one-shot, or a shell without one) the latest.
func (m *MetaRun) session(ctx context.Context, operand string) (catalog.SessionChoice, error) {
	var ch catalog.SessionChoice
	var err error
	if operand != "" {
		op, perr := catalog.ParseSessionOperand(operand)
		if perr != nil {
			return ch, perr
		}
		ch, err = m.Client.ResolveSession(ctx, op)
	} else {
		ch, err = m.Client.BoundSession(ctx, m.Bound)
		if err == nil && ch.Latest && m.InShell {
			ch.Note = "this shell is unbound; reading the latest session, " + ch.ID
		}
	}
	if err == nil && ch.Note != "" {
		m.note(ch.Note)
	}
	return ch, err
}

func (m *MetaRun) note(s string) {
	if m.Note != nil {
		m.Note(s)
	}
}

// maxDetails bounds the tools one console command fetches the detail of,
// to write calls as command lines: a record may name many tools.
const maxDetails = 256

// consoleEnv is the console's view of the run.
func (m *MetaRun) consoleEnv(ctx context.Context) console.Env {
	return console.Env{Client: m.Client, Out: m.Out, Opts: m.OutOpts, Note: m.note, CallLine: m.callLine(ctx)}
}

// callLine writes a call as its tool's command line; a tool agsh cannot
// describe (not in the catalog, its detail unreadable, past maxDetails)
// is written with --input-json.
func (m *MetaRun) callLine(ctx context.Context) console.CallLine {
	return m.callLineOf(m.commands())
}

// callLineOf is callLine over a lookup of commands.
func (m *MetaRun) callLineOf(lookup func(context.Context, string) Command) console.CallLine {
	return func(ctx context.Context, tool string, input json.RawMessage) (string, bool, error) {
		if cmd := lookup(ctx, tool); cmd != nil {
			return cmd.CommandLine(input)
		}
		return inputJSONLine(tool, input)
	}
}

// commands looks up the live command of a tool, each once, for at most
// maxDetails tools the listing has (nil for the others).
func (m *MetaRun) commands() func(context.Context, string) Command {
	cmds := map[string]Command{}
	asked := 0
	var listed map[string]bool
	return func(ctx context.Context, tool string) Command {
		cmd, known := cmds[tool]
		if !known && m.Command != nil && asked < maxDetails {
			if listed == nil && m.Tools != nil {
				listed = map[string]bool{}
				if tools, err := m.Tools(ctx); err == nil {
					for _, t := range tools {
						listed[t.Name] = true
					}
				}
			}
			if listed == nil || listed[tool] {
				asked++
				cmd, _ = m.Command(ctx, tool)
			}
			cmds[tool] = cmd
		}
		return cmd
	}
}

// inputJSONLine is a call written with --input-json, for a tool agsh has
// no command of.
func inputJSONLine(tool string, input json.RawMessage) (string, bool, error) {
	input = bytes.TrimSpace(input)
	if len(input) == 0 || input[0] != '{' || !json.Valid(input) {
		return "", false, generated.ErrNotObject
	}
	return generated.Line(tool, []string{generated.InputJSONOption,
		string(generated.SafeInputJSON(jsontext.AppendCompact(nil, input)))}), true, nil
}

// runTrace is :trace.
func runTrace(ctx context.Context, m *MetaRun, args []string) (MetaResult, error) {
	me, _ := LookupMeta(MetaTrace)
	a, err := parseMetaArgs(me, args)
	if err != nil || a.values["--help"] != "" {
		return helpResult(me, err)
	}
	ch, err := m.session(ctx, a.operand(0))
	if err != nil {
		return MetaResult{}, err
	}
	last, _ := strconv.Atoi(a.values["--last"])
	err = console.Trace(ctx, m.consoleEnv(ctx), ch.ID, console.TraceOptions{
		Tool: a.values["--tool"], Type: a.values["--type"], Last: last, Format: m.Format})
	return MetaResult{Written: true}, err
}

// runTail is :tail.
func runTail(ctx context.Context, m *MetaRun, args []string) (MetaResult, error) {
	me, _ := LookupMeta(MetaTail)
	a, err := parseMetaArgs(me, args)
	if err != nil || a.values["--help"] != "" {
		return helpResult(me, err)
	}
	ch, err := m.session(ctx, a.operand(0))
	if err != nil {
		return MetaResult{}, err
	}
	o := console.TailOptions{Format: m.Format, Live: m.Live, Follow: a.values["--follow"] != ""}
	if !o.Live && !o.Follow {
		mode := ch.Mode
		if mode == "" {
			mode = m.Client.SessionMode(ctx, ch.ID)
		}
		o.Task = mode == "task"
	}
	err = console.Tail(ctx, m.consoleEnv(ctx), ch.ID, o)
	return MetaResult{Written: true}, err
}

// runReplay is :replay.
func runReplay(ctx context.Context, m *MetaRun, args []string) (MetaResult, error) {
	me, _ := LookupMeta(MetaReplay)
	a, err := parseMetaArgs(me, args)
	if err != nil || a.values["--help"] != "" {
		return helpResult(me, err)
	}
	ch, err := m.session(ctx, a.operand(1))
	if err != nil {
		return MetaResult{}, err
	}
	call, err := console.FindCall(ctx, m.Client, ch.ID, a.operand(0))
	if err != nil {
		return MetaResult{}, err
	}
	refusal := console.ReplayRefusal(call)
	if refusal != nil && !m.Format.IsData() {
		return MetaResult{}, refusal
	}
	if refusal != nil {
		// --output json shows the call as recorded, no line, and why (exit 3).
		doc, _ := json.Marshal(struct {
			CallID    string          `json:"callId"`
			Tool      string          `json:"tool"`
			Input     json.RawMessage `json:"input"`
			Line      string          `json:"line"`
			InputJSON bool            `json:"inputJson"`
			Refused   string          `json:"refused"`
		}{call.ID, call.Tool, call.Input, "", false, refusal.Error()})
		m.note("agsh: " + refusal.Error())
		return MetaResult{Value: render.Value{JSON: doc, IsJSON: true}, Status: catalog.ExitRefused}, nil
	}
	line, inputJSON, err := m.callLine(ctx)(ctx, call.Tool, call.Input)
	if err != nil {
		return MetaResult{}, &console.ReplayError{Msg: "the input of call " + call.ID + " is not a JSON object; no command line sends it",
			Exit: catalog.ExitRefused}
	}
	// Only the tool's name can hold a hazard (the input is escaped): such
	// a line cannot be typed, and is never written.
	untypable := strings.ContainsFunc(line, generated.Hazard)
	// Notes go to standard error at once, whatever the output format.
	if inputJSON {
		if _, ok := generated.LookupGlobal(generated.InputJSONOption); !ok {
			m.note("note: this agsh version does not take --input-json yet; the line shows the call's whole input as JSON")
		}
	}
	switch d, err := m.detail(ctx, call.Tool); {
	case err != nil:
		m.note("note: " + call.Tool + " is not a tool of this deployment's catalog now; the line may not run")
	case d.Execution == "agent":
		m.note("note: " + call.Tool + " runs inside the agent's turn; agsh cannot call it")
	}
	if m.Format.IsData() {
		if untypable {
			line = ""
		}
		doc, _ := json.Marshal(struct {
			CallID    string          `json:"callId"`
			Tool      string          `json:"tool"`
			Input     json.RawMessage `json:"input"`
			Line      string          `json:"line"`
			InputJSON bool            `json:"inputJson"`
		}{call.ID, call.Tool, call.Input, line, inputJSON})
		return MetaResult{Value: render.Value{JSON: doc, IsJSON: true}}, nil
	}
	if untypable {
		return MetaResult{}, &console.ReplayError{Exit: catalog.ExitRefused, Msg: "the tool of call " + call.ID +
			" has a control, bidi or zero-width character in its name; no command line names it (--output json shows the call)"}
	}
	if m.PutLine != nil {
		m.PutLine(line)
		m.note("the line that repeats " + call.ID + " is on the prompt: edit it, Enter runs it")
		return MetaResult{Written: true}, nil
	}
	return MetaResult{Value: render.Value{Text: line + "\n", Final: true}}, nil
}

// detail is a tool's detail, when the run can give it.
func (m *MetaRun) detail(ctx context.Context, tool string) (*catalog.ToolDetail, error) {
	if m.Command == nil {
		return nil, fmt.Errorf("no catalog")
	}
	cmd, err := m.Command(ctx, tool)
	if err != nil || cmd == nil {
		return nil, fmt.Errorf("no command")
	}
	return cmd.ToolDetail(), nil
}

// helpResult is a meta command's --help, or its usage error.
func helpResult(m *MetaCommand, err error) (MetaResult, error) {
	if err != nil {
		return MetaResult{}, err
	}
	return MetaResult{Value: render.Value{Text: m.usagePage(), Final: true}}, nil
}

// CompleteCallIDs are the call ids of the bound session's record, newest
// first, for Tab (at most max).
func CompleteCallIDs(ctx context.Context, c *catalog.Client, b catalog.Binding, max int) []string {
	ch, err := c.BoundSession(ctx, b)
	if err != nil {
		return nil
	}
	ids, _ := console.CallIDs(ctx, c, ch.ID, max)
	return ids
}
