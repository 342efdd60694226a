package command

import (
	"fmt"
	"strings"

	"github.com/agsh-dev/agsh/generated"
	"github.com/agsh-dev/agsh/internal/exitcode"
)

// ManPage is agsh.1, the manual page `agsh --man` prints and the release
// archives install (docs/cli.md#the-manual-page): the sections of agsh
// --help, from the same tables, in roff for man(7). It carries no date or
// version, so that the checked-in agsh.1 is the same for every build.
func ManPage() string {
	var m roffWriter
	m.raw(`.\" agsh.1: generated from agsh's tables by agsh --man (make man); do not edit.`)
	m.raw(`.TH AGSH 1 "" "agsh" "User Commands"`)
	m.raw(".nh")
	m.raw(".ad l")
	m.raw(".SH NAME")
	name, summary, _ := strings.Cut(usageTitle, " - ")
	m.text(name + ` \- ` + roffEscape(summary))
	m.raw(".SH SYNOPSIS")
	for _, in := range invocations {
		m.item(boldLead(in.Line, "agsh"), in.Summary)
	}
	m.raw(".SH DESCRIPTION")
	m.paragraphs(manDescription)
	m.raw(".SH META COMMANDS")
	m.paragraphs(manMetaIntro)
	for _, mc := range usageMetaRows() {
		m.item(boldLead("agsh "+mc.Usage, "agsh "+mc.Name), mc.Summary)
		if len(mc.Flags) == 0 {
			continue
		}
		m.raw(".RS")
		for _, f := range mc.Flags {
			m.item(optionTag(f.Name, "", f.Placeholder), f.Help)
		}
		m.raw(".RE")
	}
	m.raw(".SH OPTIONS")
	m.paragraphs(manOptionsIntro)
	for _, o := range Options() {
		m.item(optionTag(o.Name, o.Short, o.Placeholder), optionBody(o))
		if o.Env != "" {
			m.raw(".br")
			m.text(`Its variable: \fB` + roffEscape(o.Env) + `\fR (the flag beats it).`)
		}
		if o.Scope == generated.Launch {
			m.raw(".br")
			m.text("Set when agsh starts: the shell refuses it on a command line.")
		}
	}
	m.raw(".SH ENVIRONMENT")
	for _, e := range environment {
		var tags []string
		for _, n := range e.Names {
			tags = append(tags, `\fB`+roffEscape(n)+`\fR`)
		}
		m.item(strings.Join(tags, ", "), e.Help)
	}
	m.raw(".SH EXIT STATUS")
	for _, s := range exitcode.Statuses {
		m.item(fmt.Sprintf(`\fB%d\fR`, s.Code), s.Meaning)
	}
	m.raw(".SH PRIVACY")
	m.paragraphs(privacy)
	m.raw(".SH SEE ALSO")
	m.paragraphs(manSeeAlso)
	return m.String()
}

const manDescription = `agsh connects to one deployed agent and turns its live tool catalog into
commands: each tool is a command whose flags come from its input schema, with man-page help
(agsh <tool> --help), views for people or JSON for scripts (--output json), and a shell: a
REPL on a terminal, a script from standard input otherwise.

The deployment is a URL (--target http://127.0.0.1:39400/executor) or the name of a
production deployment, given with --target or AGENT_SHELL_TARGET; a flag always beats its
environment variable, and there is no configuration file. Every invocation binds to the
deployment's latest session unless --session or --continuation-token names another; after a
call, the last line of standard error names the session it ran in.`

const manMetaIntro = `Words that start with ':', which no tool name does, so they never hide a tool.
They run one-shot (agsh :sessions) and in the shell, where :help lists them beside the
shell's own words and filters.`

const manOptionsIntro = `agsh's own options stand before or after the tool name, except those
that replace the command, which stand before it.`

const manSeeAlso = `agsh help lists the agent's commands; agsh <tool> --help is one tool's
page. The README and docs/cli.md of the agsh repository describe the command line in full.`

// optionBody is an option's help for the manual page: without the
// "[VARIABLE]" that agsh --help gives it (the page says it apart).
func optionBody(o generated.GlobalOption) string {
	if o.Env == "" {
		return o.Help
	}
	return strings.ReplaceAll(o.Help, "["+o.Env+"]", "")
}

// optionTag is an option's tag: "\fB\-h\fR, \fB\-\-help\fR", the
// placeholder in italics.
func optionTag(name, short, placeholder string) string {
	tag := `\fB` + roffEscape(name) + `\fR`
	if short != "" {
		tag = `\fB` + roffEscape(short) + `\fR, ` + tag
	}
	if placeholder != "" {
		tag += ` \fI` + roffEscape(placeholder) + `\fR`
	}
	return tag
}

// boldLead is line in roff with its lead (a prefix of it) in bold.
func boldLead(line, lead string) string {
	rest, ok := strings.CutPrefix(line, lead)
	if !ok {
		return roffEscape(line)
	}
	return `\fB` + roffEscape(lead) + `\fR` + roffEscape(rest)
}

// roffWriter builds a manual page line by line.
type roffWriter struct{ b strings.Builder }

func (w *roffWriter) String() string { return w.b.String() }

// raw writes a request line as it is.
func (w *roffWriter) raw(line string) { w.b.WriteString(line + "\n") }

// text writes a text line already in roff: one that would start with a
// control character (a dot, or the apostrophe of a no-break request) is
// guarded with \&.
func (w *roffWriter) text(line string) {
	if strings.HasPrefix(line, ".") || strings.HasPrefix(line, "'") {
		line = `\&` + line
	}
	w.raw(line)
}

// item writes a tagged paragraph: tag in roff, body plain text (its line
// breaks are filled).
func (w *roffWriter) item(tag, body string) {
	w.raw(".TP")
	w.text(tag)
	w.text(roffEscape(strings.Join(strings.Fields(body), " ")))
}

// paragraphs writes plain text, its blank-line-separated paragraphs as
// roff paragraphs.
func (w *roffWriter) paragraphs(text string) {
	for i, p := range strings.Split(text, "\n\n") {
		if i > 0 {
			w.raw(".PP")
		}
		w.text(roffEscape(strings.Join(strings.Fields(p), " ")))
	}
}

// roffEscape makes plain text roff text: a backslash is \e, a hyphen-minus
// \- (so that options copy as typed), every other character beyond ASCII a
// \[uXXXX] escape (groff reads its input as Latin-1 unless told otherwise).
// A leading dot or apostrophe is guarded where the line is written (text).
func roffEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\e`)
		case r == '-':
			b.WriteString(`\-`)
		case r == '\n' || r == '\t':
			b.WriteByte(' ')
		case r < ' ' || r >= 0x7f && r < 0xa0:
			// no control character reaches the page
		case r > 0x7f:
			fmt.Fprintf(&b, `\[u%04X]`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
