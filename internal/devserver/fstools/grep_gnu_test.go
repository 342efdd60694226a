package fstools

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// gnuGrep runs GNU grep -r with args in dir and returns its output lines
// without "./" prefixes and "--" separators.
func gnuGrep(t *testing.T, dir string, args ...string) []string {
	t.Helper()
	cmd := exec.Command("grep", append(append([]string{"-r", "-E"}, args...), ".")...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Fatalf("grep %v: %v", args, err)
		}
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		if l == "" || l == "--" {
			continue
		}
		lines = append(lines, strings.TrimPrefix(l, "./"))
	}
	return lines
}

// contentAsGNU turns our content-mode text into `grep -rn` lines.
func contentAsGNU(t *testing.T, text string) []string {
	t.Helper()
	if text == "No matches found" {
		return nil
	}
	blocks := strings.Split(text, "\n\n")
	head, first, _ := strings.Cut(blocks[0], "\n")
	if !strings.HasPrefix(head, "Found ") {
		t.Fatalf("no Found line: %q", head)
	}
	blocks[0] = first
	var out []string
	numRE := regexp.MustCompile(`^(\d+)([:-])(.*)$`)
	for _, b := range blocks {
		lines := strings.Split(b, "\n")
		for _, l := range lines[1:] {
			m := numRE.FindStringSubmatch(l)
			if m == nil {
				t.Fatalf("bad line %q in block of %s", l, lines[0])
			}
			out = append(out, lines[0]+m[2]+m[1]+m[2]+m[3])
		}
	}
	return out
}

// sortGNU orders grep lines by path then line number.
func sortGNU(t *testing.T, lines []string) []string {
	t.Helper()
	gnuLine := regexp.MustCompile(`^([^:-]+)([:-])(\d+)[:-](.*)$`) // path, separator, number, text
	keyed := make([]string, len(lines))
	for i, l := range lines {
		m := gnuLine.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("unparsable grep line %q", l)
		}
		var n int
		fmt.Sscan(m[3], &n)
		keyed[i] = fmt.Sprintf("%s\x00%09d\x00%s", m[1], n, l)
	}
	sort.Strings(keyed)
	for i, k := range keyed {
		keyed[i] = k[strings.LastIndexByte(k, 0)+1:]
	}
	return keyed
}

func TestGrepMatchesGNU(t *testing.T) {
	needTool(t, "grep")
	dir := writeTree(t, genTree(1, 40, 600))
	ts := toolSet(dir)
	cases := []struct {
		pattern string
		extra   string // our JSON fields
		gnu     []string
	}{
		{"func", ``, nil},
		{"^import", ``, nil},
		{"error$", ``, nil},
		{"[0-9]{3}", ``, nil},
		{"foo|bar", ``, nil},
		{"x*", ``, nil},
		{"^$", ``, nil},
		{`\bid\b`, ``, nil},
		{"a.c", ``, nil},
		{"nomatchatall", ``, nil},
		{"FUNC", `,"-i":true`, []string{"-i"}},
		{"error handler", `,"-i":true`, []string{"-i"}},
		{"func", `,"-A":2`, []string{"-A", "2"}},
		{"Handler", `,"-B":1`, []string{"-B", "1"}},
		{"ERROR", `,"-C":3`, []string{"-C", "3"}},
		{"ctx", `,"-C":1,"-A":4`, []string{"-B", "1", "-A", "4"}},
	}
	for _, c := range cases {
		t.Run(c.pattern+c.extra, func(t *testing.T) {
			text := mustText(t, ts, "grep", `{"pattern":`+js(c.pattern)+c.extra+`}`)
			got := contentAsGNU(t, text)
			want := gnuGrep(t, dir, append(append([]string{"-n"}, c.gnu...), "-e", c.pattern)...)
			if g, w := strings.Join(sortGNU(t, got), "\n"), strings.Join(sortGNU(t, want), "\n"); g != w {
				t.Fatalf("content differs from grep -rn (%d vs %d lines)\n%s", len(got), len(want), firstDiff(g, w))
			}
			files := mustText(t, ts, "grep", `{"pattern":`+js(c.pattern)+c.extra+`,"output_mode":"files_with_matches"}`)
			wantFiles := gnuGrep(t, dir, append(append([]string{"-l"}, c.gnu...), "-e", c.pattern)...)
			sort.Strings(wantFiles)
			gotFiles := []string{}
			if files != "No matches found" {
				gotFiles = strings.Split(files, "\n")[1:]
				if files[:len("Found ")] != "Found " {
					t.Fatalf("files header: %q", files)
				}
			}
			if !sort.StringsAreSorted(gotFiles) {
				t.Errorf("files not in path order: %v", gotFiles)
			}
			if strings.Join(gotFiles, "\n") != strings.Join(wantFiles, "\n") {
				t.Fatalf("files_with_matches differ from grep -rl\n%s", firstDiff(strings.Join(gotFiles, "\n"), strings.Join(wantFiles, "\n")))
			}
			counts := mustText(t, ts, "grep", `{"pattern":`+js(c.pattern)+c.extra+`,"output_mode":"count"}`)
			var wantCounts []string
			for _, l := range gnuGrep(t, dir, append(append([]string{"-c"}, c.gnu...), "-e", c.pattern)...) {
				if !strings.HasSuffix(l, ":0") {
					wantCounts = append(wantCounts, l)
				}
			}
			sort.Strings(wantCounts)
			gotCounts := []string{}
			if counts != "No matches found" {
				gotCounts = strings.Split(counts, "\n")[1:]
			}
			if strings.Join(gotCounts, "\n") != strings.Join(wantCounts, "\n") {
				t.Fatalf("count differs from grep -rc\n%s", firstDiff(strings.Join(gotCounts, "\n"), strings.Join(wantCounts, "\n")))
			}
		})
	}
}

// firstDiff shows where two texts first differ.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n got  %q\n want %q", i+1, a, b)
		}
	}
	return "(equal)"
}
