package command

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/curated"
	"github.com/agsh-dev/agsh/generated"
)

// TabShape is what Tab needs of a command, and all that shell completion's
// cache keeps of it (docs/cli.md#completion-scripts): the tool it calls,
// whether it is a bound curated command and its operands (which are
// paths), and its flags with their enum values. The schema itself is not
// kept: a Tab reads this instead of mapping it again.
type TabShape struct {
	Tool     string       `json:"tool"`
	Curated  string       `json:"curated,omitempty"` // the curated row of a bound curated command
	Operands []TabOperand `json:"operands,omitempty"`
	Flags    []TabFlag    `json:"flags,omitempty"`
}

// TabOperand is a curated operand: its schema field, and whether Tab lists
// remote paths for it.
type TabOperand struct {
	Field string `json:"field"`
	Path  bool   `json:"path,omitempty"`
}

// TabFlag is one flag as Tab offers it.
type TabFlag struct {
	Name        string `json:"name"`
	Placeholder string `json:"placeholder,omitempty"`
	// Description is the first line of the flag's description, cut.
	Description string `json:"description,omitempty"`
	// Boolean: the flag takes no value.
	Boolean bool `json:"boolean,omitempty"`
	// Enum are the values Tab offers for it, as typed.
	Enum []string `json:"enum,omitempty"`
}

// The bounds of a TabShape: what Tab can use of a schema, however large.
const (
	tabMaxFlags       = 1000
	tabMaxEnum        = 1000
	tabMaxValueBytes  = 256
	tabMaxDescription = 160
)

// TabShape is c's completion data.
func (c *Command) TabShape() TabShape {
	s := TabShape{Tool: c.Detail.Name}
	if c.Reformats() {
		s.Curated = c.Curated.Spec.Name
		for _, op := range c.Curated.Operands {
			s.Operands = append(s.Operands, TabOperand{Field: op.Field, Path: op.Path})
		}
	}
	if c.Flags == nil {
		return s
	}
	for _, f := range c.Flags.Flags {
		if len(s.Flags) == tabMaxFlags {
			break
		}
		desc, _, _ := strings.Cut(f.Description, "\n")
		tf := TabFlag{Name: f.Name, Placeholder: f.Placeholder, Description: cutText(desc, tabMaxDescription), Boolean: f.Type == "boolean"}
		for _, e := range f.Enum {
			if v := EnumText(e); len(v) <= tabMaxValueBytes && len(tf.Enum) < tabMaxEnum {
				tf.Enum = append(tf.Enum, v)
			}
		}
		s.Flags = append(s.Flags, tf)
	}
	return s
}

// Command is the command called name that s describes, calling the tool
// of entry: enough to complete its line (flags, their values, path
// operands), not to parse one.
func (s TabShape) Command(name string, entry catalog.ToolEntry) *Command {
	flags := make([]*generated.Flag, 0, len(s.Flags))
	for _, f := range s.Flags {
		gf := &generated.Flag{Name: f.Name, Placeholder: f.Placeholder, Description: f.Description, Type: "string"}
		if f.Boolean {
			gf.Type = "boolean"
		}
		for _, v := range f.Enum {
			raw, _ := json.Marshal(v)
			gf.Enum = append(gf.Enum, raw)
		}
		flags = append(flags, gf)
	}
	c := &Command{Name: name, Detail: &catalog.ToolDetail{Name: s.Tool, Title: entry.Title, Source: entry.Source},
		Flags: generated.CommandOf(flags)}
	if spec, ok := curated.Lookup(s.Curated); ok && s.Curated != "" {
		sh := &curated.Shape{Name: spec.Name, Spec: spec, Bound: true, Flags: c.Flags}
		for _, op := range s.Operands {
			sh.Operands = append(sh.Operands, curated.Operand{Field: op.Field, Path: op.Path})
		}
		c.Curated = sh
	}
	return c
}

// cutText shortens s to at most n bytes at a character boundary.
func cutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
