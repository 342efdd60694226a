package repl

import "unicode"

// editor is the line editor's state: a buffer of runes, a cursor (an index
// into the buffer, 0..len) and the last killed text for Ctrl-Y. Every method
// is a pure state change.
type editor struct {
	buf    []rune
	cursor int
	killed []rune
}

// text returns the buffer as a string.
func (e *editor) text() string { return string(e.buf) }

// set replaces the buffer and puts the cursor at its end.
func (e *editor) set(s string) {
	e.buf = []rune(s)
	e.cursor = len(e.buf)
}

// clear empties the buffer (the kill buffer is kept).
func (e *editor) clear() {
	e.buf = nil
	e.cursor = 0
}

// insert puts rs at the cursor and moves the cursor after them.
func (e *editor) insert(rs []rune) {
	if len(rs) == 0 {
		return
	}
	nb := make([]rune, 0, len(e.buf)+len(rs))
	nb = append(nb, e.buf[:e.cursor]...)
	nb = append(nb, rs...)
	nb = append(nb, e.buf[e.cursor:]...)
	e.buf = nb
	e.cursor += len(rs)
}

// deleteBack removes the rune before the cursor (Backspace).
func (e *editor) deleteBack() {
	if e.cursor == 0 {
		return
	}
	e.buf = append(e.buf[:e.cursor-1], e.buf[e.cursor:]...)
	e.cursor--
}

// deleteForward removes the rune under the cursor (Delete, Ctrl-D).
func (e *editor) deleteForward() {
	if e.cursor >= len(e.buf) {
		return
	}
	e.buf = append(e.buf[:e.cursor], e.buf[e.cursor+1:]...)
}

func (e *editor) left() {
	if e.cursor > 0 {
		e.cursor--
	}
}

func (e *editor) right() {
	if e.cursor < len(e.buf) {
		e.cursor++
	}
}

func (e *editor) home() { e.cursor = 0 }

func (e *editor) end() { e.cursor = len(e.buf) }

// killToEnd removes from the cursor to the end (Ctrl-K).
func (e *editor) killToEnd() {
	e.kill(e.cursor, len(e.buf))
}

// killToStart removes from the start to the cursor (Ctrl-U).
func (e *editor) killToStart() {
	e.kill(0, e.cursor)
}

// killWordBack removes the blank-separated word before the cursor, as
// readline's Ctrl-W does.
func (e *editor) killWordBack() {
	i := e.cursor
	for i > 0 && unicode.IsSpace(e.buf[i-1]) {
		i--
	}
	for i > 0 && !unicode.IsSpace(e.buf[i-1]) {
		i--
	}
	e.kill(i, e.cursor)
}

// killWordForward removes up to the end of the next word (Alt-D).
func (e *editor) killWordForward() {
	e.kill(e.cursor, e.wordEnd())
}

// killAlnumWordBack removes the alphanumeric word before the cursor
// (Alt-Backspace), stopping at punctuation such as / or -.
func (e *editor) killAlnumWordBack() {
	e.kill(e.wordStart(), e.cursor)
}

// kill removes buf[from:to], keeps it for yank and leaves the cursor at from.
func (e *editor) kill(from, to int) {
	if from >= to {
		return
	}
	e.killed = append([]rune(nil), e.buf[from:to]...)
	e.buf = append(e.buf[:from], e.buf[to:]...)
	e.cursor = from
}

// yank inserts the last killed text (Ctrl-Y).
func (e *editor) yank() { e.insert(e.killed) }

// wordLeft moves to the start of the word before the cursor (Alt-B).
func (e *editor) wordLeft() { e.cursor = e.wordStart() }

// wordRight moves to the end of the word after the cursor (Alt-F).
func (e *editor) wordRight() { e.cursor = e.wordEnd() }

// wordStart is where Alt-B lands: skip non-word runes backwards, then word
// runes (letters and digits, as in readline).
func (e *editor) wordStart() int {
	i := e.cursor
	for i > 0 && !isWordRune(e.buf[i-1]) {
		i--
	}
	for i > 0 && isWordRune(e.buf[i-1]) {
		i--
	}
	return i
}

// wordEnd is where Alt-F lands: skip non-word runes, then word runes.
func (e *editor) wordEnd() int {
	i := e.cursor
	for i < len(e.buf) && !isWordRune(e.buf[i]) {
		i++
	}
	for i < len(e.buf) && isWordRune(e.buf[i]) {
		i++
	}
	return i
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// byteCursor is the cursor as a byte offset into text().
func (e *editor) byteCursor() int {
	return len(string(e.buf[:e.cursor]))
}
