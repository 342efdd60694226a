package generated

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/agsh-dev/agsh/internal/exitcode"
)

// exitUsage is the exit status of every error a user can cause here.
const exitUsage = exitcode.Usage

// UnknownFlagError is a flag the tool does not have.
type UnknownFlagError struct {
	Flag        string   // as given, without any "=value"
	Suggestions []string // up to three close spellings, best first
	Flags       []string // every flag of the tool, in mapping order
	FreeForm    bool     // the tool's input is a free-form map (no flags can fill it)
}

// Error implements error.
func (e *UnknownFlagError) Error() string {
	var b strings.Builder
	b.WriteString("unknown flag " + e.Flag)
	if len(e.Suggestions) > 0 {
		b.WriteString(" (did you mean " + orList(e.Suggestions) + "?)")
	}
	if len(e.Flags) == 0 {
		b.WriteString("; this command takes no flags")
		if e.FreeForm {
			b.WriteString(" (its input is a free-form object, which agsh cannot fill from flags: it is called with {})")
		}
	} else {
		b.WriteString("; flags: " + strings.Join(e.Flags, ", "))
	}
	return b.String()
}

// ExitCode is 2 (usage).
func (e *UnknownFlagError) ExitCode() int { return exitUsage }

// MissingFlagError names every required flag that was not given.
type MissingFlagError struct {
	Flags []string
	// Boolean lists the boolean flags among Flags: the error says how to
	// send false, which a valueless flag does not show.
	Boolean []string
}

// Error implements error.
func (e *MissingFlagError) Error() string {
	s := "missing required flags " + strings.Join(e.Flags, ", ")
	if len(e.Flags) == 1 {
		s = "missing required flag " + e.Flags[0]
	}
	if len(e.Boolean) > 0 {
		var how []string
		for _, b := range e.Boolean {
			how = append(how, b+" sends true, "+b+"=false sends false")
		}
		s += " (" + strings.Join(how, "; ") + ")"
	}
	return s
}

// ExitCode is 2 (usage).
func (e *MissingFlagError) ExitCode() int { return exitUsage }

// BadValueError is a value its flag does not accept.
type BadValueError struct {
	Flag     string
	Value    string
	Expected string // "an integer", "one of a, b, c", "true or false", …
	// Item, when set, names the item of an array value that is refused
	// ("[1] is 1, expected a string"), said instead of Expected.
	Item string
}

// Error implements error.
func (e *BadValueError) Error() string {
	if e.Item != "" {
		return fmt.Sprintf("invalid value %s for %s: %s", strconv.Quote(e.Value), e.Flag, e.Item)
	}
	return fmt.Sprintf("invalid value %s for %s: expected %s", strconv.Quote(e.Value), e.Flag, e.Expected)
}

// ExitCode is 2 (usage).
func (e *BadValueError) ExitCode() int { return exitUsage }

// MissingValueError is a flag that needs a value and got none: at the end
// of the words, or followed by a word that begins with "-".
type MissingValueError struct {
	Flag   string
	Next   string // the word that followed, "" at the end
	Before bool   // Next is a flag or no value of this flag: no "--x=value" hint
}

// Error implements error.
func (e *MissingValueError) Error() string {
	if e.Next == "" {
		return "flag " + e.Flag + " needs a value"
	}
	if e.Before {
		return "flag " + e.Flag + " needs a value before " + e.Next
	}
	return fmt.Sprintf("flag %s needs a value; to pass a value that begins with \"-\", write %s=%s", e.Flag, e.Flag, e.Next)
}

// ExitCode is 2 (usage).
func (e *MissingValueError) ExitCode() int { return exitUsage }

// DuplicateFlagError is a flag that takes one value given more than once.
type DuplicateFlagError struct {
	Flag string
}

// Error implements error.
func (e *DuplicateFlagError) Error() string {
	return "flag " + e.Flag + " given more than once (it takes a single value)"
}

// ExitCode is 2 (usage).
func (e *DuplicateFlagError) ExitCode() int { return exitUsage }

// OperandError is a word that is not a flag, given to a command that takes
// flags only.
type OperandError struct {
	Operand    string
	Suggestion string // e.g. "--issue-number 42"; "" when nothing fits
	NoFlags    bool   // the command takes no flags either
}

// Error implements error.
func (e *OperandError) Error() string {
	takes := "flags only"
	if e.NoFlags {
		takes = "no operands and no flags"
	}
	msg := fmt.Sprintf("unexpected operand %s: this command takes %s", strconv.Quote(e.Operand), takes)
	if e.Suggestion != "" {
		msg += "; did you mean " + e.Suggestion + "?"
	}
	return msg
}

// ExitCode is 2 (usage).
func (e *OperandError) ExitCode() int { return exitUsage }

// ShadowedOptionError is a connection option (--target, --team,
// --bearer-token, --session, --continuation-token) given after the name of
// a command one of whose properties was renamed away from that spelling:
// agsh will not guess whether the user meant its option or the tool's
// property.
type ShadowedOptionError struct {
	Option   string // "--target"
	Flag     string // "--target-2"
	Property string // "target"
}

// Error implements error.
func (e *ShadowedOptionError) Error() string {
	return fmt.Sprintf("%s is agsh's %s; this tool's %s property is %s (give %s before the command name to choose the %s)",
		e.Option, connectionOptions[e.Option], e.Property, e.Flag, e.Option, strings.TrimSuffix(connectionOptions[e.Option], " option"))
}

// ExitCode is 2 (usage).
func (e *ShadowedOptionError) ExitCode() int { return exitUsage }

// ShadowHint is the sentence a resolution error adds when the target came
// from a --target given after the command name: that spelling is agsh's
// deployment option, and a tool property named target is spelled --target-2
// (docs/cli.md#options-after-the-command-name), so the user may have meant
// it.
func ShadowHint(option string) string {
	what := connectionOptions[option]
	if what == "" {
		return ""
	}
	prop := strings.TrimPrefix(option, "--")
	return fmt.Sprintf("%s after the command name is agsh's %s; if you meant the tool's %s property, its flag is %s-2", option, what, prop, option)
}

// SchemaError is an input schema that cannot be mapped (not JSON, or too
// large to expand). The deployment served it, so it is not a usage error:
// exit status 5 (the deployment answered nonsense).
type SchemaError struct {
	Err error
}

// Error implements error.
func (e *SchemaError) Error() string { return "invalid input schema: " + e.Err.Error() }

// Unwrap returns the underlying error.
func (e *SchemaError) Unwrap() error { return e.Err }

// ExitCode is 5 (bad response).
func (e *SchemaError) ExitCode() int { return exitcode.Unreachable }

// orList joins names as "a", "a or b", "a, b or c".
func orList(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
