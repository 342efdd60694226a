package repl

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/spinner"
	"github.com/charmbracelet/lipgloss"
	"github.com/mattn/go-runewidth"
	"github.com/muesli/termenv"
)

const (
	promptMark       = "❯ "
	continuationMark = "… "
	// cursorOn and cursorOff draw the cursor in reverse video: it is not a
	// color, so it stays under NO_COLOR.
	cursorOn  = "\x1b[7m"
	cursorOff = "\x1b[27m"
)

// styles are the REPL's few styles.
type styles struct {
	dim lipgloss.Style
}

func newStyles(noColor bool) styles {
	r := lipgloss.DefaultRenderer()
	if noColor {
		r = lipgloss.NewRenderer(nil)
		r.SetColorProfile(termenv.Ascii)
	}
	return styles{dim: r.NewStyle().Faint(true)}
}

// promptFor is the prompt of the n-th line of an input: "<agent> ❯ " (the
// name dimmed; "<agent> [2] ❯ " after a command that failed with status 2)
// for the first, "… " for the others.
func (m *model) promptFor(n int) string {
	if n > 0 {
		return continuationMark
	}
	mark := statusMark(m.status) + promptMark
	if m.cfg.AgentName == "" {
		return mark
	}
	return m.st.dim.Render(m.cfg.AgentName) + " " + mark
}

// statusMark shows the last status when it is not zero: "[1] ".
func statusMark(status int) string {
	if status == 0 {
		return ""
	}
	return "[" + strconv.Itoa(status) + "] "
}

// View draws the input lines (or the search), the completion list and the
// spinner.
func (m *model) View() string {
	if m.quitting {
		return ""
	}
	if m.run.active {
		if !m.run.spinning {
			return ""
		}
		frames := spinner.MiniDot.Frames
		label := "running… Ctrl-C cancels"
		if m.run.interrupted {
			label = "cancelling…"
		}
		return frames[m.run.frame%len(frames)] + " " + m.st.dim.Render(label)
	}
	var rows []string
	n := 0
	for _, l := range m.pending {
		for _, part := range strings.Split(l, "\n") {
			rows = append(rows, m.wrap(m.promptFor(n), []rune(part), -1)...)
			n++
		}
	}
	if m.srch.active {
		rows = append(rows, m.searchRows()...)
	} else {
		rows = append(rows, m.editorRows(n)...)
	}
	rows = append(rows, m.completionRows()...)
	return strings.Join(rows, "\n")
}

// editorRows draws the line being edited, which may hold newlines (a
// recalled multi-line entry or a paste); first is the number of the line.
func (m *model) editorRows(first int) []string {
	return m.multiline(func(i int) string { return m.promptFor(first + i) }, m.ed.buf, m.ed.cursor)
}

// searchRows draws the Ctrl-R search as readline does.
func (m *model) searchRows() []string {
	label := "(reverse-i-search)`"
	if m.srch.failing {
		label = "(failed reverse-i-search)`"
	}
	label += string(m.srch.query) + "': "
	line := m.srch.current(&m.hist)
	cur := len([]rune(line))
	if m.srch.match >= 0 {
		if i := strings.Index(line, string(m.srch.query)); i >= 0 {
			cur = len([]rune(line[:i]))
		}
	}
	prompt := func(i int) string {
		if i == 0 {
			return label
		}
		return continuationMark
	}
	return m.multiline(prompt, []rune(line), cur)
}

// multiline draws text line by line, each after prompt(i), with the cursor
// at rune index cur of the whole text.
func (m *model) multiline(prompt func(i int) string, text []rune, cur int) []string {
	var rows []string
	start := 0
	for i := 0; ; i++ {
		end := start
		for end < len(text) && text[end] != '\n' {
			end++
		}
		c := -1
		if cur >= start && cur <= end {
			c = cur - start
		}
		rows = append(rows, m.wrap(prompt(i), text[start:end], c)...)
		if end == len(text) {
			return rows
		}
		start = end + 1
	}
}

// completionRows shows the current page of the candidates: one a row with
// descriptions dimmed when any has one, else in columns (down, then
// across); with more than one page, a last row counts them and says that
// Tab shows the next page (the bash and zsh habit).
func (m *model) completionRows() []string {
	if m.comp.note != "" {
		return []string{m.st.dim.Render(m.fit(m.comp.note))}
	}
	pages := m.completionPages()
	if len(pages) == 0 {
		return nil
	}
	p := m.comp.page % len(pages)
	rows := pages[p]
	if len(pages) > 1 {
		rows = append(rows[:len(rows):len(rows)], m.st.dim.Render(m.fit(fmt.Sprintf(
			"%d candidates (page %d/%d, Tab: more)", len(m.comp.list), p+1, len(pages)))))
	}
	return rows
}

// completionPages lays the whole list out in pages of rows.
func (m *model) completionPages() [][]string {
	list := m.comp.list
	if len(list) == 0 {
		return nil
	}
	described := false
	wide := 0
	for _, c := range list {
		described = described || c.Description != ""
		wide = max(wide, runewidth.StringWidth(m.display(c)))
	}
	if described {
		var pages [][]string
		for start := 0; start < len(list); start += maxListed {
			pages = append(pages, m.describedRows(list[start:min(start+maxListed, len(list))], wide))
		}
		return pages
	}
	width := m.width
	if width <= 0 {
		width = 80
	}
	cols := max(1, (width+2)/(wide+2))
	perPage := cols * maxListed
	var pages [][]string
	for start := 0; start < len(list); start += perPage {
		page := list[start:min(start+perPage, len(list))]
		n := (len(page) + cols - 1) / cols // rows on this page
		rows := make([]string, n)
		for i, c := range page {
			r, col := i%n, i/n
			d := m.display(c)
			if col > 0 {
				rows[r] += strings.Repeat(" ", (wide+2)*col-runewidth.StringWidth(rows[r]))
			}
			rows[r] += d
		}
		for r := range rows {
			rows[r] = m.fit(rows[r])
		}
		pages = append(pages, rows)
	}
	return pages
}

// describedRows is one row a candidate, its description dimmed after the
// column of names (wide cells).
func (m *model) describedRows(list []Candidate, wide int) []string {
	rows := make([]string, 0, len(list))
	for _, c := range list {
		d := m.display(c)
		row := m.fit(d)
		if c.Description != "" {
			pad := strings.Repeat(" ", wide-runewidth.StringWidth(d)+2)
			desc := m.fitAfter(runewidth.StringWidth(d)+len(pad), c.Description)
			if desc != "" {
				row = d + pad + m.st.dim.Render(desc)
			}
		}
		rows = append(rows, row)
	}
	return rows
}

func (m *model) display(c Candidate) string {
	d := c.Display
	if d == "" {
		d = c.Text
	}
	return m.visible(d)
}

// fit cuts s to the terminal width.
func (m *model) fit(s string) string { return m.fitAfter(0, s) }

// fitAfter cuts s to what is left of the width after used cells.
func (m *model) fitAfter(used int, s string) string {
	s = m.visible(s)
	if m.width <= 0 {
		return s
	}
	room := m.width - used
	if room <= 0 {
		return ""
	}
	return runewidth.Truncate(s, room, "…")
}

// visible replaces control characters (a description's newline, a tab) so
// that one entry stays on one row, and shows C1 controls, bidi controls and
// the zero-width space escaped (Config.Escape): candidates are the
// deployment's names, which must not drive the terminal or pose as others.
func (m *model) visible(s string) string {
	return m.cfg.escape(strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s))
}
