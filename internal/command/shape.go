package command

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/curated"
	"github.com/agsh-dev/agsh/generated"
	"github.com/agsh-dev/agsh/internal/exitcode"
)

// Command is a resolved command, a value: its name, the tool it calls
// (Detail), its shape — curated (bound or fallen back) for the commands of
// the curated table over the deployment's authored tools, generated for
// everything else — and its behaviour (Reformat, Streams, Highlight,
// NextPage, help). Nothing outside the command table asks a command's name
// what it does. See docs/architecture.md#commands-are-values.
type Command struct {
	// Name is the command's name: the tool's, or a curated command's over
	// another tool.
	Name    string
	Detail  *catalog.ToolDetail
	Curated *curated.Shape // nil for a generated command
	Flags   *generated.Command
}

// BadSchemaError: the deployment served an input schema agsh cannot read.
type BadSchemaError struct {
	Tool string
	Err  error
}

func (e *BadSchemaError) Error() string {
	return fmt.Sprintf("the deployment's input schema for %s is unusable: %v", e.Tool, e.Err)
}

// ExitCode is 5: the deployment answered nonsense.
func (e *BadSchemaError) ExitCode() int { return exitcode.Unreachable }

// Code is the JSON error line's code.
func (e *BadSchemaError) Code() string { return "bad_response" }

// New builds the command of a tool's detail: the tool's own command.
func New(d *catalog.ToolDetail) (*Command, error) { return NewNamed(d.Name, d) }

// NewNamed builds the command called name that calls the tool of d: the
// curated command of that name over this (authored) tool, else the tool's
// own curated command (name is then an alias), else the generated command
// of the tool.
func NewNamed(name string, d *catalog.ToolDetail) (*Command, error) {
	c := &Command{Name: name, Detail: d}
	var err error
	spec := curatedOver(name, d)
	if spec == nil {
		spec = curatedOver(d.Name, d)
	}
	if spec != nil {
		c.Curated, err = curated.Bind(spec.Name, d.InputSchema)
		if err == nil {
			c.Flags = c.Curated.Flags
		}
	} else {
		c.Flags, err = generated.Build(d.InputSchema, generated.BuildOptions{})
	}
	if err != nil {
		return nil, &BadSchemaError{d.Name, err}
	}
	return c, nil
}

// curatedOver is the curated command called name over the tool of d, nil
// when there is none (curated commands apply to authored tools only).
func curatedOver(name string, d *catalog.ToolDetail) *curated.Spec {
	spec, ok := curated.Lookup(name)
	if !ok || !d.Source.Authored() || spec.ToolName() != d.Name {
		return nil
	}
	return spec
}

// Reformats tells whether results are reformatted (a bound curated shape).
func (c *Command) Reformats() bool { return c.Curated != nil && c.Curated.Bound }

// spec is the command's row of the curated table, nil for a generated
// command or a curated one that fell back to generic flags.
func (c *Command) spec() *curated.Spec {
	if !c.Reformats() {
		return nil
	}
	return c.Curated.Spec
}

// Reformat is the command's reformatting of a successful text result:
// what the unix command prints; false when the command does not reformat
// or the text is not in the expected format (it prints verbatim).
func (c *Command) Reformat(text string, call *Call) (curated.Output, bool) {
	return c.spec().ReformatText(text, call.Reformat)
}

// Streams reports whether a long result is reformatted as it arrives
// (curated.NewStream with Spec) rather than held whole.
func (c *Command) Streams() bool { return c.spec().Streams() }

// Spec is the command's curated row (its behaviour), nil for a generated
// command or one that fell back.
func (c *Command) Spec() *curated.Spec { return c.spec() }

// ToolDetail is the detail the command was built from.
func (c *Command) ToolDetail() *catalog.ToolDetail { return c.Detail }

// SaysEmpty reports whether an empty result (an empty array, object or
// text) is worth "(no results)" on standard error: a generated command's,
// and a curated one's whose row says so (ls, glob; not read or diff, whose
// empty output is the answer).
func (c *Command) SaysEmpty() bool {
	if sp := c.spec(); sp != nil {
		return sp.SaysEmpty
	}
	return true
}

// Retry is the call to make instead of one the tool answered with an error
// (its text), when the command's row has one (read PATH:N); false: the
// error stands.
func (c *Command) Retry(call *Call, errText string) (*Call, bool) {
	if !c.Reformats() || call == nil {
		return nil, false
	}
	cc, ok := c.Curated.RetryCall(&curated.Call{Parsed: call.Parsed, Input: call.Input, Reformat: call.Reformat}, errText)
	if !ok {
		return nil, false
	}
	return &Call{Parsed: cc.Parsed, Input: cc.Input, Reformat: cc.Reformat}, true
}

// Call is a parsed command line.
type Call struct {
	Parsed *generated.Parsed
	Input  json.RawMessage
	// Reformat are the reformatter's options for this input.
	Reformat curated.ReformatOptions
}

