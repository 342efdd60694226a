package render

import (
	"io"
	"strings"
)

// HelpPage is one tool's help page (docs/rendering.md#help-for-one-tool),
// filled by the caller from the catalog and the mapping.
type HelpPage struct {
	// Name is the command name; Title, when non-empty, follows as "name - title".
	Name, Title string
	// Synopsis is the whole usage line, e.g. "read [options...] <path>".
	Synopsis string
	// Description is markdown, rendered through glamour.
	Description string
	// Operands are the positional arguments (curated commands only).
	Operands []HelpItem
	// Options are the flags in mapping order.
	Options []HelpItem
	// Notes are already-worded lines, e.g. "Effect: read (performs no writes).".
	Notes []string
}

// HelpItem is one operand or option of a help page.
type HelpItem struct {
	// Term is "--offset <integer>", "<path>" or "--tags <string>...".
	Term string
	// Property, when set (a flag renamed by a collision), shows as
	// (property "output") after the term.
	Property string
	// Description is plain text, word-wrapped.
	Description string
	// Shape, for a JSON-valued flag, is the shape one occurrence takes
	// ("{name: string, tags?: [string]}"), shown as "Value: <shape>" after
	// the description.
	Shape string
	// Facts is the facts line (see FactsLine).
	Facts string
}

// AnnotationNotes words the MCP annotations a tool declares, for NOTES
// (docs/rendering.md#help-for-one-tool): destructiveHint, idempotentHint and
// openWorldHint, each only when declared (nil: not declared). readOnlyHint is
// the caller's Effect line.
func AnnotationNotes(destructive, idempotent, openWorld *bool) []string {
	var notes []string
	if destructive != nil {
		if *destructive {
			notes = append(notes, "Destructive: it may delete or overwrite data (destructiveHint).")
		} else {
			notes = append(notes, "Not destructive: it does not delete or overwrite data (destructiveHint: false).")
		}
	}
	if idempotent != nil {
		if *idempotent {
			notes = append(notes, "Idempotent: calling it again with the same input has no further effect (idempotentHint).")
		} else {
			notes = append(notes, "Not idempotent: calling it again may have a further effect (idempotentHint: false).")
		}
	}
	if openWorld != nil {
		if *openWorld {
			notes = append(notes, "Open world: it reaches systems outside the deployment (openWorldHint).")
		} else {
			notes = append(notes, "Closed world: it works only within its own system (openWorldHint: false).")
		}
	}
	return notes
}

// page accumulates the sections of a help page.
type page struct {
	b     strings.Builder
	o     Options
	width int
}

// section writes a section: a blank line before every section but the
// first, the name (bold with color), then the body lines indented four.
func (p *page) section(name string, body []string) {
	p.head(name)
	for _, l := range body {
		if l != "" {
			p.b.WriteString("    ")
			p.b.WriteString(l)
		}
		p.b.WriteByte('\n')
	}
}

// head begins a section: the blank line before it (but the first), then
// its name (bold with color).
func (p *page) head(name string) {
	if p.b.Len() > 0 {
		p.b.WriteByte('\n')
	}
	if p.o.Color {
		name = sgrBold + name + sgrReset
	}
	p.b.WriteString(name)
	p.b.WriteByte('\n')
}

// text wraps plain foreign text (made safe) to the body width.
func (p *page) text(s string, hang int) []string {
	return wrapLine(SafeLabel(s), p.width-4, 0, hang)
}

// markdown renders a description for a section body.
func (p *page) markdown(md string) []string {
	md = Dedent(md)
	lines, err := renderMarkdown(md, p.width-4, p.o.mdStyle())
	if err != nil {
		return wrapText(SafeLabel(md), p.width-4)
	}
	return lines
}

