package repl

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"
)

// maxListed is how many candidates the list shows below the prompt.
const maxListed = 12

// completion is the Tab state: the number of the latest request (answers to
// older ones are stale), the line and cursor it was asked for, and the list
// shown below the prompt.
type completion struct {
	seq      int
	line     string
	cursor   int
	list     []Candidate
	page     int    // the page of list shown (a Tab on a list of pages turns it)
	note     string // shown instead of a list: an error
	answered int    // the newest request whose answer came back
}

type completionMsg struct {
	seq    int
	line   string
	cursor int
	res    Completion
	err    error
}

// source is everything typed so far: the earlier lines of an incomplete
// input and the current line, joined with "\n". offset is where the current
// line starts in it.
func (m *model) source() (src string, offset int) {
	if len(m.pending) == 0 {
		return m.ed.text(), 0
	}
	prefix := strings.Join(m.pending, "\n") + "\n"
	return prefix + m.ed.text(), len(prefix)
}

// complete asks the Completer in a command, with a timeout.
func (m *model) complete() tea.Cmd {
	if m.cfg.Completer == nil {
		return nil
	}
	src, off := m.source()
	m.comp.seq++
	m.comp.line, m.comp.cursor = src, off+m.ed.byteCursor()
	req := completionMsg{seq: m.comp.seq, line: src, cursor: m.comp.cursor}
	c, timeout, base := m.cfg.Completer, m.cfg.completeTimeout(), m.ctx
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(base, timeout)
		defer cancel()
		res, err := safeComplete(ctx, c, req.line, req.cursor)
		if err == nil && ctx.Err() != nil {
			err = ctx.Err()
		}
		req.res, req.err = res, err
		return req
	}
}

// safeComplete calls the Completer, turning a panic into an error.
func safeComplete(ctx context.Context, c Completer, line string, cursor int) (res Completion, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errPanicked{r}
		}
	}()
	return c.Complete(ctx, line, cursor)
}

type errPanicked struct{ v any }

func (e errPanicked) Error() string { return fmt.Sprintf("internal error: %v", e.v) }

// completed applies an answer unless it is stale: a newer Tab was pressed,
// the line changed, or a line is running.
func (m *model) completed(msg completionMsg) tea.Cmd {
	m.comp.answered = max(m.comp.answered, msg.seq)
	src, off := m.source()
	if msg.seq != m.comp.seq || msg.line != src || msg.cursor != off+m.ed.byteCursor() || m.run.active || m.srch.active {
		return nil
	}
	m.comp.list, m.comp.note = nil, ""
	if msg.err != nil {
		if errors.Is(msg.err, context.DeadlineExceeded) {
			m.comp.note = "completion timed out"
		} else {
			m.comp.note = "completion failed: " + msg.err.Error()
		}
		return nil
	}
	res := msg.res
	if !validSpan(src, res.Start, res.End) || res.Start < off || len(res.Candidates) == 0 {
		return nil
	}
	word := src[res.Start:res.End]
	if len(res.Candidates) == 1 {
		text := res.Candidates[0].Text
		if !strings.HasSuffix(text, "/") && !strings.HasSuffix(text, "=") && !strings.HasPrefix(src[res.End:], " ") {
			text += " "
		}
		m.replace(src, off, res.Start, res.End, text)
		return nil
	}
	if p := commonPrefix(res.Candidates); len(p) > len(word) && strings.HasPrefix(p, word) {
		m.replace(src, off, res.Start, res.End, p)
		return nil
	}
	m.comp.list, m.comp.page = res.Candidates, 0
	return nil
}

// nextPage turns the list to its next page, when it has more than one
// (Tab again, instead of asking anew); false otherwise.
func (m *model) nextPage() bool {
	if m.comp.note != "" {
		return false
	}
	if n := len(m.completionPages()); n > 1 {
		m.comp.page = (m.comp.page + 1) % n
		return true
	}
	return false
}

// replace puts text in place of src[start:end] (inside the current line)
// and the cursor after it.
func (m *model) replace(src string, off, start, end int, text string) {
	line := src[off:]
	s, e := start-off, end-off
	m.ed.set(line[:s] + text + line[e:])
	m.ed.cursor = utf8.RuneCountInString(line[:s] + text)
}

// validSpan reports whether [start:end] is a slice of s on rune boundaries.
func validSpan(s string, start, end int) bool {
	if start < 0 || end < start || end > len(s) {
		return false
	}
	return (start == len(s) || utf8.RuneStart(s[start])) && (end == len(s) || utf8.RuneStart(s[end]))
}

// commonPrefix is the longest prefix, in whole runes, shared by every
// candidate's Text.
func commonPrefix(cs []Candidate) string {
	p := []rune(cs[0].Text)
	for _, c := range cs[1:] {
		r := []rune(c.Text)
		n := 0
		for n < len(p) && n < len(r) && p[n] == r[n] {
			n++
		}
		p = p[:n]
	}
	return string(p)
}

// clearCompletion forgets the list and makes answers in flight stale.
func (m *model) clearCompletion() {
	m.comp.list, m.comp.note, m.comp.page = nil, "", 0
	m.comp.seq++
}
