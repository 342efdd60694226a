package top

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agsh-dev/agsh/internal/termsafe"
	"github.com/agsh-dev/agsh/render"
	"github.com/mattn/go-runewidth"
)

// SGR attributes, used only when Config.Color.
const (
	sgrReverse = "\x1b[7m"
	sgrFaint   = "\x1b[2m"
	sgrBold    = "\x1b[1m"
	sgrReset   = "\x1b[0m"
)

// clean is a deployment's text made safe and kept on one line: controls,
// bidi and zero-width characters escaped, line breaks shown as \n.
func clean(s string) string { return termsafe.Line(s) }

// listHeight is how many rows the screen shows: the header, the column
// heads, the status line and the footer take four lines.
func (m *Model) listHeight() int { return max(1, m.h-4) }

// fit cuts s (safe text) to w cells, with "…", and pads it to w.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if runewidth.StringWidth(s) > w {
		s = runewidth.Truncate(s, w, "…")
	}
	return runewidth.FillRight(s, w)
}

// cut cuts s (safe text) to w cells, with "…", without padding.
func cut(s string, w int) string {
	if runewidth.StringWidth(s) > w {
		return runewidth.Truncate(s, w, "…")
	}
	return s
}

func (m *Model) style(attr, s string) string {
	if !m.cfg.Color || attr == "" {
		return s
	}
	return attr + s + sgrReset
}

// since is a duration as the table shows it: 12s, 5m, 3h, 4d; "-" when
// unknown.
func since(now, t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	d := now.Sub(t)
	switch {
	case d < 0:
		return "0s"
	case d < time.Minute:
		return strconv.Itoa(int(d/time.Second)) + "s"
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + "m"
	case d < 48*time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + "h"
	}
	return strconv.Itoa(int(d/(24*time.Hour))) + "d"
}

// columns are the widths of the flexible columns for the screen's width.
type columns struct{ id, call, title, principal int }

// fixedWidth is the marker, STATE, AGE and IDLE with their spaces.
const fixedWidth = 2 + 8 + 1 + 4 + 1 + 5 + 1

func (m *Model) columns() columns {
	c := columns{id: 20}
	if m.w < 100 {
		c.id = m.idWidth(13)
	}
	if m.principals && m.w >= 120 {
		c.principal = 16
	}
	rest := m.w - fixedWidth - c.id - 1
	if c.principal > 0 {
		rest -= c.principal + 1
	}
	rest = max(rest, 10)
	c.call = rest * 55 / 100
	c.title = rest - c.call - 1
	return c
}

// idWidth is the id column's width on a narrow screen: least (ses_ and 8
// characters, then "…"), widened when two ids on the screen share more
// than the cut shows, so that the cut keeps them apart
// (render.UniquePrefixWidth and the "…"); never wider than the widest of
// them whole, nor than a third of the screen.
func (m *Model) idWidth(least int) int {
	vis := m.visible()
	ids := make([]string, len(vis))
	widest := 0
	for i, id := range vis {
		ids[i] = clean(id)
		widest = max(widest, runewidth.StringWidth(ids[i]))
	}
	need := render.UniquePrefixWidth(ids) + 1 // the "…" takes a cell
	if need <= least {
		return least
	}
	return max(least, min(need, widest, m.w/3))
}

// View draws the screen.
func (m *Model) View() string {
	switch m.mode {
	case modeRecord:
		return m.recordView()
	case modeHelp:
		return m.helpView()
	}
	var lines []string
	lines = append(lines, m.header())
	c := m.columns()
	lines = append(lines, m.style(sgrBold, m.rowLine(c, "", "STATE", "AGE", "IDLE", "SESSION", "CALL", "TITLE", "PRINCIPAL")))
	body := m.listHeight()
	var below []string
	if m.mode == modeAsk {
		below = m.questionLines()
		// The question takes the lower part of the list's room (all of it
		// when it is taller).
		if len(below) > body {
			top := min(m.ask.top, len(below)-body)
			m.ask.top = top
			below = below[top : top+body]
		}
		body -= len(below)
	}
	now := m.cfg.Now()
	for i := 0; i < body; i++ {
		vi := m.top + i
		if vi >= len(m.view) {
			lines = append(lines, "")
			continue
		}
		r := &m.rows[m.view[vi]]
		lines = append(lines, m.row(c, r, vi == m.sel, now))
	}
	lines = append(lines, below...)
	lines = append(lines, m.statusLine(), m.footer())
	return strings.Join(lines, "\n")
}

