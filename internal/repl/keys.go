package repl

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"
)

// key handles one key press.
func (m *model) key(k tea.KeyMsg) tea.Cmd {
	if m.quitting {
		return nil
	}
	if m.run.active {
		if k.Type == tea.KeyCtrlC {
			m.interrupt()
		} else if len(m.typeahead) < maxTypeahead {
			m.typeahead = append(m.typeahead, k)
		}
		return nil
	}
	if m.srch.active {
		return m.searchKey(k)
	}
	if k.Type != tea.KeyTab {
		m.clearCompletion()
	}
	if k.Alt && k.Type != tea.KeyEnter {
		return m.altKey(k)
	}
	switch k.Type {
	case tea.KeyEnter:
		return m.submit()
	case tea.KeyTab:
		if m.nextPage() {
			return nil
		}
		return m.complete()
	case tea.KeyCtrlC:
		return m.cancelLine()
	case tea.KeyCtrlD:
		if len(m.ed.buf) > 0 {
			m.ed.deleteForward()
			return nil
		}
		if len(m.pending) > 0 {
			return m.submitAnyway()
		}
		return tea.Batch(m.out.print(m.promptFor(0)), m.quit())
	case tea.KeyCtrlR:
		m.srch.start(&m.ed)
	case tea.KeyUp, tea.KeyCtrlP:
		if s, ok := m.hist.prev(m.ed.text()); ok {
			m.ed.set(s)
		}
	case tea.KeyDown, tea.KeyCtrlN:
		if s, ok := m.hist.next(); ok {
			m.ed.set(s)
		}
	case tea.KeyCtrlL:
		return tea.ClearScreen
	case tea.KeyCtrlZ:
		return tea.Suspend
	default:
		m.edit(k)
	}
	return nil
}

// edit applies an editing key to the line.
func (m *model) edit(k tea.KeyMsg) {
	e := &m.ed
	switch k.Type {
	case tea.KeyRunes, tea.KeySpace:
		e.insert(cleanRunes(k.Runes))
	case tea.KeyLeft, tea.KeyCtrlB:
		e.left()
	case tea.KeyRight, tea.KeyCtrlF:
		e.right()
	case tea.KeyHome, tea.KeyCtrlA:
		e.home()
	case tea.KeyEnd, tea.KeyCtrlE:
		e.end()
	case tea.KeyCtrlLeft:
		e.wordLeft()
	case tea.KeyCtrlRight:
		e.wordRight()
	case tea.KeyBackspace, tea.KeyCtrlH:
		e.deleteBack()
	case tea.KeyDelete:
		e.deleteForward()
	case tea.KeyCtrlK:
		e.killToEnd()
	case tea.KeyCtrlU:
		e.killToStart()
	case tea.KeyCtrlW:
		e.killWordBack()
	case tea.KeyCtrlY:
		e.yank()
	}
}

// altKey handles Alt (Meta) combinations: word moves and kills.
func (m *model) altKey(k tea.KeyMsg) tea.Cmd {
	e := &m.ed
	switch {
	case k.Type == tea.KeyBackspace || k.Type == tea.KeyCtrlH:
		e.killAlnumWordBack()
	case k.Type == tea.KeyLeft:
		e.wordLeft()
	case k.Type == tea.KeyRight:
		e.wordRight()
	case k.Type == tea.KeyRunes && len(k.Runes) == 1:
		switch k.Runes[0] {
		case 'b', 'B':
			e.wordLeft()
		case 'f', 'F':
			e.wordRight()
		case 'd', 'D':
			e.killWordForward()
		}
	}
	return nil
}

// cleanRunes keeps what may be typed or pasted into a line: a pasted "\r\n"
// or "\r" becomes "\n"; other control characters but tab are dropped.
func cleanRunes(rs []rune) []rune {
	out := make([]rune, 0, len(rs))
	for i, r := range rs {
		switch {
		case r == '\r':
			if i+1 < len(rs) && rs[i+1] == '\n' {
				continue
			}
			out = append(out, '\n')
		case r == '\n' || r == '\t':
			out = append(out, r)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
		default:
			out = append(out, r)
		}
	}
	return out
}

// submit handles Enter: an incomplete input continues on the next line, a
// complete one runs.
func (m *model) submit() tea.Cmd {
	src, _ := m.source()
	if len(m.pending) == 0 && strings.TrimSpace(src) == "" {
		line := m.promptFor(0) + m.ed.text()
		m.ed.clear()
		m.hist.reset()
		return m.out.print(line)
	}
	if incomplete(m.cfg.Runner, src) {
		m.pending = append(m.pending, m.ed.text())
		m.ed.clear()
		m.hist.reset()
		return nil
	}
	return m.submitAnyway()
}

// submitAnyway runs what was typed: it echoes the lines above the prompt,
// records the input in the history and starts the run.
func (m *model) submitAnyway() tea.Cmd {
	src, _ := m.source()
	echo := m.echo("")
	m.pending = nil
	m.ed.clear()
	entry := ""
	if !containsSecret(src, m.cfg.Secrets) && m.hist.add(src) {
		entry = src
	}
	m.hist.reset()
	return tea.Batch(m.out.print(echo), m.startRun(src, entry))
}

// cancelLine handles Ctrl-C on a line: it is echoed with ^C and cleared.
func (m *model) cancelLine() tea.Cmd {
	echo := m.echo("^C")
	m.pending = nil
	m.ed.clear()
	m.hist.reset()
	return m.out.print(echo)
}

// echo is what stays above the prompt for the lines typed: each with its
// prompt, credentials masked, drawn as the editor drew it (control
// characters as ^X, bidi controls escaped), suffix after the last.
func (m *model) echo(suffix string) string {
	lines := append(append([]string(nil), m.pending...), m.ed.text())
	var b strings.Builder
	n := 0
	for _, l := range lines {
		for _, part := range strings.Split(l, "\n") {
			if n > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(m.promptFor(n))
			b.WriteString(m.drawn(maskSecrets(part, m.cfg.Secrets)))
			n++
		}
	}
	b.WriteString(suffix)
	return b.String()
}

// searchKey handles a key during Ctrl-R search.
func (m *model) searchKey(k tea.KeyMsg) tea.Cmd {
	s := &m.srch
	switch k.Type {
	case tea.KeyCtrlR:
		s.older(&m.hist)
	case tea.KeyRunes, tea.KeySpace:
		if k.Alt {
			s.accept(&m.hist, &m.ed)
			return m.key(k)
		}
		s.typed(&m.hist, cleanRunes(k.Runes))
	case tea.KeyBackspace, tea.KeyCtrlH:
		s.backspace(&m.hist)
	case tea.KeyEsc, tea.KeyCtrlG, tea.KeyCtrlC:
		s.cancel(&m.ed)
	case tea.KeyEnter:
		s.accept(&m.hist, &m.ed)
	default:
		// Any other key accepts the match and then acts, as in readline.
		s.accept(&m.hist, &m.ed)
		return m.key(k)
	}
	return nil
}

// incomplete asks the Runner whether src needs more input; a Runner that
// panics is taken to say no, so that running src reports the problem.
func incomplete(r Runner, src string) (more bool) {
	defer func() {
		if recover() != nil {
			more = false
		}
	}()
	return r.Incomplete(src)
}
