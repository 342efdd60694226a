package curated

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/agsh-dev/agsh/generated"
	"github.com/agsh-dev/agsh/internal/exitcode"
)

// Call is a parsed curated command line.
type Call struct {
	// Parsed holds the flags, the reserved global options and Help.
	Parsed *generated.Parsed
	// Input is the object to send: the flags the user set and the operands.
	Input json.RawMessage
	// Reformat are the reformatter's options for this input (grep's -A,
	// -B or -C: groups separated by "--").
	Reformat ReformatOptions
}

// Habits are the unix habits a curated command's line accepts beyond its
// tool's flags (grep's -n, -l, -e …), and the hints for the unix options
// it does not have.
type Habits interface {
	// rewrite rewrites the line before its flags are parsed.
	rewrite(s *Shape, args []string) (habitLine, error)
	// optionError is the hint for a unix option the tool lacks, nil for
	// any other flag.
	optionError(s *Shape, flag string) error
	// shorthands are the habits accepted, for the help page.
	shorthands(s *Shape) []Shorthand
}

// habitLine is a line rewritten by a command's habits.
type habitLine struct {
	args []string
	// operand is an operand taken out of the line (grep's -e pattern),
	// hasOperand when one was.
	operand    string
	hasOperand bool
	// finish, when set, adjusts the input and the reformatter's options
	// once the operands are bound (grep's -F and -w rewrite the pattern,
	// read's -n numbers the lines).
	finish func(s *Shape, input map[string]any, o *ReformatOptions)
}

// UsageError is a mistake on a curated command line (exit status 2).
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// ExitCode is 2: a usage error.
func (e *UsageError) ExitCode() int { return exitcode.Usage }

// Code is the JSON error line's code.
func (e *UsageError) Code() string { return "usage" }

// localGrepOptions are the options of the local grep filter (interp) that
// the deployment's grep does not have: given to the tool, they get the hint
// to put them after |.
var localGrepOptions = map[string]bool{
	"-v": true, "-x": true,
}

// grepOptionHints say what to do instead of a unix grep option that neither
// the deployment's grep nor the local filter has.
var grepOptionHints = map[string]string{
	"-R": "the deployment's grep already searches directories recursively: leave it out",
	"-H": "the deployment's grep always prints the path: leave it out",
}

// Parse parses a curated command line (the arguments after the command
// name). When Help is set in the result, nothing else was checked.
func (s *Shape) Parse(args []string) (*Call, error) {
	return s.ParseWith(args, generated.ParseOptions{}, nil)
}

// ParseWith is Parse with the flag parser's options and a whole input
// object (base, nil when none): the flags and operands given override its
// members, and a required operand it holds need not be given.
func (s *Shape) ParseWith(args []string, o generated.ParseOptions, base map[string]any) (*Call, error) {
	call, err := s.parse(args, o, base)
	if err == nil && !call.Parsed.Help {
		call.Input = call.Parsed.JSON()
	}
	return call, err
}

