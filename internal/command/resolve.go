package command

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/curated"
	"github.com/agsh-dev/agsh/internal/exitcode"
	"github.com/agsh-dev/agsh/internal/meta"
	"github.com/agsh-dev/agsh/internal/names"
	"github.com/agsh-dev/agsh/interp"
)

// Kind is what a command name stands for.
type Kind int

// The kinds of command names.
const (
	// Unknown names nothing; Resolution.Suggestions has what may be meant.
	Unknown Kind = iota
	// Tool is a tool of the catalog with a generated command.
	Tool
	// Curated is a command of the curated table over an authored tool of
	// the catalog (ls, read, grep, glob, diff).
	Curated
	// Filter is a local filter (head, tail, wc, grep, jq): it reads a pipe.
	Filter
	// Word is one of the shell's own words (help, exit).
	Word
	// Meta is a meta command (a name starting with ':').
	Meta
)

// Resolution is what Resolve answers for a name.
type Resolution struct {
	Kind Kind
	// Tool is the catalog entry of a Tool or Curated name.
	Tool *catalog.ToolEntry
	// Suggestions are up to three names an Unknown name may mean.
	Suggestions []string
}

// IsTool reports a name that calls a tool of the catalog.
func (r Resolution) IsTool() bool { return r.Kind == Tool || r.Kind == Curated }

// aliases are agsh's other names for tools, alias → tool ("cat": "read"
// would make cat call the deployment's read). A tool of the alias's own
// name wins.
var aliases = map[string]string{}

// Alias is the tool an alias stands for.
func Alias(name string) (tool string, ok bool) {
	tool, ok = aliases[name]
	return tool, ok
}

// Table resolves command names against one catalog listing. A tool of the
// catalog wins over a shell word or a filter of the same name.
type Table struct {
	tools []catalog.ToolEntry
	once  sync.Once
	names []string // sorted, made when first asked for (sortedNames)
}

// NewTable is the table of a catalog listing.
func NewTable(tools []catalog.ToolEntry) *Table {
	return &Table{tools: tools}
}

// sortedNames are the tools' names, sorted: made once, when first needed
// (`agsh help` and a call of a known tool never need them).
func (t *Table) sortedNames() []string {
	t.once.Do(func() {
		t.names = make([]string, 0, len(t.tools))
		for _, e := range t.tools {
			t.names = append(t.names, e.Name)
		}
		slices.Sort(t.names)
	})
	return t.names
}

// TableOf is the table of a list of tool names (an unknown_tool answer's).
func TableOf(toolNames []string) *Table {
	tools := make([]catalog.ToolEntry, len(toolNames))
	for i, n := range toolNames {
		tools[i].Name = n
	}
	return NewTable(tools)
}

// ToolNames are the catalog's tool names, sorted.
func (t *Table) ToolNames() []string { return t.sortedNames() }

// Resolve answers what name stands for.
func (t *Table) Resolve(name string) Resolution {
	r := t.Lookup(name)
	if r.Kind == Unknown {
		r.Suggestions = names.Suggest(name, t.Names(false))
	}
	return r
}

// Lookup is Resolve without the suggestions for an unknown name, which
// measure the name against every other (Tab and the completion cache's
// refresh only ask whether a name calls a tool). It walks the meanings in
// order against the listing: the first that holds is the name's.
func (t *Table) Lookup(name string) Resolution {
	for _, m := range meanings {
		if r := m.lookup(t, name); r.Kind != Unknown {
			return r
		}
	}
	return Resolution{}
}

// meaning is one thing a command name may stand for. A tool meaning says
// which tool the name would call (call), and holds for a listing when
// lookup finds that tool there as it must be; the others hold by the name
// alone.
type meaning struct {
	call   func(name string) (tool string, ok bool)
	lookup func(t *Table, name string) Resolution
}

// meanings are what a command name may mean, in the order they are tried
// (docs/shell.md#commands): the catalog's tool of that name (curated when
// the curated table has its row and the tool is authored), a curated
// command over another authored tool (a row whose Tool is not its Name),
// an alias of a tool of the catalog, a local filter, a shell word, a meta
// command. Table.Lookup walks them against the listing; one-shot dispatch
// and the help word walk the tool meanings against the deployment
// (ToolCandidates); the index lists the curated commands over its tools.
var meanings = []meaning{
	{call: func(name string) (string, bool) { return name, true }, lookup: (*Table).tool},
	{call: CuratedTool, lookup: (*Table).curatedOver},
	{call: Alias, lookup: (*Table).alias},
	{lookup: kindOf(Filter, interp.IsFilter)},
	{lookup: kindOf(Word, func(name string) bool { return slices.Contains(interp.ShellWords(), name) })},
	{lookup: kindOf(Meta, func(name string) bool {
		return strings.HasPrefix(name, ":") && slices.Contains(meta.MetaNames(), name)
	})},
}

// kindOf is the lookup of a meaning that holds by the name alone.
func kindOf(k Kind, is func(string) bool) func(*Table, string) Resolution {
	return func(_ *Table, name string) Resolution {
		if is(name) {
			return Resolution{Kind: k}
		}
		return Resolution{}
	}
}

// ToolCandidates are the tools name may call, in the order of its
// meanings: the deployment's tool of that name, a curated command's tool,
// an alias's. The first the deployment has is the one the name calls.
func ToolCandidates(name string) []string {
	var out []string
	for _, m := range meanings {
		if m.call == nil {
			continue
		}
		if tool, ok := m.call(name); ok && !slices.Contains(out, tool) {
			out = append(out, tool)
		}
	}
	return out
}

// alias resolves an alias of a tool of the catalog.
func (t *Table) alias(name string) Resolution {
	if to, ok := aliases[name]; ok {
		return t.tool(to)
	}
	return Resolution{}
}

