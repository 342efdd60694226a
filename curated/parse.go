package curated

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/agsh-dev/agsh/generated"
)

// Call is a parsed curated command line.
type Call struct {
	// Parsed holds the flags, the reserved global options and Help.
	Parsed *generated.Parsed
	// Input is the object to send: the flags the user set and the operands.
	Input json.RawMessage
	// Context is true when grep was given -A, -B or -C.
	Context bool
}

// UsageError is a mistake on a curated command line (exit status 2).
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// ExitCode is 2: a usage error.
func (e *UsageError) ExitCode() int { return 2 }

// Code is the JSON error line's code.
func (e *UsageError) Code() string { return "usage" }

// localGrepOptions are grep options that only the local filter has.
var localGrepOptions = map[string]bool{
	"-v": true, "-c": true, "-l": true, "-L": true, "-n": true, "-E": true, "-F": true,
	"-w": true, "-x": true, "-o": true, "-r": true, "-R": true, "-H": true,
	"-e": true, "-q": true, "-s": true, "-P": true,
}

// Parse parses a curated command line (the arguments after the command
// name). When Help is set in the result, nothing else was checked.
func (s *Shape) Parse(args []string) (*Call, error) {
	p, err := s.Flags.Parse(args)
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
		if err := s.Flags.Validate(p); err != nil {
			return nil, err
		}
		return &Call{Parsed: p, Input: p.JSON()}, nil
	}
	if len(p.Operands) > len(s.Operands) {
		extra := p.Operands[len(s.Operands)]
		return nil, &UsageError{fmt.Sprintf("%s: unexpected operand %q\nusage: %s", s.Name, extra, s.Synopsis())}
	}
	if err := s.Flags.Validate(p); err != nil {
		return nil, err
	}
	if p.Input == nil {
		p.Input = map[string]any{}
	}
	for i, o := range s.Operands {
		switch {
		case i < len(p.Operands):
			p.Input[o.Field] = p.Operands[i]
		case o.Required:
			return nil, &UsageError{fmt.Sprintf("%s: missing <%s> operand\nusage: %s", s.Name, o.Name, s.Synopsis())}
		case o.Default != "":
			p.Input[o.Field] = o.Default
		}
	}
	c := &Call{Parsed: p, Input: p.JSON()}
	if s.Name == "grep" {
		for _, k := range []string{"-A", "-B", "-C"} {
			if _, ok := p.Input[k]; ok {
				c.Context = true
			}
		}
	}
	return c, nil
}

// explain adds the local-filter hint to an unknown grep option.
func (s *Shape) explain(err error) error {
	var uf *generated.UnknownFlagError
	if s.Name != "grep" || !errors.As(err, &uf) {
		return err
	}
	flag := uf.Flag
	if i := strings.IndexByte(flag, '='); i > 0 {
		flag = flag[:i]
	}
	if !localGrepOptions[flag] {
		return err
	}
	return &UsageError{fmt.Sprintf("grep: %s is not an option of the deployment's grep; local filters go after |: "+
		"grep <pattern> [path] | grep %s …", flag, flag)}
}
