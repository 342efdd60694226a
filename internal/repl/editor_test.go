package repl

import (
	"strings"
	"testing"
)

// edState builds an editor from "text with | at the cursor".
func edState(s string) editor {
	i := strings.Index(s, "|")
	rs := []rune(strings.Replace(s, "|", "", 1))
	return editor{buf: rs, cursor: len([]rune(s[:i]))}
}

// edString shows an editor as "text with | at the cursor".
func edString(e editor) string {
	return string(e.buf[:e.cursor]) + "|" + string(e.buf[e.cursor:])
}

func TestEditorOps(t *testing.T) {
	tests := []struct {
		name, in string
		op       func(e *editor)
		want     string
	}{
		{"insert middle", "ab|cd", func(e *editor) { e.insert([]rune("XY")) }, "abXY|cd"},
		{"insert wide runes", "|", func(e *editor) { e.insert([]rune("日本")) }, "日本|"},
		{"insert nothing", "a|b", func(e *editor) { e.insert(nil) }, "a|b"},
		{"backspace", "ab|c", (*editor).deleteBack, "a|c"},
		{"backspace at start", "|abc", (*editor).deleteBack, "|abc"},
		{"backspace multibyte", "日本|", (*editor).deleteBack, "日|"},
		{"delete forward", "a|bc", (*editor).deleteForward, "a|c"},
		{"delete forward at end", "abc|", (*editor).deleteForward, "abc|"},
		{"left", "ab|", (*editor).left, "a|b"},
		{"left at start", "|ab", (*editor).left, "|ab"},
		{"right", "|ab", (*editor).right, "a|b"},
		{"right at end", "ab|", (*editor).right, "ab|"},
		{"home", "ab|c", (*editor).home, "|abc"},
		{"end", "a|bc", (*editor).end, "abc|"},
		{"kill to end", "ls /re|po", (*editor).killToEnd, "ls /re|"},
		{"kill to start", "ls /re|po", (*editor).killToStart, "|po"},
		{"ctrl-w blank word", "read /repo/a.go|", (*editor).killWordBack, "read |"},
		{"ctrl-w trailing blanks", "read /repo   |", (*editor).killWordBack, "read |"},
		{"ctrl-w at start", "|read", (*editor).killWordBack, "|read"},
		{"alt-b word left", "read /repo/src|", (*editor).wordLeft, "read /repo/|src"},
		{"alt-b over punctuation", "read /repo/|src", (*editor).wordLeft, "read /|repo/src"},
		{"alt-b at start", "|read", (*editor).wordLeft, "|read"},
		{"alt-f word right", "|read /repo", (*editor).wordRight, "read| /repo"},
		{"alt-f skips punctuation", "read| /repo/x", (*editor).wordRight, "read /repo|/x"},
		{"alt-f at end", "read|", (*editor).wordRight, "read|"},
		{"alt-d kill word", "read| /repo/x", (*editor).killWordForward, "read|/x"},
		{"alt-backspace", "ls --limit|", (*editor).killAlnumWordBack, "ls --|"},
		{"yank after kill", "ab|cd", func(e *editor) { e.killToEnd(); e.home(); e.yank() }, "cd|ab"},
		{"yank nothing", "ab|", (*editor).yank, "ab|"},
		{"set", "x|", func(e *editor) { e.set("hello") }, "hello|"},
		{"clear", "x|y", (*editor).clear, "|"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := edState(tt.in)
			tt.op(&e)
			if got := edString(e); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestEditorByteCursor(t *testing.T) {
	e := edState("日本|語")
	if got := e.byteCursor(); got != 6 {
		t.Errorf("byteCursor = %d, want 6", got)
	}
}

func TestCleanRunes(t *testing.T) {
	tests := []struct{ in, want string }{
		{"abc", "abc"},
		{"a\r\nb", "a\nb"},
		{"a\rb", "a\nb"},
		{"a\tb", "a\tb"},
		{"a\x1b[31mb", "a[31mb"},
		{"a\x00\x7fb\u0085", "ab"},
	}
	for _, tt := range tests {
		if got := string(cleanRunes([]rune(tt.in))); got != tt.want {
			t.Errorf("cleanRunes(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
