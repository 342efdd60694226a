package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// raw is a list of raw JSON values.
func raw(s ...string) []json.RawMessage {
	var r []json.RawMessage
	for _, x := range s {
		r = append(r, json.RawMessage(x))
	}
	return r
}

func TestFactsLine(t *testing.T) {
	tests := []struct {
		req    bool
		def    string
		enum   []json.RawMessage
		format string
		want   string
	}{
		{true, `1`, raw(`"content"`, `"files_with_matches"`, `"count"`), "", "Required. Default: 1. One of: content, files_with_matches, count."},
		{false, `"asc"`, nil, "date-time", `Default: "asc". Format: date-time.`},
		{false, ` {"a": [1, 2]} `, raw(`1`, `null`, `""`), "", `Default: {"a":[1,2]}. One of: 1, null, "".`},
		{false, `null`, nil, "", "Default: null."},
		{false, ``, nil, "", ""},
		{true, ``, nil, "uri", "Required. Format: uri."},
		// A value holding a space, "|" or "," is quoted: the list reads.
		{false, ``, raw(`"a, b"`, `"c"`, `" d"`, `"x y"`, `"p|q"`), "", `One of: "a, b", c, " d", "x y", "p|q".`},
	}
	for _, tt := range tests {
		if got := FactsLine(tt.req, json.RawMessage(tt.def), tt.enum, tt.format); got != tt.want {
			t.Errorf("FactsLine(%v, %s, %s, %q) = %q, want %q", tt.req, tt.def, tt.enum, tt.format, got, tt.want)
		}
	}
}

// TestHelpKeepsQuotedValues: enum values with spaces are quoted and each
// stays on one line however the facts line wraps (time-mcp's formats).
func TestHelpKeepsQuotedValues(t *testing.T) {
	facts := FactsLine(false, json.RawMessage(`"YYYY-MM-DD HH:mm:ss"`), raw(`"h:mm A"`, `"h:mm:ss A"`, `"YYYY-MM-DD HH:mm:ss"`, `"YYYY-MM-DD"`, `"YYYY-MM"`, `"MM/DD/YYYY"`, `"MM/DD/YY"`, `"YYYY/MM/DD"`, `"YYYY/MM"`), "")
	for _, width := range []int{40, 60, 80, 100} {
		var b bytes.Buffer
		if err := WriteHelp(&b, HelpPage{Name: "current_time", Synopsis: "current_time [options...]",
			Options: []HelpItem{{Term: `--format <"h:mm A"|"h:mm:ss A"|"YYYY-MM-DD HH:mm:ss">`, Description: "The format of the time", Facts: facts}}}, Options{Width: width}); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, v := range []string{`"h:mm A"`, `"h:mm:ss A"`, `"YYYY-MM-DD HH:mm:ss"`} {
			if strings.Count(out, v) < 2 {
				t.Errorf("width %d: %s is not whole on one line twice (placeholder and facts):\n%s", width, v, out)
			}
		}
		if strings.Contains(out, "\u00a0") {
			t.Errorf("width %d: a no-break space is left in the page", width)
		}
		checkStructure(t, out, structure{width: width, sections: []string{"NAME", "SYNOPSIS", "OPTIONS"}})
	}
}

// TestFactsLineConstraints: validation keywords follow the facts, shown and
// not enforced (docs/mapping.md#how-a-value-is-read).
func TestFactsLineConstraints(t *testing.T) {
	got := FactsLine(true, nil, nil, "uri",
		Constraint{"pattern", json.RawMessage(`"^[a-z]+$"`)},
		Constraint{"minLength", json.RawMessage(`1`)},
		Constraint{"exclusiveMaximum", json.RawMessage(`10`)},
		Constraint{"uniqueItems", json.RawMessage(`true`)})
	want := "Required. Format: uri. Pattern: ^[a-z]+$. Min. length: 1. Exclusive maximum: 10. Unique items: true."
	if got != want {
		t.Errorf("FactsLine = %q, want %q", got, want)
	}
}

func TestWrapLine(t *testing.T) {
	tests := []struct {
		s                  string
		width, first, next int
		want               []string
	}{
		{"one two three four", 9, 0, 0, []string{"one two", "three", "four"}},
		{"one two three", 9, 0, 4, []string{"one two", "    three"}},
		{"--kind <small|medium|large|huge>", 16, 0, 4, []string{"--kind <small|", "    medium|", "    large|huge>"}},
		// A word is never broken: one wider than the line stands alone.
		{"abcdefghijkl", 5, 0, 0, []string{"abcdefghijkl"}},
		{"a abcdefghijkl b", 5, 0, 2, []string{"a", "  abcdefghijkl", "  b"}},
		{"東京都庁舎", 5, 0, 0, []string{"東京都庁舎"}},
		// A no-break space holds what it joins together.
		{"One of: \"h:mm\u00a0A\", x", 10, 0, 0, []string{"One of:", "\"h:mm\u00a0A\",", "x"}},
		{"", 10, 0, 0, nil},
	}
	for _, tt := range tests {
		got := wrapLine(tt.s, tt.width, tt.first, tt.next)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("wrapLine(%q, %d) = %q, want %q", tt.s, tt.width, got, tt.want)
		}
	}
}

