// Package interp runs agsh shell scripts: lists of pipelines whose first command
// is a tool (or the shell words help and exit) and whose later commands are the
// local filters head, tail, wc, grep and jq.
//
// interp knows nothing of HTTP, tools or rendering. Tools and help reach it through
// a Handler, and the value at the end of a pipeline reaches text through a
// Renderer; both are supplied by the composition root (cmd/agsh).
//
// Status rules follow sh: a pipeline's status is its last command's, except that a
// failing tool makes the whole pipeline fail with the tool's status (and passes
// nothing on); '&&' and '||' run the next pipeline on success and failure. Script
// mode parses everything first and runs nothing when any line is malformed.
package interp

import (
	"context"
	"encoding/json"
	"io"
)

// Value is what flows through a pipeline: text, or a structured JSON value.
type Value struct {
	// Text is the text value (lines) when IsJSON is false.
	Text string
	// JSON is the structured value (object, array or scalar), bytes as received,
	// when IsJSON is true.
	JSON json.RawMessage
	// IsJSON tells which of Text and JSON holds the value.
	IsJSON bool
	// Final marks text that must never be taken for JSON again (filter output,
	// a curated command's reformatted output).
	Final bool
}

// Result is the outcome of a tool call.
type Result struct {
	// Status is the command's exit status: 0 ok; 1 the tool reported an error;
	// 2 usage; 3, 4, 5 deployment errors; 130 interrupted.
	Status int
	// Rendered is true when the handler already wrote the value itself (only
	// allowed when the tool was the last command of its pipeline).
	Rendered bool
}

// Handler runs the commands interp does not own: the deployment's tools and help.
type Handler interface {
	// IsTool reports whether name is a tool of the catalog.
	IsTool(name string) bool
	// Suggest answers up to three command names an unknown name may mean:
	// the command resolver's did-you-mean, the one one-shot agsh gives.
	Suggest(name string) []string
	// Call runs one tool command line (argv[0] is the tool name). It prints its own
	// messages (errors, notes) on stderr, starting them with MessagePrefix(ctx), and
	// returns the value to pass on with the status (a non-zero status passes
	// nothing on). last is true when the tool is the last command of its pipeline:
	// then the handler may render the value itself and return Rendered true.
	Call(ctx context.Context, argv []string, last bool, stdout, stderr io.Writer) (Value, Result)
	// Help prints `help [tool]` (args are the words after help) and returns a status.
	Help(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

// UnknownNoter is a Handler that may say why a command name is unknown
// other than a typo: UnknownNote answers the reason (a tool of a connection
// still starting: "connection slow is still starting; its tools appear
// when it is ready"), said instead of did-you-mean, or "".
type UnknownNoter interface {
	UnknownNote(name string) string
}

// Checker is a Handler that checks a command line without running it: a
// script is checked whole, every line, before its first line runs.
type Checker interface {
	// Check checks one command line whose name is a tool or a meta command
	// (argv[0]; last: it ends its pipeline) and answers the usage error it
	// has, nil when none, with the index of the word the error is about (0:
	// the name). Only usage errors count: anything that needs a call to
	// find out is left for the line to meet when it runs.
	Check(ctx context.Context, argv []string, last bool) (word int, err error)
}

// Renderer turns values into text.
type Renderer interface {
	// Render writes the final value of a pipeline. A non-nil error makes the
	// pipeline's status 1; interp prints nothing more for it (the renderer has
	// reported what it must, e.g. an error line).
	Render(stdout, stderr io.Writer, v Value) error
	// PropertyLines returns the lines of an object's property view; head, tail,
	// wc and grep read an object as these lines.
	PropertyLines(obj json.RawMessage) ([]string, error)
}

// Runner executes parsed scripts. It remembers the last status (for a bare
// `exit`) between calls, so it is not safe for concurrent use.
type Runner struct {
	// Handler runs tools and help; it must be set.
	Handler Handler
	// Renderer renders final values; when nil, text is written as is and JSON
	// as received, each followed by a newline.
	Renderer Renderer
	// Stdout receives results, Stderr messages.
	Stdout, Stderr io.Writer
	// Prefix starts every message interp prints, e.g. "agsh: ".
	Prefix string
	// OnError, when set, is called after interp prints a message of its own for
	// a failure of status 2 or more (a parse error, an unknown or misplaced
	// command, a bad filter option, a bad exit operand) with that status and the
	// message without its prefix: cmd/agsh adds the JSON error line there.
	OnError func(stderr io.Writer, status int, msg string)
	// Clean, when set, makes what interp writes on Stderr safe for it: its
	// messages and what jq's error, halt_error, stderr and debug print,
	// which may come from a deployment (cmd/agsh sets render.Safe when
	// Stderr is a terminal). nil: written unchanged.
	Clean func(string) string

	last int
}

type prefixKey struct{}

// MessagePrefix returns what a handler should print before its own messages for
// the command being run: the Runner's Prefix, followed in script mode by
// "line N: " (so "agsh: line 3: "). Outside a Runner it returns "".
func MessagePrefix(ctx context.Context) string {
	s, _ := ctx.Value(prefixKey{}).(string)
	return s
}
