package curated

import "slices"

// Spec is one curated command: its name, the authored tool it calls, its
// shape (operands and flags bound to the tool's live schema by candidate
// fields) and its behaviour (how the result is reformatted, streamed and
// highlighted, and the unix habits its line accepts). The table of them,
// specs, is the only place that says what a curated command does: nothing
// else asks a command's name. See docs/file-tools.md#the-curated-commands.
type Spec struct {
	// Name is the command's name; Tool is the authored tool it calls (""
	// means a tool of the command's own name).
	Name, Tool string
	Operands   []OperandSpec
	Flags      []FlagSpec

	// Reformat turns the tool's result text into what the unix command
	// prints; false when the text is not in the expected format (it then
	// prints verbatim). Nil: the result prints as the tool's value.
	Reformat func(text string, o ReformatOptions) (Output, bool)
	// lines is Reformat line by line, for a long result reformatted as it
	// arrives; nil: the whole result is held and reformatted at its end.
	lines func(o ReformatOptions) lineFormat
	// Highlight names how the final text is highlighted on a color
	// terminal, given the operands: a file name (by its extension) or
	// "diff"; "" or a nil func: not highlighted.
	Highlight func(operands []string) string
	// Habits are the unix habits its line accepts beyond its flags (grep's
	// -n, -l, -e …); nil: none.
	Habits Habits
	// Options reads the reformatter's options from the input sent.
	Options func(input map[string]any) ReformatOptions
	// Lists: the command lists a directory (its first operand), one entry
	// per line of its reformatted output; completion lists remote paths
	// with it.
	Lists bool
	// Retry, given a call the tool answered with an error (its text), is
	// the call to make instead (read PATH:N reads PATH from line N when no
	// file PATH:N exists); false: the error stands.
	Retry func(s *Shape, c *Call, errText string) (*Call, bool)
	// SaysEmpty: an empty reformatted output is worth a "(no results)"
	// note on standard error (ls, glob: an empty answer is no answer);
	// for read and diff the empty output is the answer.
	SaysEmpty bool
}

// OperandSpec is one positional argument of a curated shape: the schema
// fields it may bind to (first match wins, each a string field).
type OperandSpec struct {
	Name       string   // "path", "pattern"
	Candidates []string // the schema fields it may bind to
	Required   bool     // the command line must give it
	Default    string   // sent when not given ("" sends nothing)
	// Path: the operand is a path in the workspace (Tab lists remote
	// paths for it).
	Path bool
}

// FlagSpec renames the generated flag of the first candidate field found
// with the expected type; one without a spelling keeps the generated
// spelling, and its one field is not offered when of another type.
type FlagSpec struct {
	Spelling   string
	Candidates []string
	Type       string // JSON schema type of the field ("array" for string arrays)
}

// typed is a flag that keeps its generated spelling but is offered only when
// its field has the expected type.
func typed(field, typ string) FlagSpec {
	return FlagSpec{Candidates: []string{field}, Type: typ}
}

// DefaultRoot is the workspace root ls lists without an operand.
const DefaultRoot = "/repo"

