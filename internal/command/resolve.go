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
// refresh only ask whether a name calls a tool).
func (t *Table) Lookup(name string) Resolution {
	if r := t.tool(name); r.IsTool() {
		return r
	}
	if r := t.curatedOver(name); r.IsTool() {
		return r
	}
	if to, ok := aliases[name]; ok {
		if r := t.tool(to); r.IsTool() {
			return r
		}
	}
	switch {
	case interp.IsFilter(name):
		return Resolution{Kind: Filter}
	case slices.Contains(interp.ShellWords(), name):
		return Resolution{Kind: Word}
	case strings.HasPrefix(name, ":") && slices.Contains(meta.MetaNames(), name):
		return Resolution{Kind: Meta}
	}
	return Resolution{}
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
	for _, n := range curated.Names() {
		if t.entry(n) == nil && t.curatedOver(n).IsTool() {
			out = append(out, n)
		}
	}
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
func UnknownError(name string, r Resolution, status int) error {
	msg := fmt.Sprintf("unknown command %q", name)
	if len(r.Suggestions) > 0 {
		msg += "; did you mean " + names.OrList(r.Suggestions) + "?"
	}
	msg += "\nRun 'agsh help' for the commands of this deployment."
	return &catalog.Error{ErrCode: catalog.CodeUnknownTool, Status: status, Message: msg, Exit: exitcode.Usage}
}

// UnknownTool turns a deployment's 404 unknown_tool answer into the usage
// error of UnknownError, suggesting from the names the answer lists; any
// other error is returned as is.
func UnknownTool(name string, err error) error {
	var ce *catalog.Error
	if !errors.As(err, &ce) || ce.Code() != catalog.CodeUnknownTool {
		return err
	}
	r := Resolution{Suggestions: names.Suggest(name, TableOf(ce.Available).Names(false))}
	return UnknownError(name, r, ce.Status)
}
