package meta

import (
	"encoding/json"
	"fmt"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/exitcode"
)

// UsageError is a mistake on a meta command line: exit status 2, code
// "usage", as every command-line mistake.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// ExitCode is exitcode.Usage.
func (e *UsageError) ExitCode() int { return exitcode.Usage }

// Code is the error record's code.
func (e *UsageError) Code() string { return "usage" }

// Usagef is a UsageError.
func Usagef(format string, args ...any) error { return &UsageError{fmt.Sprintf(format, args...)} }

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
