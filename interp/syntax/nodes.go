// Package syntax tokenizes and parses the agsh shell language: lines of lists,
// lists of pipelines joined by ';', '&&' and '||', pipelines of commands joined by
// '|', and commands made of words. Quoting follows sh ('…' literal, "…" with \" and
// \\ escapes, a backslash escaping the next character), but there is no expansion of
// any kind and every construct agsh does not support (redirection, '&', command
// substitution, parentheses, assignments) is a parse error naming the construct.
//
// Every node carries its position and every error its line and column (1-based,
// counted in characters) and its byte offset. ScanPartial scans the text before a
// cursor for completion, with the same rules. An error whose Incomplete method reports true means the
// input ended in the middle of a construct (an open quote, a trailing '|', '&&',
// '||' or '\'): an interactive reader should ask for another line.
package syntax

// Pos is a position in the source: 1-based line and 1-based column counted in
// characters (runes), and the 0-based byte offset.
type Pos struct {
	Line   int
	Col    int
	Offset int
}

// Op is an operator joining two pipelines of a list.
type Op int

// The list operators. They have equal precedence and are applied left to right.
const (
	// OpSemi (';') runs the next pipeline unconditionally.
	OpSemi Op = iota + 1
	// OpAnd ('&&') runs the next pipeline only when the status so far is 0.
	OpAnd
	// OpOr ('||') runs the next pipeline only when the status so far is not 0.
	OpOr
)

// String returns the operator as written in source.
func (o Op) String() string {
	switch o {
	case OpSemi:
		return ";"
	case OpAnd:
		return "&&"
	case OpOr:
		return "||"
	}
	return "?"
}

// Script is a whole parsed input: one list per logical line.
type Script struct {
	Lists []*List
}

// List is a sequence of pipelines joined by operators; Ops[i] joins Pipelines[i]
// and Pipelines[i+1], so len(Ops) == len(Pipelines)-1. A trailing ';' is not
// recorded. Pos is where the list's first word starts.
type List struct {
	Pipelines []*Pipeline
	Ops       []Op
	Pos       Pos
}

// Pipeline is one or more commands joined by '|'. Pos is its first word's.
type Pipeline struct {
	Commands []*Command
	Pos      Pos
}

// Command is a non-empty sequence of words; Words[0] names the command.
type Command struct {
	Words []*Word
	Pos   Pos
}

// Word is one argument after quote removal. Pos is where its first character
// (or opening quote) stands; End is the byte offset just past its last one.
type Word struct {
	Value string
	Pos   Pos
	End   int
}

// Args returns the command's words as plain strings (a nil word as "").
func (c *Command) Args() []string {
	out := make([]string, len(c.Words))
	for i, w := range c.Words {
		if w != nil {
			out[i] = w.Value
		}
	}
	return out
}
