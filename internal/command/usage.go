package command

import (
	"fmt"
	"strings"

	"github.com/agsh-dev/agsh/generated"
)

const usageHead = `agsh - the agent shell: a deployed agent's tools as commands

USAGE
    agsh help                        the agent's commands, grouped by source
    agsh <tool> --help               man-page help for one tool (also: agsh help <tool>)
    agsh <tool> [operands] [flags]   call one tool
    agsh                             a shell: a REPL on a terminal, a script from stdin otherwise
    agsh --help                      this text
    agsh --version                   agsh's version
    agsh --completion SHELL          the completion script of bash, zsh, fish or pwsh
`

const usageOptions = `
GLOBAL OPTIONS (before or after the tool name)
`

const usageTail = `
ENVIRONMENT
    AGENT_SHELL_TARGET, AGENT_SHELL_TEAM, AGENT_SHELL_BEARER_TOKEN (safer than the flag:
    argv is visible to ps), AGENT_SHELL_API_URL (control plane for names), CURSOR_API_KEY,
    CURSOR_API_KEY_FILE, COLUMNS; color, first match wins: NO_COLOR (off), CLICOLOR_FORCE
    or FORCE_COLOR (on, unless 0), CLICOLOR=0 (off), TERM=dumb (off), else on a terminal;
    PAGER, AGSH_PAGER (long output on a terminal; empty or cat: none; the REPL pages only
    with AGSH_PAGER), COLORFGBG and GLAMOUR_STYLE (light or dark colors); HTTPS_PROXY,
    HTTP_PROXY, NO_PROXY (a proxy, as for every HTTP client; loopback is never proxied; its
    user and password are masked like the token), SSL_CERT_FILE, SSL_CERT_DIR (the
    certificate authorities to trust instead of the system's). agsh sends no telemetry and
    checks for no updates: it talks to the target and, for a name, the control plane only.

EXIT STATUS
    0 success; 1 the tool reported an error (or a grep found nothing, or the operator
    declined agsh's question before a write: nothing was sent, or :status found the
    deployment degraded); 2 usage; 3 the deployment refused the call; 4 authentication;
    5 unreachable or bad answer; 130 interrupted.
`

// Usage is the text of `agsh --help`, its options from the one table.
func Usage() string {
	var b strings.Builder
	b.WriteString(usageHead)
	b.WriteString("\nMETA COMMANDS (also in the shell, where :help lists them; no tool name has ':')\n")
	for _, m := range metas {
		if m.Name == MetaHelp {
			continue
		}
		fmt.Fprintf(&b, "    %-33s%s\n", "agsh "+m.Usage, m.Summary)
		if len(m.Flags) > 0 {
			var fs []string
			for _, f := range m.Flags {
				if f.Placeholder != "" {
					fs = append(fs, "["+f.Name+" "+f.Placeholder+"]")
				} else {
					fs = append(fs, "["+f.Name+"]")
				}
			}
			fmt.Fprintf(&b, "%37s%s\n", "", strings.Join(fs, " "))
		}
	}
	b.WriteString(usageOptions)
	for _, o := range Options() {
		lines := strings.Split(o.Help, "\n")
		fmt.Fprintf(&b, "    %-33s%s\n", Spelling(o), lines[0])
		for _, l := range lines[1:] {
			fmt.Fprintf(&b, "%37s%s\n", "", l)
		}
	}
	b.WriteString(usageTail)
	return b.String()
}

// Spelling is how help writes an option: "-h, --help", "--target <url|name>".
func Spelling(o generated.GlobalOption) string {
	s := o.Name
	if o.Short != "" {
		s = o.Short + ", " + s
	}
	if o.Placeholder != "" {
		s += " " + o.Placeholder
	}
	return s
}
