package console

import (
	"strconv"
	"strings"
	"time"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/termsafe"
)

// scriptWriter writes an export as an agsh script: one command line a call,
// exactly as :replay writes it, and everything else as # comments, each one
// line made safe for a terminal (docs/console.md#export).
type scriptWriter struct{ x *exporter }

// oneLine is untrusted text for one comment line: escaped (a line break
// shows as \n), cut.
func oneLine(s string) string { return termsafe.Line(clip(s, maxWhat)) }

func (s *scriptWriter) comment(text string) { s.x.str("# " + text + "\n") }

func (s *scriptWriter) head(row *catalog.Session) {
	x := s.x
	s.comment("agsh script: the tool calls of session " + oneLine(x.id) + ", in the order of its record.")
	from := oneLine(x.e.Client.Target())
	if x.o.Agent != "" {
		from += " (" + oneLine(x.o.Agent) + ")"
	}
	by := "agsh"
	if x.o.Version != "" {
		by += " " + oneLine(x.o.Version)
	}
	s.comment("Exported " + x.o.Now.UTC().Format(time.RFC3339) + " from " + from + " by " + by + ".")
	if row != nil && row.Title != "" {
		s.comment("Title: " + oneLine(row.Title))
	}
	s.comment("Run it with agsh < FILE against the same workspace: each line repeats one call, in the")
	s.comment("session the script binds (the latest; agsh --session <id> < FILE picks one).")
	s.comment("Writes are calls like the others: the write guard applies when this runs. Piped into")
	s.comment("agsh, a script with a write is refused at its check unless given --yes (agsh --yes < FILE,")
	s.comment("or AGSH_YES=1).")
	s.comment("Comments: the turns, the model's messages, the results' first lines.")
}

func (s *scriptWriter) item(it *xItem) {
	x := s.x
	switch it.kind {
	case itemCall:
		c := it.call
		switch {
		case c.left != "":
			s.comment("left out: call " + oneLine(c.id) + ": " + c.left)
		case c.agent:
			s.comment("left out: call " + oneLine(c.id) + ": " + c.tool + " runs inside the agent's turn; agsh cannot call it: " + c.line)
		default:
			x.str(c.line + "\n")
		}
		for i := range c.approvals {
			s.comment("  " + approvalText(&c.approvals[i], termsafe.Line, termsafe.Line))
		}
		if c.result == nil {
			s.comment("  ⇒ (no result in the record)")
		} else {
			s.comment("  ⇒ " + resultLine(c.result))
		}
	case itemResult:
		s.comment("⇒ call " + oneLine(it.callID) + " (" + oneLine(it.tool) + "): " + resultLine(it))
	case itemApproval:
		s.comment("call " + oneLine(it.callID) + ": " + approvalText(it, termsafe.Line, termsafe.Line))
	case itemTurnStart:
		x.str("\n")
		line := "turn " + oneLine(it.turnID) + " (" + oneLine(it.word) + ") started " + oneLine(it.at)
		if it.traceID != "" {
			line += ", trace " + it.traceID
		}
		s.comment(line)
		s.lines("  > ", it.text)
	case itemTurnQueued:
		s.comment("turn " + oneLine(it.turnID) + " queued (position " + oneLine(it.word) + ")")
	case itemTurnEnd:
		line := "turn " + it.word
		if it.reason != "" {
			line += " (" + oneLine(it.reason) + ")"
		}
		if m := firstLine(it.text); m != "" {
			line += ": " + oneLine(m)
		}
		s.comment(line)
	case itemMessage:
		s.lines("model: ", it.text)
	case itemWaiting:
		s.comment("the session waits for a follow-up message")
	case itemDropped:
		s.comment("the deployment dropped " + droppedText(it) + "; the calls before event " +
			strconv.FormatInt(it.index+1, 10) + " are not in this script")
	case itemOther:
		s.comment("event " + oneLine(it.word) + " " + oneLine(it.text))
	}
}

// lines writes text as comment lines, the first after prefix, the rest
// under it, at most maxCommentLines.
func (s *scriptWriter) lines(prefix, text string) {
	text = strings.TrimRight(text, " \t\r\n")
	if text == "" {
		return
	}
	pad := strings.Repeat(" ", len([]rune(prefix)))
	n := 0
	for line := range strings.Lines(text) {
		if n == maxCommentLines {
			s.comment(pad + "… (" + strconv.Itoa(strings.Count(text, "\n")+1-n) + " more lines)")
			return
		}
		p := pad
		if n == 0 {
			p = prefix
		}
		s.comment(strings.TrimRight(p+oneLine(strings.TrimRight(line, "\r\n")), " "))
		n++
	}
}

func (s *scriptWriter) cut(err error) {
	s.comment("the record could not be read to its end (" + oneLine(err.Error()) + "): this script is incomplete")
}

func (s *scriptWriter) end() {
	x := s.x
	line := "end of the record: " + counted(x.events, "event") + ", " + counted(x.calls, "call")
	if x.leftOut > 0 {
		line += ", " + strconv.Itoa(x.leftOut) + " of them left out"
	}
	x.str("\n")
	s.comment(line)
}

// counted is n nouns: "1 call", "2 calls".
func counted(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// resultLine is a result's outcome, duration and first line, for one line.
func resultLine(r *xItem) string {
	s := strings.TrimPrefix(r.word, "call ")
	if r.took != "" {
		s += " " + r.took
	}
	if t := firstLine(r.text); t != "" {
		s += ": " + oneLine(t)
	}
	if r.reason != "" {
		s += " (" + r.reason + ")"
	}
	return s
}

// approvalText is an approval event for people: asked, or the decision,
// who made it and why; esc makes the record's text safe, code its times.
func approvalText(a *xItem, esc, code func(string) string) string {
	if a.word == "asked" {
		return "approval asked " + code(clip(a.at, 40))
	}
	s := a.word
	switch a.word {
	case "approve":
		s = "approved"
	case "deny":
		s = "denied"
	}
	s = esc(clip(s, 40))
	if a.by != "" {
		s += " by " + esc(clip(a.by, 200))
	} else {
		s += " (the record does not say by whom)"
	}
	if a.at != "" {
		s += " " + code(clip(a.at, 40))
	}
	if r := firstLine(a.reason); r != "" {
		s += ": " + esc(r)
	}
	return s
}

// droppedText says how many events a record.truncated stands for.
func droppedText(it *xItem) string {
	if it.word != "" {
		return oneLine(it.word) + " older events"
	}
	if n := firstLine(it.text); n != "" {
		return "older events (" + oneLine(n) + ")"
	}
	return "older events"
}
