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

// Command is one tool's command shape: curated (bound or fallen back) for
// the deployment's authored workspace tools, generated for everything else.
type Command struct {
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

// New builds the command of a tool's detail.
func New(d *catalog.ToolDetail) (*Command, error) {
	c := &Command{Detail: d}
	var err error
	if d.Source.Authored() && curated.Has(d.Name) {
		c.Curated, err = curated.Bind(d.Name, d.InputSchema)
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

// Reformats tells whether results are reformatted (a bound curated shape).
func (c *Command) Reformats() bool { return c.Curated != nil && c.Curated.Bound }

// Call is a parsed command line.
type Call struct {
	Parsed  *generated.Parsed
	Input   json.RawMessage
	Context bool // grep -A/-B/-C
}

// Parse parses the arguments after the tool name. A call with Parsed.Help
// set asks for help; nothing else was checked then.
func (c *Command) Parse(args []string) (*Call, error) {
	if c.Curated != nil {
		call, err := c.Curated.Parse(args)
		if err != nil {
			return nil, err
		}
		return &Call{Parsed: call.Parsed, Input: call.Input, Context: call.Context}, nil
	}
	p, err := c.Flags.Parse(args)
	if p != nil && p.Help {
		return &Call{Parsed: p}, nil
	}
	if err != nil {
		return nil, err
	}
	if err := c.Flags.RejectOperands(p); err != nil {
		return nil, err
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

// OperandAt names the curated operand the next word is ("path", "pattern"),
// given the words typed after the command name: flags, their values, and
// operands. "" when the word is no operand.
func (c *Command) OperandAt(words []string) string {
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
					return "" // the word being typed is the flag's value
				}
			}
		default:
			n++
		}
	}
	if c.Curated != nil && n < len(c.Curated.Operands) {
		return c.Curated.Operands[n].Name
	}
	return ""
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

// Cache builds each tool's command once per run: a script that calls one
// tool a thousand times maps its schema once. Details are keyed by
// pointer: catalog.Run hands out one per tool and binding.
type Cache struct {
	m map[*catalog.ToolDetail]*Command
}

// For returns d's command, built on first use.
func (c *Cache) For(d *catalog.ToolDetail) (*Command, error) {
	if cmd, ok := c.m[d]; ok {
		return cmd, nil
	}
	cmd, err := New(d)
	if err != nil {
		return nil, err
	}
	if c.m == nil {
		c.m = map[*catalog.ToolDetail]*Command{}
	}
	c.m[d] = cmd
	return cmd, nil
}

// Highlight is the file name a curated read printed, or "diff", for
// highlighting its final text on a color terminal; "" otherwise.
func (c *Command) Highlight(name string, call *Call, final bool) string {
	switch {
	case !c.Reformats() || !final || call == nil:
	case name == "read" && len(call.Parsed.Operands) > 0:
		return call.Parsed.Operands[0]
	case name == "diff":
		return "diff"
	}
	return ""
}
