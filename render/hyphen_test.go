package render

import (
	"strings"
	"testing"
)

// TestMarkdownWrapsHyphenatedWords: glamour's word wrapper leaves a lone
// word on its own line after a hyphenated word; the description must wrap
// greedily instead, and keep its hyphens.
func TestMarkdownWrapsHyphenatedWords(t *testing.T) {
	md := "Search file contents with an RE2 regular expression. Prints matching lines with their numbers, the matching files, or per-file counts. Dot-files, ignored and binary files are skipped.\n\n- a list item\n- `--dry-run` stays\n\n| a | b |\n|---|---|\n| x-y | z |\n"
	for _, width := range []int{60, 70, 76, 77, 80} {
		lines, err := renderMarkdown(md, width, "notty")
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(lines, "\n")
		if strings.Contains(text, nbHyphen) {
			t.Errorf("width %d: a stand-in hyphen leaked:\n%s", width, text)
		}
		for i, l := range lines {
			if i+1 < len(lines) && l != "" && lines[i+1] != "" && !strings.ContainsAny(l, "|│•") && !strings.HasPrefix(strings.TrimSpace(l), "-") {
				next := strings.Fields(lines[i+1])
				if len(next) > 0 && len([]rune(l))+1+len([]rune(next[0])) <= width && !strings.HasPrefix(strings.TrimSpace(lines[i+1]), "•") {
					t.Errorf("width %d: line %q broke early before %q", width, l, next[0])
				}
			}
		}
		for _, want := range []string{"per-file", "Dot-files", "--dry-run", "x-y"} {
			if !strings.Contains(strings.ReplaceAll(text, "\n", " "), want) {
				t.Errorf("width %d: lost %q:\n%s", width, want, text)
			}
		}
	}
}
