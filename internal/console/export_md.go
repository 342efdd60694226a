package console

import (
	"strconv"
	"strings"
	"time"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/termsafe"
)

// mdWriter writes an export as a Markdown report (docs/console.md#export).
// Everything the deployment sent is escaped: text outside code has every
// ASCII punctuation character backslash-escaped (so it starts no emphasis,
// link, heading or HTML), code spans and fenced blocks are delimited by a
// run of backticks longer than any run inside the value (so no value closes
// one), and every value is made safe for a terminal first.
type mdWriter struct {
	x *exporter
	// inTurn: a turn's section is open; n counts the calls of the report.
	inTurn bool
	turn   int
}

func (m *mdWriter) head(row *catalog.Session) {
	x := m.x
	title := ""
	if row != nil {
		title = row.Title
	}
	if title != "" {
		x.str("# " + mdText(title) + "\n\n")
	} else {
		x.str("# Session " + mdCode(x.id) + "\n\n")
	}
	x.str("- **Session:** " + mdCode(x.id) + "\n")
	target := mdCode(x.e.Client.Target())
	if x.o.Agent != "" {
		target += " (" + mdText(x.o.Agent) + ")"
	}
	x.str("- **Target:** " + target + "\n")
	if row != nil {
		state := ListedState(*row)
		if row.Mode != "" {
			state += " (" + row.Mode + ")"
		}
		x.str("- **State:** " + mdCode(state) + "\n")
		if row.CreatedAt != "" {
			x.str("- **Created:** " + mdCode(row.CreatedAt) + "\n")
		}
		if row.UpdatedAt != "" {
			x.str("- **Last activity:** " + mdCode(row.UpdatedAt) + "\n")
		}
	}
	url := x.e.Client.RecordURL(x.id)
	if row != nil && row.TraceURL != "" {
		url = row.TraceURL
	}
	x.str("- **Record:** " + mdCode(url) + "\n")
	by := "agsh"
	if x.o.Version != "" {
		by += " " + x.o.Version
	}
	x.str("- **Exported:** " + mdCode(x.o.Now.UTC().Format(time.RFC3339)) + " by " + mdText(by) + "\n")
}

func (m *mdWriter) item(it *xItem) {
	x := m.x
	switch it.kind {
	case itemCall:
		m.open(it)
		c := it.call
		line := "- "
		switch {
		case c.left != "":
			line += "*no command line* (" + mdText(c.left) + ")"
		default:
			line += mdCode(c.line)
		}
		if c.result != nil {
			line += " — **" + mdText(strings.TrimPrefix(c.result.word, "call ")) + "**"
			if c.result.took != "" {
				line += " in " + mdText(c.result.took)
			}
		} else {
			line += " — *no result in the record*"
		}
		if c.id != "" {
			line += " · " + mdCode(c.id)
		}
		x.str(line + "\n")
		if c.agent {
			x.str("  - " + mdText(c.tool+" runs inside the agent's turn; agsh cannot call it") + "\n")
		}
		for i := range c.approvals {
			x.str("  - " + mdApproval(&c.approvals[i]) + "\n")
		}
		if c.result != nil {
			m.result(c.result, "  ")
		}
	case itemResult:
		m.open(it)
		x.str("- result of " + mdCode(it.callID) + " (" + mdText(it.tool) + "): **" + mdText(strings.TrimPrefix(it.word, "call ")) + "**\n")
		m.result(it, "  ")
	case itemApproval:
		m.open(it)
		x.str("- " + mdCode(it.callID) + ": " + mdApproval(it) + "\n")
	case itemTurnStart:
		m.turn++
		m.inTurn = true
		head := "\n## Turn " + strconv.Itoa(m.turn)
		if it.word != "" {
			head += ": " + mdText(it.word)
		}
		x.str(head + "\n\n")
		line := "Started " + mdCode(it.at)
		if it.turnID != "" {
			line += " · turn " + mdCode(it.turnID)
		}
		if it.traceID != "" {
			line += " · trace " + mdCode(it.traceID)
		}
		x.str(line + "\n")
		if strings.TrimSpace(it.text) != "" {
			x.str("\nMessage:\n\n" + mdFence("", it.text))
		}
		x.str("\n")
	case itemTurnQueued:
		x.str("\nA turn " + mdCode(it.turnID) + " was queued at " + mdCode(it.at) + " (position " + mdText(it.word) + ").\n\n")
	case itemTurnEnd:
		// A paragraph of its own: right under a call's list item it would
		// continue that item's last line (a lazy continuation).
		line := "\n**Turn " + mdText(it.word) + "** at " + mdCode(it.at)
		if it.reason != "" {
			line += " (" + mdText(it.reason) + ")"
		}
		x.str(line + "\n")
		if strings.TrimSpace(it.text) != "" {
			x.str("\n" + mdFence("", it.text))
		}
		x.str("\n")
		m.inTurn = false
	case itemMessage:
		x.str("\n**Model** (" + mdCode(it.at) + "):\n\n" + mdFence("", it.text) + "\n")
	case itemWaiting:
		x.str("\n*The session waits for a follow-up message.*\n\n")
	case itemDropped:
		x.str("\n> **The deployment dropped " + mdText(droppedText(it)) +
			"**: the report starts at event " + strconv.FormatInt(it.index+1, 10) + ".\n\n")
	case itemOther:
		m.open(it)
		x.str("- event " + mdCode(it.word) + ": " + mdCode(it.text) + "\n")
	}
}