// rowLine lays one line's cells out in the columns.
func (m *Model) rowLine(c columns, mark, state, age, idle, id, call, title, principal string) string {
	var b strings.Builder
	b.WriteString(fit(mark, 2))
	b.WriteString(fit(state, 8) + " ")
	b.WriteString(fmt.Sprintf("%4s ", cut(age, 4)))
	b.WriteString(fmt.Sprintf("%-5s ", cut(idle, 5)))
	b.WriteString(fit(id, c.id) + " ")
	b.WriteString(fit(call, c.call) + " ")
	if c.principal > 0 {
		b.WriteString(fit(title, c.title) + " ")
		b.WriteString(fit(principal, c.principal))
	} else {
		b.WriteString(fit(title, c.title))
	}
	return cut(b.String(), m.w)
}

// row is one session's line.
func (m *Model) row(c columns, r *Row, selected bool, now time.Time) string {
	mark := " "
	if selected {
		mark = ">"
	}
	idle := since(now, r.Activity)
	if Stalled(r, now, m.cfg.Stale) {
		idle += "!"
	}
	state := clean(r.State)
	switch state {
	case StateApproval, StateFailed, StateQueued:
		state = strings.ToUpper(state)
	}
	line := m.rowLine(c, mark, state, since(now, r.Created), idle, clean(r.ID), clean(r.Call), clean(r.Title), clean(r.Principal))
	switch {
	case !m.down.IsZero():
		return m.style(sgrFaint, line)
	case selected:
		return m.style(sgrReverse, line)
	}
	return line
}

// header is the first line: the target, the counts, the time of the last
// answer, or since when the deployment does not answer.
func (m *Model) header() string {
	var b strings.Builder
	if !m.down.IsZero() {
		b.WriteString("unreachable since " + m.down.In(m.cfg.Location).Format("15:04:05") + " · ")
	}
	if !m.loaded && m.down.IsZero() {
		b.WriteString("reading the sessions… · ")
	}
	cs := m.counts
	b.WriteString(strconv.Itoa(len(m.rows)) + " sessions")
	for _, s := range []string{StateApproval, StateRunning, StateQueued, StateFailed, StateStopped, StateWaiting, StateDone} {
		if n := cs[s]; n > 0 {
			b.WriteString(" · " + strconv.Itoa(n) + " " + s)
		}
	}
	if m.filter != "" {
		b.WriteString(" · " + strconv.Itoa(len(m.view)) + " match /" + clean(m.filter))
	}
	b.WriteString(" · " + clean(m.cfg.Target))
	if !m.at.IsZero() {
		b.WriteString(" · " + m.at.In(m.cfg.Location).Format("15:04:05"))
	}
	if m.why != "" {
		b.WriteString(" · " + m.why)
	}
	return m.style(sgrBold, cut(b.String(), m.w))
}

// statusLine is the line above the footer: the line being typed, or the
// last action's outcome.
func (m *Model) statusLine() string {
	switch m.mode {
	case modeFilter:
		return cut("/"+clean(string(m.input))+"█", m.w)
	case modeSay:
		id := ""
		if r := m.selected(); r != nil {
			id = clean(r.ID)
		}
		return cut("say to "+id+": "+clean(string(m.input))+"█  (Enter sends, Esc abandons)", m.w)
	}
	return cut(m.status, m.w)
}

// footer is the keys.
func (m *Model) footer() string {
	keys := listKeys
	switch m.mode {
	case modeAsk:
		keys = askKeys
	case modeFilter: // typed keys are the line's: q is a letter there
		keys = filterKeys
	case modeSay:
		keys = sayKeys
	}
	return m.style(sgrFaint, cut(fitKeys(keys, m.w), m.w))
}

// The footer's keys; the last two always show (a narrow screen drops the
// ones before them, from the last), so that ? and the way out stay in sight.
var (
	listKeys = []string{"j/k move", "⏎ record", "a/d approve/deny", "s stop", "m say", "/ filter", "? keys", "q quit"}
	askKeys  = []string{"y yes", "n or any other key no", "j/k scroll", "Esc back"}
	// While a line is typed, the footer says how it ends.
	filterKeys = []string{"type to filter", "Enter keeps it", "Esc clears it"}
	sayKeys    = []string{"type the message", "Enter sends it", "Esc abandons it"}
)

// fitKeys joins keys with " · ", leaving out those before the last two,
// from the last of them, until the line fits w cells.
func fitKeys(keys []string, w int) string {
	keys = slices.Clone(keys)
	for {
		s := strings.Join(keys, " · ")
		if runewidth.StringWidth(s) <= w || len(keys) <= 2 {
			return s
		}
		keys = slices.Delete(keys, len(keys)-3, len(keys)-2)
	}
}

