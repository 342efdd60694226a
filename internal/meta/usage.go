package meta

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/exitcode"
)

// Usagef is a mistake on a meta command line: exit status 2, code
// "usage", as every command-line mistake (exitcode.UsageError).
func Usagef(format string, args ...any) error { return exitcode.Usagef(format, args...) }

// Page is the command's --help page.
func (m *MetaCommand) Page() string { return m.usagePage() }

// CheckArgs checks the command's words (agsh's --output and --yes taken
// out) without calling the deployment: its Check, else its row's operands
// and flags.
func (m *MetaCommand) CheckArgs(args []string) error {
	if m.Check == nil {
		_, err := parseMetaArgs(m, args)
		return err
	}
	return m.Check(args)
}

// Command is what a meta command needs of a tool's command
// (internal/command's Command): the command line of a call's input, and
// the tool's detail.
type Command interface {
	CommandLine(input json.RawMessage) (line string, inputJSON bool, err error)
	ToolDetail() *catalog.ToolDetail
}

// Flag is the command's flag named name, or nil.
func (m *MetaCommand) Flag(name string) *MetaFlag { return m.flag(name) }

// RunFunc runs a meta command: m is what it may use of the run, args its
// words (agsh's --output and --yes taken out).
type RunFunc func(ctx context.Context, m *MetaRun, args []string) (MetaResult, error)

// runs are the Run of the rows that do not carry theirs. A command whose
// Run looks its own row up (its flags, its page) cannot carry it in the
// row (an initialization cycle): its file registers it at init instead,
// so a new meta command is its file and one row of the table (metas).
var runs = map[string]RunFunc{}

// registerRun sets the Run of the meta command named name (at init).
func registerRun(name string, run RunFunc) { runs[name] = run }

// Exec runs the command: its row's Run, or the one its file registered.
func (m *MetaCommand) Exec(ctx context.Context, r *MetaRun, args []string) (MetaResult, error) {
	run := m.Run
	if run == nil {
		run = runs[m.Name]
	}
	if run == nil {
		return MetaResult{}, Usagef("%s cannot run here", m.Name)
	}
	return run(ctx, r, args)
}

// Register adds a row to the table of meta commands (before :help), or
// replaces the row of its name: for tests and extensions, as
// curated.Register is for curated commands.
func Register(row MetaCommand) {
	if i := slices.IndexFunc(metas, func(m MetaCommand) bool { return m.Name == row.Name }); i >= 0 {
		metas[i] = row
		return
	}
	metas = slices.Insert(metas, len(metas)-1, row)
}

// Unregister takes the row named name out of the table (tests).
func Unregister(name string) {
	metas = slices.DeleteFunc(metas, func(m MetaCommand) bool { return m.Name == name })
}
