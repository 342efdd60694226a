package render

import (
	"io"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// IndexPage is the `agsh help` page: the deployment's name and description,
// its authored commands and its connector groups.
type IndexPage struct {
	// Name is the agent's name; Description is shown only when non-empty.
	Name, Description string
	// Commands are the authored tools (listed under COMMANDS).
	Commands []IndexRow
	// Groups are the connectors, one section each.
	Groups []IndexGroup
}

// IndexRow is one command of the index: its name and its title (may be empty).
type IndexRow struct{ Name, Title string }

// IndexGroup is one connector's commands.
type IndexGroup struct {
	Name string
	Rows []IndexRow
	// Starting: the group is a connection still starting; its heading says
	// so ("SLOW (starting…)") and a line says when its tools come.
	Starting bool
}

// minTitleRoom is the fewest cells the title column may keep before the
// name column is capped further.
const minTitleRoom = 8

// maxNameColumn caps the name column (docs/rendering.md#agsh-help): a longer
// name takes its own line, its title on the next, under the titles.
const maxNameColumn = 32

// indexFooter closes the index page.
const indexFooter = "Run any command with --help for its synopsis and options."

// WriteIndex writes the `agsh help` page: NAME, DESCRIPTION (when
// declared), COMMANDS sorted by name, then one section per group (sorted by
// name, headed by the name in capitals), and the closing line. Each row is
// the name padded to the longest name on the page plus four, the column
// capped at 32 cells, then the title cut to the width (min(width, 100)) with
// "…". A name too long for the column (it would leave less than two spaces)
// takes its own line and its title goes on the next line, at the column.
// When even that column would leave titles fewer than minTitleRoom cells it
// is capped at two thirds of the line.
func WriteIndex(w io.Writer, ip IndexPage, o Options) error {
	p := &page{o: o, width: helpWidth(o)}
	p.section("NAME", p.text(ip.Name, 4))
	if strings.TrimSpace(ip.Description) != "" {
		if body := p.markdown(ip.Description); len(body) > 0 {
			p.section("DESCRIPTION", body)
		}
	}
	sections := [][]IndexRow{ip.Commands}
	for _, g := range ip.Groups {
		sections = append(sections, g.Rows)
	}
	col := titleColumn(p.width, sections...)
	if len(ip.Commands) > 0 {
		p.rowsSection("COMMANDS", ip.Commands, col)
	}
	groups := append([]IndexGroup(nil), ip.Groups...)
	sort.SliceStable(groups, func(i, j int) bool { return groups[i].Name < groups[j].Name })
	for _, g := range groups {
		head := oneLine(SafeLabel(strings.ToUpper(g.Name)))
		if g.Starting {
			head += " (starting…)"
			if len(g.Rows) == 0 {
				p.head(head)
				p.b.WriteString("    its tools appear when it is ready\n")
				continue
			}
		}
		if len(g.Rows) == 0 {
			continue
		}
		p.rowsSection(head, g.Rows, col)
	}
	p.b.WriteByte('\n')
	p.b.WriteString(indexFooter)
	p.b.WriteByte('\n')
	_, err := io.WriteString(w, p.b.String())
	return err
}

// titleColumn is where the titles of the index's rows start: four cells
// past the longest name, at most maxNameColumn.
func titleColumn(width int, sections ...[]IndexRow) int {
	col := 0
	for _, rows := range sections {
		for _, r := range rows {
			col = max(col, textWidth(SafeLabel(r.Name)))
		}
	}
	col = min(col+4, maxNameColumn)
	// The spec's column (the longest name plus four) holds unless it leaves
	// titles almost no room: then one absurdly long name must not push every
	// title off the page, and the column stops at two thirds of the line.
	if width-4-col < minTitleRoom {
		col = min(col, (width-4)*2/3)
	}
	return col
}

// WriteGroup writes `agsh help <group>`: that group's section of the
// index, laid out as WriteIndex lays it out, and the closing line.
func WriteGroup(w io.Writer, g IndexGroup, o Options) error {
	p := &page{o: o, width: helpWidth(o)}
	p.rowsSection(oneLine(SafeLabel(strings.ToUpper(g.Name))), g.Rows, titleColumn(p.width, g.Rows))
	p.b.WriteByte('\n')
	p.b.WriteString(indexFooter)
	p.b.WriteByte('\n')
	_, err := io.WriteString(w, p.b.String())
	return err
}

// rowsSection writes a section of index rows sorted by name (as section
// writes its body lines): the name padded to col cells, then the title cut
// to what is left of the line. The lines go straight into the page, not
// through a line each.
func (p *page) rowsSection(name string, rows []IndexRow, col int) {
	p.head(name)
	byName := func(a, b IndexRow) int { return strings.Compare(a.Name, b.Name) }
	sorted := rows
	if !slices.IsSortedFunc(rows, byName) { // a listing is often sorted already
		sorted = slices.Clone(rows)
		slices.SortStableFunc(sorted, byName)
	}
	avail := p.width - 4
	room := avail - col
	size := 0
	for _, r := range sorted {
		size += len(r.Name) + len(r.Title) + col + 6
	}
	p.b.Grow(size)
	for _, r := range sorted {
		name := cut(SafeLabel(oneLine(r.Name)), avail)
		title := collapseSpace(SafeLabel(r.Title))
		titled := title != "" && room >= 1
		if name != "" || titled {
			p.b.WriteString("    ") // a line's indent (an empty line has none)
		}
		p.b.WriteString(name)
		if !titled {
			p.b.WriteByte('\n')
			continue
		}
		pad := col - textWidth(name)
		if pad < 2 {
			// Too long for the column: the title goes under it.
			p.b.WriteString("\n    ")
			pad = col
		}
		p.blanks(pad)
		p.b.WriteString(cut(title, room))
		p.b.WriteByte('\n')
	}
}

// blanks writes n spaces (none for n <= 0).
func (p *page) blanks(n int) {
	const blanks = "                                                                "
	for n > 0 {
		k := min(n, len(blanks))
		p.b.WriteString(blanks[:k])
		n -= k
	}
}

// collapseSpace is strings.Join(strings.Fields(s), " "), without splitting
// s when it has no run of white space to collapse (the usual title).
func collapseSpace(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || c <= ' ' && (c != ' ' || i == 0 || i == len(s)-1 || s[i+1] == ' ') {
			return strings.Join(strings.Fields(s), " ")
		}
	}
	return s
}
