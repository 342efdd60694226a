package repl

import "strings"

// search is the state of an incremental history search (Ctrl-R): the query
// typed so far, the index of the entry it matched (-1: none yet), whether
// the last attempt failed, and the line to restore on cancel.
type search struct {
	active   bool
	query    []rune
	match    int
	failing  bool
	original string
	origCur  int
}

// start begins a search from the newest entry, remembering the line.
func (s *search) start(e *editor) {
	*s = search{active: true, match: -1, original: e.text(), origCur: e.cursor}
}

// typed extends the query and searches again from the current match
// (inclusive), so the match only moves to older entries, as in readline.
func (s *search) typed(h *ring, rs []rune) {
	s.query = append(s.query, rs...)
	from := len(h.entries) - 1
	if s.match >= 0 {
		from = s.match
	}
	s.seek(h, from)
}

// backspace shortens the query and searches again from the newest entry.
func (s *search) backspace(h *ring) {
	if len(s.query) == 0 {
		return
	}
	s.query = s.query[:len(s.query)-1]
	s.match = -1
	s.failing = false
	s.seek(h, len(h.entries)-1)
}

// older moves to the next older match (Ctrl-R again).
func (s *search) older(h *ring) {
	if s.match < 0 {
		s.seek(h, len(h.entries)-1)
		return
	}
	s.seek(h, s.match-1)
}

func (s *search) seek(h *ring, from int) {
	if len(s.query) == 0 {
		s.failing = false
		return
	}
	if i := h.find(string(s.query), from); i >= 0 {
		s.match = i
		s.failing = false
		return
	}
	s.failing = true
}

// current is the matched entry, or the original line when nothing matched.
func (s *search) current(h *ring) string {
	if s.match >= 0 && s.match < len(h.entries) {
		return h.entries[s.match]
	}
	return s.original
}

// accept ends the search leaving the match in the editor, the cursor at the
// start of the matched text (or at the end when nothing matched).
func (s *search) accept(h *ring, e *editor) {
	line := s.current(h)
	e.set(line)
	if s.match >= 0 {
		if i := strings.Index(line, string(s.query)); i >= 0 {
			e.cursor = len([]rune(line[:i]))
		}
	}
	h.reset()
	s.active = false
}

// cancel ends the search and restores the line as it was.
func (s *search) cancel(e *editor) {
	e.set(s.original)
	e.cursor = s.origCur
	s.active = false
}
