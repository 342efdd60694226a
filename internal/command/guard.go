package command

import (
	"strconv"
	"strings"

	"github.com/agsh-dev/agsh/catalog"
)

// The write guard (docs/console.md#the-write-guard): before calling a tool
// that declares it writes, agsh asks on a terminal. What it asks about is
// decided here, from the tool's detail alone, for one-shot calls, the line
// shell, the REPL and help alike.

// Guard is the write guard's verdict on a tool.
type Guard struct {
	// Ask: agsh asks before calling the tool (on a terminal, without
	// --yes), and refuses the call where it cannot ask.
	Ask bool
	// Why names the declarations that make it ask, in the detail's words:
	// "needsApproval: true", `effect: "write"`, "destructiveHint: true".
	Why []string
}

// Reason is Why as one phrase: "it declares needsApproval: true and
// effect: \"write\"".
func (g Guard) Reason() string {
	if len(g.Why) == 0 {
		return ""
	}
	return "it declares " + strings.Join(g.Why, " and ")
}

// WriteGuard decides whether agsh asks before calling the tool d describes.
// It fails closed (docs/console.md#the-write-guard): it asks when the detail declares needsApproval as
// anything but false (wire.Approval reads 1 or "true" as true), or an effect
// that is not exactly "read" ("write", an unknown word, a value that is not
// a string), or (an MCP tool) the annotation destructiveHint: true given
// explicitly. A tool that declares none of these is called without a
// question.
func WriteGuard(d *catalog.ToolDetail) Guard {
	var g Guard
	if d == nil {
		return g
	}
	if d.NeedsApproval {
		g.Why = append(g.Why, "needsApproval: true")
	}
	if e := string(d.Effect); e != "" && e != "read" {
		g.Why = append(g.Why, "effect: "+strconv.Quote(e))
	}
	if a := d.Annotations; a != nil && a.DestructiveHint != nil && *a.DestructiveHint {
		g.Why = append(g.Why, "destructiveHint: true")
	}
	g.Ask = len(g.Why) > 0
	return g
}

// guardNote is the write guard's line in a tool's help NOTES: that agsh
// asks and why, or, for a tool that declares no effect at all, that it
// does not ask. A tool that declares another effect (a read) gets none:
// its effect line says it.
func guardNote(d *catalog.ToolDetail) string {
	if g := WriteGuard(d); g.Ask {
		return "agsh asks before calling it when standard input is a terminal (" + g.Reason() +
			"); --yes or AGSH_YES=1 skips the question, and without a terminal (a script, a pipe) agsh calls it only with one of them."
	}
	if strings.TrimSpace(string(d.Effect)) == "" && !readOnlyHint(d) {
		return noEffectNote
	}
	return ""
}

// noEffectNote is the NOTES line of a tool that declares no effect.
const noEffectNote = "Effect not declared; agsh does not ask before calling it."