// questionLines are an approval's, a denial's or a stop's question: the
// session id and, for a call, its whole arguments, wrapped, never cut.
func (m *Model) questionLines() []string {
	q := m.ask
	id := clean(q.id)
	var text []string
	switch {
	case q.kind == 's':
		text = []string{"Stop the running turn of session " + id + "? [y/N]"}
	case q.loading:
		text = []string{"reading the call that waits in session " + id + "…"}
	default:
		verb := "Approve"
		if q.kind == 'd' {
			verb = "Deny"
		}
		asked := ""
		if !q.parked.At.IsZero() {
			asked = ", asked " + since(m.cfg.Now(), q.parked.At) + " ago"
		}
		text = []string{
			verb + " call " + clean(q.parked.CallID) + " (" + clean(q.parked.Tool) + ") of session " + id + asked + ":",
		}
		text = append(text, wrap("  ", clean(q.parked.Line), m.w)...)
		text = append(text, verb+"? [y/N]")
	}
	out := []string{m.style(sgrFaint, strings.Repeat("─", m.w))}
	for _, t := range text {
		out = append(out, wrap("", t, m.w)...)
	}
	return out
}

// wrap breaks safe text into lines of at most w cells, each after indent:
// nothing is cut. It breaks at a space where it can (the space is dropped),
// so that a flag or an id is not split; a word longer than the line is
// broken where the line ends.
func wrap(indent, s string, w int) []string {
	return wrapHang(indent, indent, s, w)
}

// wrapHang is wrap with the first line after first and the others after
// indent (a hanging indent).
func wrapHang(first, indent, s string, w int) []string {
	// Leading spaces are the first line's (a line wrapped again keeps its
	// indentation).
	trimmed := strings.TrimLeft(s, " ")
	first += s[:len(s)-len(trimmed)]
	s = trimmed
	var out []string
	lead := first
	room := func() int { return max(w-runewidth.StringWidth(lead), 8) }
	var line strings.Builder
	n := 0
	flush := func() {
		out = append(out, lead+line.String())
		lead = indent
		line.Reset()
		n = 0
	}
	for i, word := range strings.Split(s, " ") {
		ww := runewidth.StringWidth(word)
		if i > 0 {
			if n > 0 && n+1+ww > room() {
				flush()
			} else if n > 0 {
				line.WriteByte(' ')
				n++
			}
		}
		for _, r := range word {
			rw := runewidth.RuneWidth(r)
			if n+rw > room() && n > 0 {
				flush()
			}
			line.WriteRune(r)
			n += rw
		}
	}
	if line.Len() > 0 || len(out) == 0 {
		out = append(out, lead+line.String())
	}
	return out
}

// recordView is the open record: its last lines, live.
func (m *Model) recordView() string {
	rec := m.rec
	head := "record of " + clean(rec.id) + ", live (as :tail shows it)"
	body := m.h - 2
	lines := []string{m.style(sgrBold, cut(head, m.w))}
	shown := rec.lines
	if rec.end != "" {
		shown = append(shown[:len(shown):len(shown)], rec.end)
	}
	if len(shown) > body {
		shown = shown[len(shown)-body:]
	}
	for _, l := range shown {
		lines = append(lines, cut(l, m.w))
	}
	for len(lines) < body+1 {
		lines = append(lines, "")
	}
	lines = append(lines, m.style(sgrFaint, cut("Esc back · q quit", m.w)))
	return strings.Join(lines, "\n")
}

// helpKeys are the keys, under ?, each with what it does.
var helpKeys = [][2]string{
	{"j, k, ↑, ↓", "move (PgUp, PgDn, g, G: a page, the ends)"},
	{"Enter", "the session's record as :trace shows it, followed live as :tail does (Esc back)"},
	{"a, d", "approve or deny its parked call: the call's whole arguments and the session id are shown first, then y sends; n or any other key sends nothing"},
	{"s", "stop its running turn (asks y/N)"},
	{"m", "a message to it (:say): Enter sends, Esc abandons"},
	{"/", "filter by text (id, title, tool); Esc clears"},
	{"r", "refresh now"},
	{"q, Ctrl-C", "quit"},
}

// helpNote follows the keys.
const helpNote = "Rows come first when they need you: parked approvals (oldest first), turns failed in the " +
	"last hour, running turns with no event for a while (IDLE ends in !), then the rest by last " +
	"activity. Any key leaves this page."

// helpView is the keys page, wrapped to the width (nothing cut but what
// falls below the screen's last line).
func (m *Model) helpView() string {
	w := max(m.w, 20)
	out := []string{cut("Keys of :top", w)}
	for _, k := range helpKeys {
		out = append(out, wrapHang(fit("  "+k[0], 18), strings.Repeat(" ", 18), k[1], w)...)
	}
	out = append(out, "")
	out = append(out, wrap("", helpNote, w)...)
	if m.h > 0 && len(out) > m.h {
		out = out[:m.h]
	}
	return strings.Join(out, "\n")
}