// open starts a section for calls outside any turn.
func (m *mdWriter) open(it *xItem) {
	if m.inTurn {
		return
	}
	m.inTurn = true
	m.x.str("\n## Outside a turn\n\n")
}

// result writes a result under its call: an error whole, else its first
// line.
func (m *mdWriter) result(r *xItem, indent string) {
	x := m.x
	if r.isError {
		x.str(indent + "- Error:\n\n" + mdFence(indent+"  ", r.text) + "\n")
		return
	}
	if t := firstLine(r.text); t != "" {
		line := indent + "- ⇒ " + mdCode(t)
		if r.reason != "" {
			line += " (" + mdText(r.reason) + ")"
		}
		x.str(line + "\n")
	}
}

func (m *mdWriter) cut(err error) {
	m.x.str("\n> **The record could not be read to its end** (" + mdText(err.Error()) + "): this report is incomplete.\n")
}

func (m *mdWriter) end() {
	x := m.x
	if x.lastMessage != "" {
		x.str("\n## Final message\n\n" + mdFence("", x.lastMessage))
	}
	x.str("\n## Summary\n\n")
	if x.events == 0 {
		x.str("- The record has no events.\n")
		return
	}
	x.str("- **Events:** " + strconv.Itoa(x.events) + " (indexes " + strconv.FormatInt(x.first, 10) + " to " +
		strconv.FormatInt(x.last, 10) + "), " + mdCode(x.firstAt) + " to " + mdCode(x.lastAt) + "\n")
	line := "- **Turns:** " + strconv.Itoa(x.turns) + "; **calls:** " + strconv.Itoa(x.calls)
	if x.errors > 0 {
		line += ", " + strconv.Itoa(x.errors) + " with an error"
	}
	if x.leftOut > 0 {
		line += ", " + strconv.Itoa(x.leftOut) + " without a command line"
	}
	x.str(line + "\n")
}

// mdApproval is an approval event in the report.
func mdApproval(a *xItem) string {
	return approvalText(a, mdText, mdCode)
}

// mdText is untrusted text for Markdown outside code, on one line: made safe
// for a terminal, line breaks shown as \n, every ASCII punctuation character
// backslash-escaped.
func mdText(s string) string {
	s = termsafe.Line(clip(s, maxWhat))
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x80 && isPunct(c) {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

func isPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

// mdCode is a value as one inline code span: made safe for a terminal and
// kept on one line, between backtick runs longer than any inside it (and a
// space inside each when the value begins or ends with a backtick or a
// space, which CommonMark strips).
func mdCode(s string) string {
	s = termsafe.Line(s)
	ticks := strings.Repeat("`", longestRun(s, '`')+1)
	if s == "" || s[0] == '`' || s[0] == ' ' || s[len(s)-1] == '`' || s[len(s)-1] == ' ' {
		return ticks + " " + s + " " + ticks
	}
	return ticks + s + ticks
}

// mdFence is text as a fenced code block, each line indented: its fence a
// run of backticks longer than any in the text (at least three), so that no
// line of it closes the block; every line made safe for a terminal.
func mdFence(indent, text string) string {
	text = strings.TrimRight(termsafe.String(text), "\n")
	fence := strings.Repeat("`", max(3, longestRun(text, '`')+1))
	var b strings.Builder
	b.Grow(len(text) + 2*len(fence) + 16)
	b.WriteString(indent + fence + "text\n")
	for line := range strings.Lines(text) {
		b.WriteString(indent)
		b.WriteString(strings.TrimSuffix(line, "\n"))
		b.WriteByte('\n')
	}
	b.WriteString(indent + fence + "\n")
	return b.String()
}

// longestRun is the longest run of c in s.
func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}
