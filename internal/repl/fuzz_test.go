package repl

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func FuzzHistoryLineCoding(f *testing.F) {
	for _, s := range []string{"ls /", `a\b`, "a\nb", `\n`, "x\r\ny", `trailing\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, entry string) {
		line := encodeHistoryLine(entry)
		if strings.ContainsAny(line, "\n\r") {
			t.Fatalf("encode(%q) = %q holds a line break", entry, line)
		}
		if got := decodeHistoryLine(line); got != entry {
			t.Fatalf("decode(encode(%q)) = %q", entry, got)
		}
	})
}

// FuzzEditor applies a random key sequence and checks the editor's
// invariants: the cursor stays inside the buffer, nothing panics.
func FuzzEditor(f *testing.F) {
	f.Add("ls /repo", []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	f.Fuzz(func(t *testing.T, text string, ops []byte) {
		if !utf8.ValidString(text) {
			return
		}
		var e editor
		e.set(text)
		for _, op := range ops {
			switch op % 17 {
			case 0:
				e.insert([]rune("ab"))
			case 1:
				e.deleteBack()
			case 2:
				e.deleteForward()
			case 3:
				e.left()
			case 4:
				e.right()
			case 5:
				e.home()
			case 6:
				e.end()
			case 7:
				e.killToEnd()
			case 8:
				e.killToStart()
			case 9:
				e.killWordBack()
			case 10:
				e.killWordForward()
			case 11:
				e.killAlnumWordBack()
			case 12:
				e.yank()
			case 13:
				e.wordLeft()
			case 14:
				e.wordRight()
			case 15:
				e.insert([]rune(" /x"))
			case 16:
				e.clear()
			}
			if e.cursor < 0 || e.cursor > len(e.buf) {
				t.Fatalf("cursor %d outside 0..%d", e.cursor, len(e.buf))
			}
		}
		_ = e.byteCursor()
	})
}
