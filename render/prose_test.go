package render

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestProseTextPartsWrap: on a terminal an MCP result's text parts wrap at
// spaces to the width (never a word cut, a list item's continuation under
// its text), while a code block, indented code and table-looking lines stay
// as they are; piped, the text is byte for byte what was sent.
func TestProseTextPartsWrap(t *testing.T) {
	long := "The linter found two problems in the files you changed; fix them before you commit, or run it again with --fix to let it try."
	url := "https://example.com/" + strings.Repeat("a", 60)
	text := long + "\n\n- " + long + "\n\n```\n" + long + "\n```\n" +
		"    " + long + "\n" +
		"| file | line | message that is long enough to pass the width of the terminal for sure, yes |\n" +
		"name      kind      description that is long enough to pass the width of the terminal for sure\n" +
		"see " + url + " for the rule\n"
	res := func(parts ...string) json.RawMessage {
		var c []map[string]string
		for _, p := range parts {
			c = append(c, map[string]string{"type": "text", "text": p})
		}
		b, _ := json.Marshal(map[string]any{"content": c})
		return b
	}
	for _, raw := range []json.RawMessage{res(text), res("Results:", `{"file":"a.js"}`, text)} {
		got, _ := render(t, FromResult(raw), Options{TTY: true, Width: 40})
		for _, l := range strings.Split(got, "\n") {
			if textWidth(l) > 40 && !strings.Contains(l, long) && !strings.Contains(l, "| file |") &&
				!strings.HasPrefix(l, "name      ") && l != url {
				t.Errorf("a prose line wider than 40 cells: %q", l)
			}
		}
		for _, want := range []string{
			"The linter found two problems in the\nfiles you changed; fix them before you\ncommit,",
			"- The linter found two problems in the\n  files you changed;",
			"```\n" + long + "\n```\n",
			"    " + long + "\n",
			"| file | line |",
			"name      kind      description",
			"see\n" + url + "\nfor the rule\n",
		} {
			if !strings.Contains(got, want) {
				t.Errorf("lacks %q:\n%s", want, got)
			}
		}
		for _, w := range strings.Fields(strings.NewReplacer("-", " ", "`", " ", "|", " ").Replace(text)) {
			if !strings.Contains(got, w) {
				t.Errorf("a word was cut: %q", w)
				break
			}
		}
		// Piped: verbatim.
		piped, _ := render(t, FromResult(raw), Options{Width: 40})
		if !strings.Contains(piped, text) {
			t.Errorf("piped text changed:\n%s", piped)
		}
	}
	// Text that is not an MCP text part (an authored tool's string) is
	// not wrapped.
	if got, _ := render(t, TextValue(long), Options{TTY: true, Width: 40}); got != long+"\n" {
		t.Errorf("a plain text value was wrapped: %q", got)
	}
}

// BenchmarkWrapProse: a 1 MiB text part of long prose lines on a terminal,
// and one whose lines all fit (the common case: one pass, no copy).
func BenchmarkWrapProse(b *testing.B) {
	para := strings.Repeat("The linter found two problems in the files you changed and fixed one. ", 12) + "\n"
	long := strings.Repeat(para, (1<<20)/len(para))
	short := strings.Repeat("A line that fits.\n", (1<<20)/18)
	for name, s := range map[string]string{"long": long, "short": short} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				_ = wrapProse(s, 100)
			}
		})
	}
}
