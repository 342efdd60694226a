package repl

import "strings"

// ring is the in-memory history: entries oldest first, a browsing position
// (len(entries) when not browsing) and the draft line saved when browsing
// began. It is pure state; the file lives in histfile.go.
type ring struct {
	entries []string
	pos     int
	draft   string
	limit   int
}

func newRing(limit int) ring {
	if limit <= 0 {
		limit = defaultHistoryLimit
	}
	return ring{limit: limit}
}

// add appends an accepted entry unless it is blank or repeats the newest
// one, drops the oldest beyond the limit and ends browsing. It reports
// whether the entry was added.
func (h *ring) add(entry string) bool {
	added := false
	if strings.TrimSpace(entry) != "" && (len(h.entries) == 0 || h.entries[len(h.entries)-1] != entry) {
		h.entries = append(h.entries, entry)
		if over := len(h.entries) - h.limit; over > 0 {
			h.entries = append([]string(nil), h.entries[over:]...)
		}
		added = true
	}
	h.reset()
	return added
}

// prepend puts entries loaded from the file before those of this run.
func (h *ring) prepend(loaded []string) {
	all := make([]string, 0, len(loaded)+len(h.entries))
	all = append(all, loaded...)
	for _, e := range h.entries {
		if len(all) == 0 || all[len(all)-1] != e {
			all = append(all, e)
		}
	}
	if over := len(all) - h.limit; over > 0 {
		all = all[over:]
	}
	h.entries = all
	h.reset()
}

// reset ends browsing.
func (h *ring) reset() {
	h.pos = len(h.entries)
	h.draft = ""
}

// browsing reports whether ↑ has moved into the history.
func (h *ring) browsing() bool { return h.pos < len(h.entries) }

// prev moves one entry older (↑). current is the line being edited, saved
// as the draft when browsing begins. It returns the line to show and false
// when there is nothing older.
func (h *ring) prev(current string) (string, bool) {
	if h.pos == 0 {
		return "", false
	}
	if !h.browsing() {
		h.draft = current
	}
	h.pos--
	return h.entries[h.pos], true
}

// next moves one entry newer (↓); past the newest it gives back the draft.
// It returns false when not browsing.
func (h *ring) next() (string, bool) {
	if !h.browsing() {
		return "", false
	}
	h.pos++
	if h.pos == len(h.entries) {
		d := h.draft
		h.draft = ""
		return d, true
	}
	return h.entries[h.pos], true
}

// find returns the index of the newest entry at or before from that
// contains query, or -1. An empty query matches nothing.
func (h *ring) find(query string, from int) int {
	if query == "" {
		return -1
	}
	if from >= len(h.entries) {
		from = len(h.entries) - 1
	}
	for i := from; i >= 0; i-- {
		if strings.Contains(h.entries[i], query) {
			return i
		}
	}
	return -1
}
