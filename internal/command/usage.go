package command

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agsh-dev/agsh/generated"
	"github.com/agsh-dev/agsh/internal/exitcode"
	"github.com/agsh-dev/agsh/internal/meta"
)

// agsh --help and the manual page (agsh --man, agsh.1) are two views of the
// same tables: the invocations and environment variables below, the
// options (Options), the meta commands (meta.MetaCommands) and the exit statuses
// (exitcode.Statuses). A row added to one shows in both (docs/cli.md#the-manual-page).

// Invocation is one line of the usage synopsis.
type Invocation struct{ Line, Summary string }

// invocations are the USAGE lines of agsh --help, the SYNOPSIS of agsh.1.
var invocations = []Invocation{
	{"agsh help", "the agent's commands, grouped by source"},
	{"agsh <tool> --help", "man-page help for one tool (also: agsh help <tool>)"},
	{"agsh <tool> [operands] [flags]", "call one tool"},
	{"agsh", "a shell: a REPL on a terminal, a script from stdin otherwise"},
	{"agsh --help", "the usage text"},
	{"agsh --version", "agsh's version"},
	{"agsh --man", "the manual page, in roff (agsh --man | man -l -)"},
	{"agsh --completion SHELL", "the completion script of bash, zsh, fish or pwsh"},
}

// EnvVar is one row of the environment agsh reads: the variables of one
// meaning, and that meaning (lines after the first continue it).
type EnvVar struct {
	Names []string
	Help  string
}

// environment is the ENVIRONMENT section of agsh --help and agsh.1; every
// option's Env is among its names (TestEnvironmentNamesOptionVariables).
var environment = []EnvVar{
	{[]string{"AGENT_SHELL_TARGET"}, "--target's default"},
	{[]string{"AGENT_SHELL_TEAM"}, "--team's default"},
	{[]string{"AGENT_SHELL_BEARER_TOKEN"}, "--bearer-token's default (safer than the flag: argv is visible to ps)"},
	{[]string{"AGENT_SHELL_API_URL"}, "the control plane of production names"},
	{[]string{"CURSOR_API_KEY", "CURSOR_API_KEY_FILE"}, "the production credential, or the file that holds it"},
	{[]string{"AGENT_SERVE_CONFIG_DIR", "XDG_CONFIG_HOME"}, "where else the production credential is looked for"},
	{[]string{"NO_COLOR", "CLICOLOR_FORCE", "FORCE_COLOR", "CLICOLOR", "TERM"}, "color, the first that applies: NO_COLOR (off), CLICOLOR_FORCE or\nFORCE_COLOR (on, unless 0), CLICOLOR=0 (off), TERM=dumb (off),\nelse on a terminal"},
	{[]string{"COLUMNS"}, "the width of tables and help when the stream is not a terminal"},
	{[]string{"COLORFGBG", "GLAMOUR_STYLE"}, "light or dark colors"},
	{[]string{"PAGER", "AGSH_PAGER"}, "long output on a terminal (empty or cat: none; the REPL pages\nonly with AGSH_PAGER)"},
	{[]string{"AGSH_MAX_ANSWER_BYTES"}, "the largest answer agsh reads (bytes, or 256MiB, 1G)"},
	{[]string{"AGSH_DEBUG"}, "api: every request and answer on standard error, credentials masked"},
	{[]string{"AGSH_YES"}, "--yes for every command (1; empty, 0, false, no or off: unset), for a\nwhole environment such as CI"},
	{[]string{"XDG_STATE_HOME"}, "where the REPL keeps its history"},
	{[]string{"XDG_CACHE_HOME"}, "where completion keeps the agent's commands"},
	{[]string{"HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY"}, "a proxy, as for every HTTP client (loopback is never proxied);\nits user and password are masked like the token"},
	{[]string{"SSL_CERT_FILE", "SSL_CERT_DIR"}, "the certificate authorities to trust instead of the system's"},
	{[]string{"GODEBUG"}, "http2debug in it: agsh speaks HTTP/1.1 only"},
	{[]string{"GOMEMLIMIT"}, "the soft memory limit (unset: four times the answer bound)"},
}

// Environment is the table of the environment variables agsh reads (read
// only).
func Environment() []EnvVar { return environment }

// privacy is the PRIVACY section of agsh --help and agsh.1.
const privacy = "agsh sends no telemetry and checks for no updates: it talks to the\ntarget and, for a name, the control plane only."

