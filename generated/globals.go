package generated

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Scope says where a global option may stand.
type Scope int

const (
	// Anywhere: before or after the command name on agsh's command line, and
	// on every command line of the shell (--output, --help).
	Anywhere Scope = iota
	// Launch: before or after the command name on agsh's command line; it is
	// set when agsh starts, so the shell refuses it on a command line
	// (--target, --session …).
	Launch
	// BeforeCommand: on agsh's command line before the command name only
	// (after it, the word is the command's): options that replace the
	// command, such as a --version.
	BeforeCommand
)

// GlobalOption is one of agsh's own options (docs/cli.md#global-options).
// Every command keeps its spelling: a tool property never takes it
// (docs/mapping.md#collisions-and-reserved-names renames such properties),
// and a command line gives it to agsh.
type GlobalOption struct {
	// Name is the spelling, "--target"; Short is a one-letter alias ("-h").
	Name, Short string
	// Placeholder is the value's, "<url|name>"; "" when it takes no value.
	Placeholder string
	// Values are the only values it accepts (nil: any).
	Values []string
	Scope  Scope
	// Env is the environment variable standing for it, "" when none.
	Env string
	// Help is its text in agsh --help (lines after the first are continued
	// under it).
	Help string
	// Formats: its values are the output formats, whose table is the
	// renderer's; internal/command fills in Values, Placeholder and Help.
	Formats bool
	// Check checks a value (nil: any value, or one of Values): the
	// error's text follows "--name: " in the usage error.
	Check func(value string) error
}

// TakesValue reports whether the option takes a value.
func (o GlobalOption) TakesValue() bool { return o.Placeholder != "" }

// Reserves reports whether the option takes its spelling away from every
// tool: an option that may stand after the command name (Anywhere,
// Launch) does; one that stands before it only (BeforeCommand) does not.
func (o GlobalOption) Reserves() bool { return o.Scope != BeforeCommand }

// GlobalOptions is the one table of agsh's own options: the scan of a
// command line, the tool-line parser, the shell's per-command check,
// completion, help and the README's table all read it.
//
// The reservation rule (docs/cli.md#reserved-names): every option that
// Reserves its spelling (and short spelling) takes it from every tool, so
// a tool property that would be spelled so gets the collision suffix
// instead (a property "output" is --output-2; docs/mapping.md#names). A row
// added here therefore renames that property's flag in every tool that has
// one: say so in the README and the option's help.
var GlobalOptions = []GlobalOption{
	{Name: "--target", Placeholder: "<url|name>", Scope: Launch, Env: "AGENT_SHELL_TARGET",
		Help: "the deployment: a URL (http://127.0.0.1:39400/executor)\nor a production deployment name   [AGENT_SHELL_TARGET]"},
	{Name: "--team", Placeholder: "<team>", Scope: Launch, Env: "AGENT_SHELL_TEAM",
		Help: "team for a production name, by id or name [AGENT_SHELL_TEAM]"},
	{Name: "--bearer-token", Placeholder: "<token>", Scope: Launch, Env: "AGENT_SHELL_BEARER_TOKEN",
		Help: "bearer auth for a direct deployment [AGENT_SHELL_BEARER_TOKEN]"},
	{Name: "--session", Placeholder: "<id>", Scope: Launch, Help: "bind to this session instead of the latest"},
	{Name: "--continuation-token", Placeholder: "<token>", Scope: Launch, Help: "bind by continuation token"},
	{Name: "--output", Placeholder: "<format>", Formats: true},
	{Name: "--input-json", Placeholder: "<json|@file|@->", Check: checkInputJSON,
		Help: "the tool's whole input as one JSON object: inline ({…}), @file or @-\n(standard input; files one-shot only); flags beside it override\nits members"},
	{Name: "--timeout", Placeholder: "<duration>", Check: func(v string) error { _, err := ParseTimeout(v); return err },
		Help: "give up on a call whose whole answer has not arrived after this\nlong (30s, 2m; exit 5: the call may still complete); a tool's\nown timeout property is spelled --timeout-2"},
	{Name: "--help", Short: "-h", Help: "help"},
	{Name: "--yes", Env: "AGSH_YES",
		Help: "do not ask before a write or a decision: agsh asks on a terminal before\ncalling a tool that declares it writes, and before :approve and :deny;\nwithout a terminal (a script, a pipe) it refuses them unless --yes is\ngiven, at launch for a whole script [AGSH_YES]"},
	{Name: "--version", Scope: BeforeCommand, Help: "agsh's version (with --output json: an object); before any command"},
	{Name: "--man", Scope: BeforeCommand, Help: "agsh's manual page in roff (agsh --man | man -l -); before any command"},
	{Name: "--completion", Placeholder: "<bash|zsh|fish|pwsh>", Values: []string{"bash", "zsh", "fish", "pwsh"}, Scope: BeforeCommand,
		Help: "print the shell's completion script; before any command"},
}

// LookupGlobal returns the global option spelled name (long or short).
func LookupGlobal(name string) (GlobalOption, bool) {
	i := slices.IndexFunc(GlobalOptions, func(o GlobalOption) bool { return o.Name == name || o.Short != "" && o.Short == name })
	if i < 0 {
		return GlobalOption{}, false
	}
	return GlobalOptions[i], true
}

// isReserved reports a spelling no tool flag may take (Reserves).
func isReserved(name string) bool {
	o, ok := LookupGlobal(name)
	return ok && o.Reserves()
}

// IsGlobalWithValue reports a reserved option that takes a value: on a
// command line, the word after it is its value.
func IsGlobalWithValue(name string) bool {
	o, ok := LookupGlobal(name)
	return ok && o.Reserves() && o.TakesValue()
}

// reservedNames lists the reserved long spellings, for suggestions.
func reservedNames() []string {
	var out []string
	for _, o := range GlobalOptions {
		if o.Reserves() {
			out = append(out, o.Name)
		}
	}
	return out
}

// ParseTimeout reads a --timeout value: a positive Go duration (30s, 1m30s,
// 500ms) or a positive number of seconds (30, 2.5).
func ParseTimeout(v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err != nil {
		f, ferr := strconv.ParseFloat(v, 64)
		if ferr != nil || f != f { // not a number, or NaN
			return 0, errors.New("expected a duration such as 30s, 2m or 1m30s, not " + strconv.Quote(v))
		}
		if f > float64(1<<62)/float64(time.Second) {
			return 0, errors.New(strconv.Quote(v) + " seconds is too long")
		}
		d = time.Duration(f * float64(time.Second))
	}
	if d <= 0 {
		return 0, errors.New("the duration must be more than 0, not " + strconv.Quote(v))
	}
	return d, nil
}

// checkInputJSON checks the shape of an --input-json value: inline JSON
// starting with "{", or @file, or @- (what it holds is read and checked
// where it is used).
func checkInputJSON(v string) error {
	t := strings.TrimLeft(v, " \t\r\n")
	switch {
	case strings.HasPrefix(t, "{"):
		return nil
	case v == "@":
		return errors.New("@ needs a file name (@input.json), or @- for standard input")
	case strings.HasPrefix(v, "@"):
		return nil
	}
	return errors.New("expected one JSON object ({…}), @file or @- (standard input), not " + quoteShort(v))
}

// quoteShort quotes a value for a message, cut to 40 bytes.
func quoteShort(v string) string {
	if len(v) > 40 {
		return strconv.Quote(v[:40]) + "…"
	}
	return strconv.Quote(v)
}
