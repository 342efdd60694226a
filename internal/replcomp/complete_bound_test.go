package replcomp

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestListedNames: a name holding a line break skips that name, not the
// directory; deeper rows and summaries are not names; at most limit.
func TestListedNames(t *testing.T) {
	text := "- /repo/\n  - a.txt\n  - bro\nken.txt\n  - c.txt\n  - sub/\n    - deep.txt\n  - [3 more entries]\n  - d\n  - e\n"
	if got := listedNames(text, 100); !reflect.DeepEqual(got, []string{"a.txt", "c.txt", "sub/", "[3 more entries]", "d", "e"}) {
		t.Errorf("listedNames = %q", got)
	}
	if got := listedNames(text, 2); !reflect.DeepEqual(got, []string{"a.txt", "c.txt"}) {
		t.Errorf("listedNames, limit 2 = %q", got)
	}
	if got := listedNames("not a listing\n", 10); got != nil {
		t.Errorf("listedNames = %q", got)
	}
}

// TestBoundedText: past its bound the writer refuses more (which ends the
// call), and what it kept is read up to its last whole line, no escape cut
// in two.
func TestBoundedText(t *testing.T) {
	var raw strings.Builder
	raw.WriteString(`- /repo/\n`)
	for i := 0; raw.Len() < 200; i++ {
		fmt.Fprintf(&raw, `  - f\u00e9%d\n`, i)
	}
	w := &boundedText{limit: 100}
	n, err := w.Write([]byte(raw.String()))
	if err == nil || n != 100 {
		t.Fatalf("Write = %d, %v; want 100 and an error", n, err)
	}
	got := w.text()
	if !strings.HasPrefix(got, "- /repo/\n  - fé0\n") || !strings.HasSuffix(got, "\n") || strings.Contains(got, `\`) {
		t.Errorf("text = %q", got)
	}
	if names := listedNames(got, 100); len(names) == 0 || names[len(names)-1] == "" {
		t.Errorf("names %q", names)
	}
	small := &boundedText{limit: 100}
	small.Write([]byte(`- /r/\n  - a\n`))
	if got := small.text(); got != "- /r/\n  - a\n" {
		t.Errorf("text = %q", got)
	}
}