// parse is ParseWith without the input's JSON (Call.Input), which Argv's
// check of a line does not need.
func (s *Shape) parse(args []string, o generated.ParseOptions, base map[string]any) (*Call, error) {
	var hl habitLine
	habits := s.habits()
	if habits != nil && s.Bound {
		var err error
		if hl, err = habits.rewrite(s, args); err != nil {
			return nil, err
		}
		args = hl.args
	}
	p, err := s.Flags.ParseWith(args, o)
	if err != nil && (p == nil || !p.Help) {
		if herr := s.bundledOption(args); herr != nil {
			return nil, herr
		}
	}
	if p != nil && p.Help {
		return &Call{Parsed: p}, nil
	}
	if err != nil {
		return nil, s.explain(err)
	}
	if !s.Bound {
		if err := s.Flags.RejectOperands(p); err != nil {
			return nil, err
		}
		if base != nil {
			if err := s.Flags.Merge(p, base); err != nil {
				return nil, err
			}
		}
		if err := s.Flags.Validate(p); err != nil {
			return nil, err
		}
		return &Call{Parsed: p}, nil
	}
	if hl.hasOperand {
		p.Operands = append([]string{hl.operand}, p.Operands...)
	}
	if len(p.Operands) > len(s.Operands) {
		extra := p.Operands[len(s.Operands)]
		return nil, &UsageError{fmt.Sprintf("%s: unexpected operand %q\nusage: %s", s.Name, extra, s.Synopsis())}
	}
	if base != nil {
		if err := s.Flags.Merge(p, base); err != nil {
			return nil, err
		}
	}
	if err := s.Flags.Validate(p); err != nil {
		return nil, err
	}
	if p.Input == nil {
		p.Input = map[string]any{}
	}
	for i, o := range s.Operands {
		_, given := p.Input[o.Field] // by the whole input
		switch {
		case i < len(p.Operands):
			p.Input[o.Field] = p.Operands[i]
		case given:
		case o.Required:
			return nil, &UsageError{fmt.Sprintf("%s: missing <%s> operand\nusage: %s", s.Name, o.Name, s.Synopsis())}
		case o.Default != "":
			p.Input[o.Field] = o.Default
		}
	}
	ro := s.Spec.reformatOptions(p.Input)
	if hl.finish != nil {
		hl.finish(s, p.Input, &ro)
	}
	return &Call{Parsed: p, Reformat: ro}, nil
}

// habits are the shape's line habits, nil when it has none.
func (s *Shape) habits() Habits {
	if s == nil || s.Spec == nil {
		return nil
	}
	return s.Spec.Habits
}

// explain adds the local-filter hint to an unknown grep option.
func (s *Shape) explain(err error) error {
	var uf *generated.UnknownFlagError
	if !errors.As(err, &uf) {
		return err
	}
	flag := uf.Flag
	if i := strings.IndexByte(flag, '='); i > 0 {
		flag = flag[:i]
	}
	// The field of an operand has no flag: say so rather than suggest
	// lookalikes (--target-directory is not --target).
	for _, o := range s.Operands {
		if flag == "--"+generated.Kebab(o.Field) || flag == "--"+o.Name {
			return &UsageError{fmt.Sprintf("%s: the %s is an operand, not a flag (%s)\nusage: %s",
				s.Name, o.Name, flag, s.Synopsis())}
		}
	}
	if h := s.habits(); h != nil {
		if herr := h.optionError(s, flag); herr != nil {
			return herr
		}
	}
	return err
}

// grepOptionError is the hint for a unix grep option the deployment's grep
// does not have, nil for any other flag.
func grepOptionError(flag string) error {
	if localGrepOptions[flag] {
		return &UsageError{fmt.Sprintf("grep: %s is not an option of the deployment's grep; local filters go after |: "+
			"grep <pattern> [path] | grep %s …", flag, flag)}
	}
	if h, ok := grepOptionHints[flag]; ok {
		return &UsageError{fmt.Sprintf("grep: %s is not an option of the deployment's grep; %s", flag, h)}
	}
	return nil
}

// bundledOption finds a unix option the tool lacks written in a bundle of
// short options (-in, -rn, -vi) before "--", where the flag parser would
// report the bundle itself or take its tail for -i's value: the hint names
// the option.
func (s *Shape) bundledOption(args []string) error {
	h := s.habits()
	if h == nil {
		return nil
	}
	for _, a := range args {
		if a == "--" {
			return nil
		}
		if len(a) < 3 || a[0] != '-' || a[1] == '-' || s.hasFlag(a) {
			continue
		}
		letters := true
		for _, c := range a[1:] {
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
				letters = false
			}
		}
		if !letters {
			continue
		}
		for _, c := range a[1:] {
			if err := h.optionError(s, "-"+string(c)); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *Shape) hasFlag(name string) bool {
	for _, f := range s.Flags.Flags {
		if f.Name == name {
			return true
		}
	}
	return false
}
