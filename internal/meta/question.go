package meta

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/render"
)

// Question is what agsh asks on a terminal before a write or a decision
// (docs/console.md#the-write-guard): a headline, the facts of where the
// action lands, one a row, and the [y/N] prompt. Every text from the
// deployment in it is shown escaped on one line (Text), and the call is
// shown whole: nothing a deployment sends can make it lie about what runs.
type Question struct {
	Head   string
	Rows   []QuestionRow
	Prompt string // "Run it?"; " [y/N] " is added
	// Act is what would be done and where, in one line, for the refusal
	// where agsh cannot ask: "approve call call_… (x) of session ses_…,
	// the latest".
	Act string
}

// QuestionRow is one fact: "call", "target", "session".
type QuestionRow struct{ Label, Value string }

// Add appends a row.
func (q *Question) Add(label, value string) { q.Rows = append(q.Rows, QuestionRow{label, value}) }

// Text is the question as written on the terminal, the prompt last
// without a newline.
func (q Question) Text() string {
	var b strings.Builder
	b.WriteString(oneLine(q.Head))
	b.WriteByte('\n')
	for _, r := range q.Rows {
		fmt.Fprintf(&b, "  %-9s%s\n", r.Label, oneLine(r.Value))
	}
	b.WriteString(oneLine(q.Prompt))
	b.WriteString(" [y/N] ")
	return b.String()
}

// oneLine shows s on one line, escaped as every label agsh writes: a line
// break or tab of the deployment's text is written \n, \r, \t, so that no
// text can add a row or a prompt of its own.
func oneLine(s string) string {
	if strings.ContainsAny(s, "\n\r\t") {
		s = strings.NewReplacer("\n", `\n`, "\r", `\r`, "\t", `\t`).Replace(s)
	}
	return render.SafeLabel(s)
}

// maxTitle bounds a session's title in a question.
const maxTitle = 200

// SessionFact is the session row of a question: the id, the title and the
// last activity from GET /v1/sessions, and how the session was chosen
// (how: "the latest", "given", "bound at launch"). A session the listing
// does not show is said so; no session at all is an ephemeral workspace.
func SessionFact(ctx context.Context, c *catalog.Client, id, how string, now time.Time) string {
	if id == "" {
		return "none: the call runs unbound, in an ephemeral workspace"
	}
	facts := []string{id}
	ss, err := c.Sessions(ctx)
	var row *catalog.Session
	for i := range ss {
		if ss[i].SessionID == id || ss[i].ContinuationToken == id {
			row = &ss[i]
			break
		}
	}
	switch {
	case err != nil:
		facts = append(facts, "(its title and last activity are unknown: GET /v1/sessions failed)")
	case row == nil:
		facts = append(facts, "(not listed by GET /v1/sessions)")
	default:
		if row.SessionID != "" && row.SessionID != id {
			facts[0] = row.SessionID
		}
		if t := strings.TrimSpace(row.Title); t != "" {
			if len(t) > maxTitle {
				t = t[:maxTitle] + "…"
			}
			facts = append(facts, fmt.Sprintf("%q", t))
		}
		at := row.UpdatedAt
		if at == "" {
			at = row.CreatedAt
		}
		if at != "" {
			facts = append(facts, "last activity "+at+ago(at, now))
		}
	}
	out := facts[0]
	if len(facts) > 1 {
		out += " " + strings.Join(facts[1:], ", ")
	}
	if how != "" {
		out += "; " + how
	}
	return out
}

// ago is " (3m ago)" for an RFC 3339 time, "" when it is not one.
func ago(at string, now time.Time) string {
	t, err := time.Parse(time.RFC3339Nano, at)
	if err != nil {
		return ""
	}
	d := now.Sub(t)
	switch {
	case d < 0:
		return ""
	case d < time.Minute:
		return fmt.Sprintf(" (%ds ago)", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf(" (%dm ago)", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf(" (%dh ago)", int(d.Hours()))
	}
	return fmt.Sprintf(" (%dd ago)", int(d.Hours()/24))
}