// WriteHelp writes a tool's help page: NAME, SYNOPSIS, DESCRIPTION,
// OPERANDS, OPTIONS and NOTES in that order, each only when it has content
// (NAME and SYNOPSIS always), bodies indented four spaces and wrapped to
// min(width, 100), item descriptions indented eight, a blank line between
// items. All text is made safe for a terminal; with o.Color section names
// are bold and flags cyan.
func WriteHelp(w io.Writer, hp HelpPage, o Options) error {
	p := &page{o: o, width: helpWidth(o)}
	name := hp.Name
	if hp.Title != "" {
		name += " - " + strings.Join(strings.Fields(hp.Title), " ")
	}
	p.section("NAME", p.text(name, 4))
	p.section("SYNOPSIS", p.text(hp.Synopsis, 4))
	if strings.TrimSpace(hp.Description) != "" {
		if body := p.markdown(hp.Description); len(body) > 0 {
			p.section("DESCRIPTION", body)
		}
	}
	if len(hp.Operands) > 0 {
		p.section("OPERANDS", p.items(hp.Operands))
	}
	if len(hp.Options) > 0 {
		p.section("OPTIONS", p.items(hp.Options))
	}
	if len(hp.Notes) > 0 {
		var body []string
		for _, n := range hp.Notes {
			body = append(body, p.text(n, 4)...)
		}
		p.section("NOTES", body)
	}
	_, err := io.WriteString(w, p.b.String())
	return err
}

// items lays out operands or options: the term (flag highlighted with
// color), then description and facts indented four more, a blank line
// between items.
func (p *page) items(items []HelpItem) []string {
	var body []string
	for i, it := range items {
		if i > 0 {
			body = append(body, "")
		}
		term := SafeLabel(it.Term)
		if it.Property != "" {
			term += ` (property "` + SafeLabel(it.Property) + `")`
		}
		lines := unbreak(wrapLine(keepQuoted(term), p.width-4, 0, 4))
		if p.o.Color && len(lines) > 0 && strings.HasPrefix(lines[0], "-") {
			flag, rest, _ := strings.Cut(lines[0], " ")
			if rest != "" {
				rest = " " + rest
			}
			lines[0] = sgrCyan + flag + sgrReset + rest
		}
		body = append(body, lines...)
		shape := ""
		if it.Shape != "" {
			shape = "Value: " + it.Shape
		}
		for i, text := range []string{Dedent(it.Description), shape, it.Facts} {
			text = SafeLabel(text)
			if i == 2 {
				text = keepQuoted(text) // a quoted value stays on one line
			}
			for _, l := range unbreak(wrapText(text, p.width-8)) {
				if l != "" {
					l = "    " + l
				}
				body = append(body, l)
			}
		}
	}
	return body
}

// keepQuoted joins the words of each JSON-quoted span of agsh's own text
// (a placeholder, a facts line: `"h:mm A"`) with no-break spaces, so the
// wrapper never breaks inside it; unbreak turns them back into spaces. A
// span wider than maxQuoted, or one never closed, is left breakable.
func keepQuoted(s string) string {
	if !strings.Contains(s, `"`) {
		return s
	}
	b := []byte(s)
	for i := 0; i < len(b); i++ {
		if b[i] != '"' {
			continue
		}
		end := -1
		for j := i + 1; j < len(b); j++ {
			if b[j] == '\\' {
				j++
				continue
			}
			if b[j] == '"' {
				end = j
				break
			}
		}
		if end < 0 {
			break
		}
		if end-i <= maxQuoted {
			span := strings.ReplaceAll(string(b[i:end]), " ", nbsp)
			b = append(b[:i], append([]byte(span), b[end:]...)...)
			end = i + len(span)
		}
		i = end
	}
	return string(b)
}

// unbreak turns keepQuoted's no-break spaces back into spaces.
func unbreak(lines []string) []string {
	for i, l := range lines {
		lines[i] = strings.ReplaceAll(l, nbsp, " ")
	}
	return lines
}

// nbsp is the no-break space the wrapper does not break at; maxQuoted the
// widest quoted span kept on one line.
const (
	nbsp      = "\u00a0"
	maxQuoted = 60
)
