package render

import (
	"io"
	"sort"
	"strings"
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
}

// minTitleRoom is the fewest cells the title column may keep before the
// name column is capped further.
const minTitleRoom = 8

// maxNameColumn caps the name column (render.md, "agsh help" [wave 2]): a
// longer name takes its own line, its title on the next, under the titles.
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
	col := 0
	for _, r := range ip.Commands {
		col = max(col, textWidth(SafeLabel(r.Name)))
	}
	for _, g := range ip.Groups {
		for _, r := range g.Rows {
			col = max(col, textWidth(SafeLabel(r.Name)))
		}
	}
	col = min(col+4, maxNameColumn)
	// The spec's column (the longest name plus four) holds unless it leaves
	// titles almost no room: then one absurdly long name must not push every
	// title off the page, and the column stops at two thirds of the line.
	if p.width-4-col < minTitleRoom {
		col = min(col, (p.width-4)*2/3)
	}
	if len(ip.Commands) > 0 {
		p.section("COMMANDS", p.rows(ip.Commands, col))
	}
	groups := append([]IndexGroup(nil), ip.Groups...)
	sort.SliceStable(groups, func(i, j int) bool { return groups[i].Name < groups[j].Name })
	for _, g := range groups {
		if len(g.Rows) == 0 {
			continue
		}
		p.section(oneLine(SafeLabel(strings.ToUpper(g.Name))), p.rows(g.Rows, col))
	}
	p.b.WriteByte('\n')
	p.b.WriteString(indexFooter)
	p.b.WriteByte('\n')
	_, err := io.WriteString(w, p.b.String())
	return err
}

// rows lays out index rows sorted by name: the name padded to col cells,
// then the title cut to what is left of the line.
func (p *page) rows(rows []IndexRow, col int) []string {
	sorted := append([]IndexRow(nil), rows...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	avail := p.width - 4
	lines := make([]string, 0, len(sorted))
	for _, r := range sorted {
		name := cut(SafeLabel(oneLine(r.Name)), avail)
		title := strings.Join(strings.Fields(SafeLabel(r.Title)), " ")
		room := avail - col
		if title == "" || room < 1 {
			lines = append(lines, name)
			continue
		}
		if textWidth(name)+2 > col {
			// Too long for the column: the title goes under it.
			lines = append(lines, name, spaces(col)+cut(title, room))
			continue
		}
		lines = append(lines, name+spaces(col-textWidth(name))+cut(title, room))
	}
	return lines
}
