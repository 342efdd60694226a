package main

import (
	"fmt"
	"slices"
	"strings"
)

// globals are agsh's own options (cli.md, "Global options"). They are
// accepted before or after the tool name, anywhere before `--`.
type globals struct {
	target, team, token, session, contToken, output string
	help                                            bool
}

// valueOptions are the global options that take a value.
var valueOptions = []string{"--target", "--team", "--bearer-token", "--session", "--continuation-token", "--output"}

// launchOnly are the options the shell accepts at launch only.
var launchOnly = []string{"--target", "--team", "--bearer-token", "--session", "--continuation-token"}

// usageError is a command-line mistake: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// ExitCode implements the exit-code contract of cmd/agsh/exit.go.
func (e *usageError) ExitCode() int { return 2 }

// Code is the JSON error line's code.
func (e *usageError) Code() string { return "usage" }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// splitGlobals takes agsh's own options out of args. Everything else (the
// tool name, its operands and flags, and everything from `--` on) is returned
// in order. A reserved name is never a tool flag (mapping.md renames such
// properties), so any token spelled like one before `--` is agsh's.
func splitGlobals(args []string) (g globals, rest []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		if a == "-h" || a == "--help" {
			g.help = true
			continue
		}
		name, value, hasValue := strings.Cut(a, "=")
		if !isValueOption(name) {
			rest = append(rest, a)
			continue
		}
		if !hasValue {
			if i+1 >= len(args) {
				return g, nil, usagef("%s needs a value", name)
			}
			i++
			value = args[i]
		}
		g.set(name, value)
	}
	if g.output != "" && g.output != "text" && g.output != "json" {
		return g, nil, usagef("--output must be text or json, not %q", g.output)
	}
	return g, rest, nil
}

func isValueOption(name string) bool { return slices.Contains(valueOptions, name) }

func (g *globals) set(name, value string) {
	switch name {
	case "--target":
		g.target = value
	case "--team":
		g.team = value
	case "--bearer-token":
		g.token = value
	case "--session":
		g.session = value
	case "--continuation-token":
		g.contToken = value
	case "--output":
		g.output = value
	}
}

// json reports whether --output json was asked for.
func (g *globals) json() bool { return g.output == "json" }

const usageText = `agsh - the agent shell: a deployed agent's tools as commands

USAGE
    agsh help                        the agent's commands, grouped by source
    agsh <tool> --help               man-page help for one tool (also: agsh help <tool>)
    agsh <tool> [operands] [flags]   call one tool
    agsh                             a shell: a REPL on a terminal, a script from stdin otherwise
    agsh --help                      this text

GLOBAL OPTIONS (before or after the tool name)
    --target <url|name>              the deployment: a URL (http://127.0.0.1:39400/executor)
                                     or a production deployment name   [AGENT_SHELL_TARGET]
    --team <team>                    team for a production name, by id or name [AGENT_SHELL_TEAM]
    --bearer-token <token>           bearer auth for a direct deployment [AGENT_SHELL_BEARER_TOKEN]
    --session <id>                   bind to this session instead of the latest
    --continuation-token <token>     bind by continuation token
    --output <text|json>             human views (default) or JSON
    -h, --help                       help
    --version                        agsh's version (with --output json: an object); before any command

ENVIRONMENT
    AGENT_SHELL_TARGET, AGENT_SHELL_TEAM, AGENT_SHELL_BEARER_TOKEN (safer than the flag:
    argv is visible to ps), AGENT_SHELL_API_URL (control plane for names), CURSOR_API_KEY,
    CURSOR_API_KEY_FILE, NO_COLOR, CLICOLOR_FORCE, COLUMNS.

EXIT STATUS
    0 success; 1 the tool reported an error (or a grep found nothing); 2 usage;
    3 the deployment refused the call; 4 authentication; 5 unreachable or bad answer;
    130 interrupted.
`