// specs are the curated commands (docs/file-tools.md#the-curated-commands).
// Flags not listed keep their generated spelling, which is the curated one
// for read (--offset, --limit) and grep (-i, -A, -B, -C, --output-mode, …).
var specs = []Spec{
	{
		Name:     "diff",
		Operands: []OperandSpec{{Name: "path", Candidates: []string{"path"}, Path: true}},
		Reformat: func(text string, _ ReformatOptions) (Output, bool) { return Output{Stdout: text}, true },
		Highlight: func([]string) string {
			return "diff"
		},
	},
	{
		Name: "glob",
		Operands: []OperandSpec{
			{Name: "pattern", Candidates: []string{"glob_pattern", "pattern"}, Required: true},
			{Name: "path", Candidates: []string{"target_directory", "path"}, Path: true},
		},
		Reformat:  func(text string, _ ReformatOptions) (Output, bool) { return ReformatGlob(text) },
		SaysEmpty: true,
	},
	{
		Name: "grep",
		Operands: []OperandSpec{
			{Name: "pattern", Candidates: []string{"pattern"}, Required: true},
			{Name: "path", Candidates: []string{"path"}, Path: true},
		},
		Flags: []FlagSpec{typed("-i", "boolean"), typed("-A", "integer"), typed("-B", "integer"), typed("-C", "integer"),
			typed("output_mode", "string"), typed("head_limit", "integer"), typed("glob", "string"),
			typed("type", "string"), typed("offset", "integer"), typed("multiline", "boolean")},
		Reformat: func(text string, o ReformatOptions) (Output, bool) { return ReformatGrep(text, o.Context) },
		lines:    func(o ReformatOptions) lineFormat { return &grepLines{context: o.Context} },
		Habits:   grepHabits{},
		Options: func(input map[string]any) ReformatOptions {
			var o ReformatOptions
			for _, k := range []string{"-A", "-B", "-C"} {
				if _, ok := input[k]; ok {
					o.Context = true
				}
			}
			return o
		},
	},
	{
		Name:      "ls",
		Operands:  []OperandSpec{{Name: "path", Candidates: []string{"target_directory", "path", "dir"}, Default: DefaultRoot, Path: true}},
		Flags:     []FlagSpec{{Spelling: "--ignore-globs", Candidates: []string{"ignore_globs", "ignore"}, Type: "array"}},
		Reformat:  func(text string, _ ReformatOptions) (Output, bool) { return ReformatLs(text) },
		Habits:    lsHabits{},
		Lists:     true,
		SaysEmpty: true,
	},
	{
		Name:     "read",
		Operands: []OperandSpec{{Name: "path", Candidates: []string{"path", "target_file", "file_path"}, Required: true, Path: true}},
		Flags:    []FlagSpec{typed("offset", "integer"), typed("limit", "integer")},
		Reformat: func(text string, o ReformatOptions) (Output, bool) { return ReformatRead(text, o.Numbers) },
		lines:    func(o ReformatOptions) lineFormat { return &readLines{numbers: o.Numbers} },
		Habits:   readHabits{},
		Retry:    readAtLine,
		Highlight: func(operands []string) string {
			if len(operands) > 0 {
				return operands[0]
			}
			return ""
		},
	},
}

// Lookup returns the curated command named name.
func Lookup(name string) (*Spec, bool) {
	i := slices.IndexFunc(specs, func(s Spec) bool { return s.Name == name })
	if i < 0 {
		return nil, false
	}
	return &specs[i], true
}

// Has reports whether name has a curated command. Only the deployment's
// authored tools get one; the caller checks that.
func Has(name string) bool { _, ok := Lookup(name); return ok }

// Names are the curated commands' names, in table order.
func Names() []string {
	out := make([]string, len(specs))
	for i, s := range specs {
		out[i] = s.Name
	}
	return out
}

// Lister is the command that lists a directory (Spec.Lists), nil when none.
func Lister() *Spec {
	for i := range specs {
		if specs[i].Lists {
			return &specs[i]
		}
	}
	return nil
}

// Register adds a curated command to the table, or replaces the one of its
// name (a new command is one row and its reformatter). For extensions and
// tests; the table is read without locks, so register before any command
// runs.
func Register(s Spec) {
	if i := slices.IndexFunc(specs, func(t Spec) bool { return t.Name == s.Name }); i >= 0 {
		specs[i] = s
		return
	}
	specs = append(specs, s)
}

// Unregister takes a curated command out of the table (tests).
func Unregister(name string) {
	specs = slices.DeleteFunc(specs, func(s Spec) bool { return s.Name == name })
}

// ToolName is the authored tool the command calls.
func (s *Spec) ToolName() string {
	if s.Tool != "" {
		return s.Tool
	}
	return s.Name
}

// Streams reports whether a long result is reformatted as it arrives
// (NewStream).
func (s *Spec) Streams() bool { return s != nil && s.lines != nil }

// reformatOptions are the reformatter's options for an input.
func (s *Spec) reformatOptions(input map[string]any) ReformatOptions {
	if s.Options == nil {
		return ReformatOptions{}
	}
	return s.Options(input)
}

// HighlightOf names how a final text is highlighted, "" when it is not.
func (s *Spec) HighlightOf(operands []string) string {
	if s == nil || s.Highlight == nil {
		return ""
	}
	return s.Highlight(operands)
}

// RetryCall is the command's Retry of a call the tool answered with an
// error (its text): the call to make instead, or false.
func (s *Shape) RetryCall(c *Call, errText string) (*Call, bool) {
	if s == nil || !s.Bound || s.Spec == nil || s.Spec.Retry == nil {
		return nil, false
	}
	return s.Spec.Retry(s, c, errText)
}