const (
	usageTitle = "agsh - the agent shell: a deployed agent's tools as commands"
	usageMetas = "META COMMANDS (also in the shell, where :help lists them; no tool name has ':')"
	usageOpts  = "GLOBAL OPTIONS (before or after the tool name)"
)

// helpColumn is where the second column of agsh --help starts;
// statusColumn, the EXIT STATUS section's.
const (
	helpColumn   = 37
	statusColumn = 9
)

// Usage is the text of `agsh --help`, made from the tables.
func Usage() string {
	var b strings.Builder
	b.WriteString(usageTitle + "\n\nUSAGE\n")
	for _, in := range invocations {
		helpItem(&b, in.Line, in.Summary)
	}
	b.WriteString("\n" + usageMetas + "\n")
	for _, m := range usageMetaRows() {
		helpItem(&b, "agsh "+m.Usage, m.Summary)
		if len(m.Flags) > 0 {
			var fs []string
			for _, f := range m.Flags {
				fs = append(fs, f.Synopsis())
			}
			helpItem(&b, "", strings.Join(fs, " "))
		}
	}
	b.WriteString("\n" + usageOpts + "\n")
	for _, o := range Options() {
		helpItem(&b, Spelling(o), o.Help)
	}
	b.WriteString("\nENVIRONMENT\n")
	for _, e := range environment {
		helpItem(&b, strings.Join(e.Names, ", "), e.Help)
	}
	b.WriteString("\nEXIT STATUS\n")
	for _, s := range exitcode.Statuses {
		helpItemAt(&b, statusColumn, fmt.Sprint(s.Code), s.Meaning)
	}
	b.WriteString("\nPRIVACY\n")
	for _, l := range strings.Split(privacy, "\n") {
		b.WriteString("    " + l + "\n")
	}
	return b.String()
}

// helpItem writes one row of a help section: the term indented by four,
// its text from helpColumn on (on the next line when the term reaches it),
// the text's further lines under it.
func helpItem(b *strings.Builder, term, text string) { helpItemAt(b, helpColumn, term, text) }

// helpWidth is the width agsh --help keeps to: a text line longer than its
// column allows is wrapped at spaces.
const helpWidth = 80

// helpItemAt is helpItem with the text from column col.
func helpItemAt(b *strings.Builder, col int, term, text string) {
	// The tables' own line breaks only mark where the text was cut for
	// another width: the text is one paragraph, filled to helpWidth.
	lines := wrapWords(strings.ReplaceAll(text, "\n", " "), helpWidth-col)
	if len(lines) == 0 {
		lines = []string{""}
	}
	pad := strings.Repeat(" ", col)
	switch {
	case term == "":
		b.WriteString(pad)
	case 4+utf8.RuneCountInString(term) >= col-1: // two spaces at least before the text
		b.WriteString("    " + term + "\n" + pad)
	default:
		fmt.Fprintf(b, "    %-*s", col-4, term)
	}
	b.WriteString(lines[0] + "\n")
	for _, l := range lines[1:] {
		b.WriteString(pad + l + "\n")
	}
}

// wrapWords fills line's words (helpWords) into lines of at most width
// characters (a longer word stands alone), one space between words.
func wrapWords(line string, width int) []string {
	var out []string
	cur := ""
	for _, w := range helpWords(line) {
		switch {
		case cur == "":
			cur = w
		case utf8.RuneCountInString(cur)+1+utf8.RuneCountInString(w) <= width:
			cur += " " + w
		default:
			out = append(out, cur)
			cur = w
		}
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}

// helpWords are line's words, a bracketed group ("[--last <n>]") one word.
func helpWords(line string) []string {
	var words []string
	depth, start := 0, -1
	for i, r := range line {
		switch {
		case r == ' ' && depth == 0:
			if start >= 0 {
				words = append(words, line[start:i])
				start = -1
			}
			continue
		case r == '[':
			depth++
		case r == ']' && depth > 0:
			depth--
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		words = append(words, line[start:])
	}
	return words
}

// usageMetaRows are the meta commands agsh --help and the manual page list:
// all but :help, which is the shell's list of them.
func usageMetaRows() []meta.MetaCommand {
	var out []meta.MetaCommand
	for _, m := range meta.MetaCommands() {
		if m.Name != meta.MetaHelp {
			out = append(out, m)
		}
	}
	return out
}

// metaFlagSpelling is a meta command flag as help writes it: "--last <n>".
func metaFlagSpelling(f meta.MetaFlag) string {
	if f.Placeholder != "" {
		return f.Name + " " + f.Placeholder
	}
	return f.Name
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