// ParseOptions are what a command line takes beyond its words.
type ParseOptions struct {
	// Input is the whole input object (--input-json), nil when none: the
	// flags and operands given override its members.
	Input map[string]any
	// ReadRef reads the JSON an "@file" or "@-" value of a JSON-valued
	// flag names (generated.ParseOptions); nil: such a value is text.
	ReadRef func(flag, ref string) ([]byte, error)
}

// Parse parses the arguments after the tool name. A call with Parsed.Help
// set asks for help; nothing else was checked then.
func (c *Command) Parse(args []string) (*Call, error) { return c.ParseWith(args, ParseOptions{}) }

// ParseWith is Parse with the options of the line.
func (c *Command) ParseWith(args []string, o ParseOptions) (*Call, error) {
	po := generated.ParseOptions{ReadRef: o.ReadRef}
	if c.Curated != nil {
		call, err := c.Curated.ParseWith(args, po, o.Input)
		if err != nil {
			return nil, err
		}
		return &Call{Parsed: call.Parsed, Input: call.Input, Reformat: call.Reformat}, nil
	}
	p, err := c.Flags.ParseWith(args, po)
	if p != nil && p.Help {
		return &Call{Parsed: p}, nil
	}
	if err != nil {
		return nil, err
	}
	if err := c.Flags.RejectOperands(p); err != nil {
		return nil, err
	}
	if o.Input != nil {
		if err := c.Flags.Merge(p, o.Input); err != nil {
			return nil, err
		}
	}
	if err := c.Flags.Validate(p); err != nil {
		return nil, err
	}
	return &Call{Parsed: p, Input: p.JSON()}, nil
}

// IssueFlag names the flag (or operand) of an invalid_input issue path.
func (c *Command) IssueFlag(path []any) string {
	var parts []string
	for _, p := range path {
		parts = append(parts, fmt.Sprint(p))
	}
	if c.Curated != nil && len(parts) > 0 {
		for _, o := range c.Curated.Operands {
			if o.Field == parts[0] {
				return "<" + o.Name + ">"
			}
		}
	}
	for n := len(parts); n > 0; n-- {
		for _, f := range c.Flags.Flags {
			if reflect.DeepEqual(f.Path, parts[:n]) {
				return f.Name
			}
		}
	}
	return strings.Join(parts, ".")
}

// OperandAt is the curated operand the next word is, given the words typed
// after the command name: flags, their values, and operands. Nil when the
// word is no operand.
func (c *Command) OperandAt(words []string) *curated.Operand {
	n := 0
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "--":
			n += len(words) - i - 1
			i = len(words)
		case strings.HasPrefix(w, "-") && len(w) > 1:
			if c.takesValue(w) && !strings.Contains(w, "=") {
				if i++; i == len(words) {
					return nil // the word being typed is the flag's value
				}
			}
		default:
			n++
		}
	}
	if c.Curated != nil && n < len(c.Curated.Operands) {
		return &c.Curated.Operands[n]
	}
	return nil
}

// takesValue reports a flag of the command, or a global option, that takes
// a value.
func (c *Command) takesValue(name string) bool {
	if o, ok := generated.LookupGlobal(name); ok {
		return o.TakesValue() && o.Scope == generated.Anywhere
	}
	f := c.Flags.Lookup(name)
	return f != nil && f.Type != "boolean"
}

// Cache builds each command once per run: a script that calls one tool a
// thousand times maps its schema once. Details are keyed by pointer:
// catalog.Run hands out one per tool and binding.
type Cache struct {
	m map[cacheKey]*Command
}

type cacheKey struct {
	name string
	d    *catalog.ToolDetail
}

// For returns the command called name over d's tool (NewNamed), built on
// first use.
func (c *Cache) For(name string, d *catalog.ToolDetail) (*Command, error) {
	k := cacheKey{name, d}
	if cmd, ok := c.m[k]; ok {
		return cmd, nil
	}
	cmd, err := NewNamed(name, d)
	if err != nil {
		return nil, err
	}
	if c.m == nil {
		c.m = map[cacheKey]*Command{}
	}
	c.m[k] = cmd
	return cmd, nil
}

// Highlight names how the command's final text is highlighted on a color
// terminal (a file name by its extension, or "diff"); "" otherwise.
func (c *Command) Highlight(call *Call, final bool) string {
	if !final || call == nil {
		return ""
	}
	return c.spec().HighlightOf(call.Parsed.Operands)
}

// Argv is the command line that sends input with this command: the words
// after its name, unquoted (see generated.Argv; CommandLine quotes them).
func (c *Command) Argv(input json.RawMessage) (words []string, inputJSON bool, err error) {
	if c.Curated != nil {
		return c.Curated.Argv(input)
	}
	return c.Flags.Argv(input)
}

// CommandLine is the agsh command line, quoted for the shell, that sends
// input with this command; inputJSON when it is written as --input-json.
func (c *Command) CommandLine(input json.RawMessage) (line string, inputJSON bool, err error) {
	words, inputJSON, err := c.Argv(input)
	if err != nil {
		return "", false, err
	}
	return generated.Line(c.Name, words), inputJSON, nil
}