// CuratedOver are the curated commands over other tools the catalog has
// (tree over ls), with the entry of the tool each calls, in the curated
// table's order.
func (t *Table) CuratedOver() (names []string, tools []*catalog.ToolEntry) {
	for _, n := range curated.Names() {
		if t.entry(n) != nil {
			continue
		}
		if r := t.Lookup(n); r.Kind == Curated && r.Tool.Name != n {
			names, tools = append(names, n), append(tools, r.Tool)
		}
	}
	return names, tools
}

// ToolName is the name of the tool a command name calls: the name itself,
// or what an alias stands for.
func (t *Table) ToolName(name string) string {
	if r := t.Lookup(name); r.IsTool() {
		return r.Tool.Name
	}
	return name
}

// tool resolves a name of the catalog.
func (t *Table) tool(name string) Resolution {
	if e := t.entry(name); e != nil {
		if spec, ok := curated.Lookup(name); ok && e.Source.Authored() && spec.ToolName() == name {
			return Resolution{Kind: Curated, Tool: e}
		}
		return Resolution{Kind: Tool, Tool: e}
	}
	return Resolution{}
}

// curatedOver resolves a curated command over another authored tool of
// the catalog (a row of the curated table whose Tool is not its Name).
func (t *Table) curatedOver(name string) Resolution {
	spec, ok := curated.Lookup(name)
	if !ok || spec.ToolName() == name {
		return Resolution{}
	}
	if e := t.entry(spec.ToolName()); e != nil && e.Source.Authored() {
		return Resolution{Kind: Curated, Tool: e}
	}
	return Resolution{}
}

// entry is the catalog entry named name, nil when there is none.
func (t *Table) entry(name string) *catalog.ToolEntry {
	for i := range t.tools {
		if t.tools[i].Name == name {
			return &t.tools[i]
		}
	}
	return nil
}

// CuratedTool is the tool a curated command over another tool calls (a
// row of the curated table whose Tool is not its Name); ok false for any
// other name. One-shot agsh asks it when the deployment has no tool of the
// command's name.
func CuratedTool(name string) (tool string, ok bool) {
	spec, found := curated.Lookup(name)
	if !found || spec.ToolName() == name {
		return "", false
	}
	return spec.ToolName(), true
}

// Commands are the names that may start a command: the tools, the curated
// commands over tools the catalog has, the shell's words, the meta
// commands and the aliases of tools the catalog has.
func (t *Table) Commands() []string {
	out := append(slices.Clip(t.sortedNames()), interp.ShellWords()...)
	over, _ := t.CuratedOver()
	out = append(out, over...)
	out = append(out, meta.MetaNames()...)
	for alias, to := range aliases {
		if t.tool(to).IsTool() {
			out = append(out, alias)
		}
	}
	return out
}

// Names are the names to suggest from: at the start of a command (afterPipe
// false) the Commands and, to be told they read a pipe, the filters; after a
// pipe the filters.
func (t *Table) Names(afterPipe bool) []string {
	if afterPipe {
		return interp.FilterNames()
	}
	return append(t.Commands(), interp.FilterNames()...)
}

// UnknownError is the usage error of a command name that names nothing:
// `unknown command "x"; did you mean y?` and where to look.
//
// starting names the connections still starting (the listing says so:
// docs/wire.md#the-tool-listing): a name under one's prefix ("slow_query"
// for slow) is not a typo, and the error says so instead of suggesting:
// `unknown command "slow_query": connection slow is still starting; its
// tools appear when it is ready`; any other name gets that as a last line.
func UnknownError(name string, r Resolution, status int, starting ...string) error {
	msg := fmt.Sprintf("unknown command %q", name)
	if c := StartingFor(name, starting); c != "" {
		msg += ": " + StartingNote(c)
		return &catalog.Error{ErrCode: catalog.CodeUnknownTool, Status: status, Message: msg, Exit: exitcode.Usage}
	}
	if len(r.Suggestions) > 0 {
		msg += "; did you mean " + names.OrList(r.Suggestions) + "?"
	}
	msg += "\nRun 'agsh help' for the commands of this deployment."
	for _, c := range starting {
		msg += "\n(" + StartingNote(c) + ")"
	}
	return &catalog.Error{ErrCode: catalog.CodeUnknownTool, Status: status, Message: msg, Exit: exitcode.Usage}
}

// StartingNote says a connection is still starting.
func StartingNote(connection string) string {
	return "connection " + connection + " is still starting; its tools appear when it is ready"
}

// StartingFor is the starting connection whose tools' prefix name has
// (the connection's name lower-cased, other characters than [a-z0-9_-] as
// "_", then "_": as the deployment names them), "" when none.
func StartingFor(name string, starting []string) string {
	for _, c := range starting {
		prefix := strings.Map(func(r rune) rune {
			switch {
			case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_', r == '-':
				return r
			case r >= 'A' && r <= 'Z':
				return r + 'a' - 'A'
			}
			return '_'
		}, c) + "_"
		if len(name) > len(prefix) && strings.EqualFold(name[:len(prefix)], prefix) {
			return c
		}
	}
	return ""
}

// UnknownTool turns a deployment's 404 unknown_tool answer into the usage
// error of UnknownError, suggesting from the names the answer lists; any
// other error is returned as is. starting is as for UnknownError.
func UnknownTool(name string, err error, starting ...string) error {
	var ce *catalog.Error
	if !errors.As(err, &ce) || ce.Code() != catalog.CodeUnknownTool {
		return err
	}
	r := Resolution{Suggestions: names.Suggest(name, TableOf(ce.Available).Names(false))}
	return UnknownError(name, r, ce.Status, starting...)
}