func TestWrapText(t *testing.T) {
	got := wrapText("first para here\n\n\n  - indented item wraps\n\tx", 12)
	want := []string{"first para", "here", "", "  - indented", "  item wraps", "    x"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("wrapText = %q, want %q", got, want)
	}
}

func TestPrepareMarkdown(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Give <path to file> here", `Give \<path to file> here`},
		{"A <uid> and <b>bold</b> and <br/> and <a href=\"x\">l</a>", `A \<uid> and <b>bold</b> and <br/> and <a href="x">l</a>`},
		{"Code `<x>` stays", "Code `<x>` stays"},
		{"```\n<tag>\n```", "```\n<tag>\n```"},
		{"    <indented code>", "    <indented code>"},
		{"auto <https://example.com> link", "auto <https://example.com> link"},
		{"text\n<examples>\nfoo\n</examples>", "text\n\n\\<examples>\n\nfoo\n\n\\</examples>"},
		{"<div>\n<p>x</p>\n</div>", "\\<div>\n\n\\<p>x\\</p>\n\n\\</div>"},
		{"a < b and c > d", "a < b and c > d"},
		{"<!-- note -->", `\<!-- note -->`},
	}
	for _, tt := range tests {
		if got := prepareMarkdown(tt.in, 80); got != tt.want {
			t.Errorf("prepareMarkdown(%q)\n got %q\nwant %q", tt.in, got, tt.want)
		}
	}
	// A code line too wide is split at its spaces only, never inside a word.
	long := "```\n" + strings.Repeat("x", 30) + "\n```"
	if got := prepareMarkdown(long, 22); got != long {
		t.Errorf("code split: got %q, want %q", got, long)
	}
	words := "```\n" + strings.Repeat("abcd ", 8) + "\n```"
	if got, want := prepareMarkdown(words, 22), "```\nabcd abcd abcd abcd \nabcd abcd abcd abcd \n```"; got != want {
		t.Errorf("code split: got %q, want %q", got, want)
	}
}

func TestDropEmptySGR(t *testing.T) {
	tests := []struct{ in, want string }{
		{"\x1b[38;5;252m\x1b[0m\x1b[38;5;252mtext\x1b[0m", "\x1b[0m\x1b[38;5;252mtext\x1b[0m"},
		{"\x1b[1m\x1b[0m\x1b[0m\x1b[0mx", "\x1b[0mx"},
		{"plain", "plain"},
		{"\x1b[31mred\x1b[0m", "\x1b[31mred\x1b[0m"},
	}
	for _, tt := range tests {
		if got := dropEmptySGR(tt.in); got != tt.want {
			t.Errorf("dropEmptySGR(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestHangListItems(t *testing.T) {
	in := []string{
		"• first item wraps",
		"onto this line",
		"• second",
		"    • nested long",
		"    text",
		"",
		"12. numbered",
		"more words here",
		"",
		"plain paragraph",
		"continues",
	}
	want := []string{
		"• first item wraps",
		"  onto this",
		"  line",
		"• second",
		"    • nested long",
		"      text",
		"",
		"12. numbered",
		"    more words",
		"    here",
		"",
		"plain paragraph",
		"continues",
	}
	got := hangListItems(in, 14)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestConcurrentRendering renders help and tables from several goroutines
// (the REPL renders while completion builds help); run with -race.
func TestConcurrentRendering(t *testing.T) {
	done := make(chan string, 8)
	for i := 0; i < 8; i++ {
		go func(i int) {
			var b strings.Builder
			WriteHelp(&b, HelpPage{Name: "t", Synopsis: "t", Description: "Some *markdown* with <tags>."}, Options{Width: 60 + i%2, Color: i%2 == 0})
			Write(&b, nil, jsonValue(`[{"a":"東京"}]`), Options{Width: 40})
			done <- b.String()
		}(i)
	}
	for i := 0; i < 8; i++ {
		if out := <-done; !strings.Contains(out, "<tags>") {
			t.Errorf("output lacks the description: %q", out)
		}
	}
}
