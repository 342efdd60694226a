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

// TestMarkdownNeverBreaksAtADot: a file name in a list item ("tsconfig.json",
// as a TypeScript server's options describe it) was wrapped at its dot by
// glamour ("tsconfig." then "json"); at every width, no line ends in a dot
// that the next line's word continues, and the names stay whole. Links keep
// their dots.
func TestMarkdownNeverBreaksAtADot(t *testing.T) {
	md := "Options:\n\n- project: path to the project's tsconfig.json file, used to resolve the modules of the workspace\n" +
		"- Reads the \"tsconfig.json\" file of the project and the package.json beside it to find the compiler options in use\n\n" +
		"1. Set `tsconfig.json` and v1.2.3 as the options of the compiler, see https://example.com/docs.html for more\n"
	for width := 20; width <= 100; width++ {
		lines, err := renderMarkdown(md, width, "notty")
		if err != nil {
			t.Fatal(err)
		}
		// In color a link keeps its dots (and its link style); the file
		// names are protected all the same.
		colored, err := renderMarkdown(md[:strings.Index(md, "1. ")], width, "dark")
		if err != nil {
			t.Fatal(err)
		}
		for i := range colored {
			colored[i] = stripANSI(colored[i])
		}
		lines = append(append(lines, ""), colored...)
		text := strings.Join(lines, "\n")
		if strings.Contains(text, dotStandIn) {
			t.Fatalf("width %d: a stand-in dot leaked:\n%s", width, text)
		}
		for i := 0; i+1 < len(lines); i++ {
			a, b := strings.TrimRight(lines[i], " "), strings.TrimLeft(lines[i+1], " ")
			if strings.HasSuffix(a, ".") && b != "" && wordByte(b[0]) {
				t.Errorf("width %d: a word broken at its dot: %q / %q", width, a, b)
			}
		}
		flat := strings.Join(strings.Fields(text), " ")
		for _, want := range []string{"tsconfig.json", "package.json", "v1.2.3", "https://example.com/docs.html"} {
			if width > 40 && !strings.Contains(flat, want) {
				t.Errorf("width %d: lost %q:\n%s", width, want, text)
			}
		}
	}
}
