package main

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/curated"
	"github.com/agsh-dev/agsh/generated"
)

// command is one tool's command shape: curated (bound or fallen back) for
// the deployment's authored workspace tools, generated for everything else.
type command struct {
	detail  *catalog.ToolDetail
	curated *curated.Shape // nil for a generated command
	flags   *generated.Command
}

// badSchemaError: the deployment served an input schema agsh cannot read.
type badSchemaError struct {
	tool string
	err  error
}

func (e *badSchemaError) Error() string {
	return fmt.Sprintf("the deployment's input schema for %s is unusable: %v", e.tool, e.err)
}
func (e *badSchemaError) ExitCode() int { return exitUnreachable }
func (e *badSchemaError) Code() string  { return "bad_response" }

func newCommand(d *catalog.ToolDetail) (*command, error) {
	c := &command{detail: d}
	var err error
	if d.Source.Authored() && curated.Has(d.Name) {
		c.curated, err = curated.Bind(d.Name, d.InputSchema)
		if err == nil {
			c.flags = c.curated.Flags
		}
	} else {
		c.flags, err = generated.Build(d.InputSchema, generated.BuildOptions{})
	}
	if err != nil {
		return nil, &badSchemaError{d.Name, err}
	}
	return c, nil
}

// reformats tells whether results are reformatted (a bound curated shape).
func (c *command) reformats() bool { return c.curated != nil && c.curated.Bound }

// parsedCall is a parsed command line.
type parsedCall struct {
	parsed  *generated.Parsed
	input   json.RawMessage
	context bool // grep -A/-B/-C
}

// parse parses the arguments after the tool name. A parsed call with
// parsed.Help set asks for help; nothing else was checked then.
func (c *command) parse(args []string) (*parsedCall, error) {
	if c.curated != nil {
		call, err := c.curated.Parse(args)
		if err != nil {
			return nil, err
		}
		return &parsedCall{parsed: call.Parsed, input: call.Input, context: call.Context}, nil
	}
	p, err := c.flags.Parse(args)
	if p != nil && p.Help {
		return &parsedCall{parsed: p}, nil
	}
	if err != nil {
		return nil, err
	}
	if err := c.flags.RejectOperands(p); err != nil {
		return nil, err
	}
	if err := c.flags.Validate(p); err != nil {
		return nil, err
	}
	return &parsedCall{parsed: p, input: p.JSON()}, nil
}

// issueFlag names the flag (or operand) of an invalid_input issue path.
func (c *command) issueFlag(path []any) string {
	var parts []string
	for _, p := range path {
		parts = append(parts, fmt.Sprint(p))
	}
	if c.curated != nil && len(parts) > 0 {
		for _, o := range c.curated.Operands {
			if o.Field == parts[0] {
				return "<" + o.Name + ">"
			}
		}
	}
	for n := len(parts); n > 0; n-- {
		for _, f := range c.flags.Flags {
			if reflect.DeepEqual(f.Path, parts[:n]) {
				return f.Name
			}
		}
	}
	return strings.Join(parts, ".")
}
