package fstools

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/internal/testcorpus"
)

var update = flag.Bool("update", false, "rewrite the golden tool outputs under the repository's testdata/toolout")

// goldenTree is the deterministic fixture the goldens are made from: a
// small project with nested directories, one large directory that ls
// collapses, ignored and hidden files, and a git history.
func goldenTree(t *testing.T) string {
	t.Helper()
	files := map[string]string{
		"README.md":                "# demo\n\nA small project.\n",
		"go.mod":                   "module example.com/demo\n\ngo 1.26\n",
		"cmd/demo/main.go":         "package main\n\nimport \"example.com/demo/internal/app\"\n\nfunc main() {\n\tapp.Run()\n}\n",
		"internal/app/app.go":      "package app\n\n// Run starts the app.\nfunc Run() {\n\tprintln(\"hello\")\n\tlog(\"started\")\n}\n\nfunc log(msg string) {\n\tprintln(msg)\n}\n",
		"internal/app/app_test.go": "package app\n\nimport \"testing\"\n\nfunc TestRun(t *testing.T) {\n\tRun()\n}\n",
		"docs/guide.md":            "# Guide\n\nRun the app with `go run ./cmd/demo`.\n",
		"notes.txt":                "first\r\nsecond\r\nthird",
		".gitignore":               "*.log\n",
		"debug.log":                "ignored\n",
		".env":                     "SECRET=1\n",
	}
	for i := range 240 {
		ext := []string{".png", ".png", ".svg", ".json", ""}[i%5]
		files[fmt.Sprintf("assets/icons/icon%03d%s", i, ext)] = "x\n"
	}
	var lines strings.Builder
	for i := 1; i <= 2100; i++ {
		fmt.Fprintf(&lines, "entry %d\n", i)
	}
	files["data/lines.txt"] = lines.String()
	dir := writeTree(t, files)
	needTool(t, "git")
	gitRun(t, dir, nil, "init", "-q", "-b", "main")
	gitRun(t, dir, nil, "add", ".")
	gitRun(t, dir, nil, "commit", "-q", "-m", "Initial import")
	write(t, dir, "internal/app/app.go", "package app\n\n// Run starts the app.\nfunc Run() {\n\tprintln(\"hello, world\")\n\tlog(\"started\")\n}\n\nfunc log(msg string) {\n\tprintln(msg)\n}\n")
	if err := os.Remove(filepath.Join(dir, "docs/guide.md")); err != nil {
		t.Fatal(err)
	}
	// Fixed modification times keep glob's order stable.
	base := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		age := time.Duration(len(rel)) * time.Minute
		if rel == filepath.FromSlash("internal/app/app.go") {
			age = 0
		}
		return os.Chtimes(p, base.Add(-age), base.Add(-age))
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// goldenCases are the representative outputs the client's reformatters
// read: name → tool and input.
var goldenCases = []struct{ name, tool, in string }{
	{"ls", "ls", `{"target_directory":"/repo"}`},
	{"ls_subdir", "ls", `{"target_directory":"internal"}`},
	{"ls_more_entries", "ls", `{"target_directory":"/repo/assets/icons","ignore_globs":["*.png"]}`},
	{"read", "read", `{"path":"/repo/internal/app/app.go"}`},
	{"read_crlf_no_newline", "read", `{"path":"notes.txt"}`},
	{"read_empty", "read", `{"path":"/repo/empty.txt"}`},
	{"read_limit", "read", `{"path":"/repo/internal/app/app.go","offset":4,"limit":3}`},
	{"read_cut", "read", `{"path":"data/lines.txt","offset":-2050}`},
	{"grep_content", "grep", `{"pattern":"println|func Run","path":"/repo"}`},
	{"grep_context", "grep", `{"pattern":"Run\\(\\)","-C":1}`},
	{"grep_head_limit", "grep", `{"pattern":"Run","head_limit":2,"offset":1}`},
	{"grep_files", "grep", `{"pattern":"Run","output_mode":"files_with_matches"}`},
	{"grep_count", "grep", `{"pattern":"p","output_mode":"count","type":"go"}`},
	{"grep_none", "grep", `{"pattern":"nothing here"}`},
	{"glob", "glob", `{"glob_pattern":"*.go"}`},
	{"glob_none", "glob", `{"glob_pattern":"*.rs","target_directory":"/repo/internal"}`},
	{"diff", "diff", `{}`},
}

func TestGolden(t *testing.T) {
	dir := goldenTree(t)
	write(t, dir, "empty.txt", "")
	for i := range 700 {
		write(t, dir, fmt.Sprintf("assets/icons/zz%04d.txt", i), "")
	}
	ts := toolSet(dir)
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			got := mustText(t, ts, c.tool, c.in)
			checkStructure(t, c.tool, got)
			// testdata/toolout at the repository's top: the curated
			// reformatters' tests read these outputs too.
			path := testcorpus.Testdata(t, "toolout", c.name+".txt")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -run TestGolden -update)", err)
			}
			if got != string(want) {
				t.Fatalf("%s output changed (the curated reformatters read these goldens):\n%s", c.name, firstDiff(got, string(want)))
			}
		})
	}
}

// checkStructure asserts the format of a tool's output line by line, so a
// regenerated golden cannot hide a broken format.
func checkStructure(t *testing.T, tool, text string) {
	t.Helper()
	var (
		lsRow      = regexp.MustCompile(`^(  )+(- [^/]+/?|\[\d+ files in subtree: \d+ \*[^,\]]+(, \d+ \*[^,\]]+){0,2}\]|\[\d+ more entries\])$`)
		readRow    = regexp.MustCompile(`^ *\d+\|`)
		readNotice = regexp.MustCompile(`^\[(Showing lines \d+-\d+ of \d+|\d+ more lines in file)\. Use offset=\d+ to continue\.\]$`)
		grepRow    = regexp.MustCompile(`^\d+[:-]`)
		grepCount  = regexp.MustCompile(`^[^:]+:\d+$`)
		grepFound  = regexp.MustCompile(`^(Found (at least )?\d+ (matching lines?( across \d+ files?)?|files?)|No matches found)$`)
		globHead   = regexp.MustCompile(`^Result of search in '/[^']*' \(total \d+ files?\):$`)
	)
	lines := strings.Split(text, "\n")
	bad := func(i int) { t.Fatalf("%s line %d breaks the format: %q", tool, i+1, lines[i]) }
	switch tool {
	case "ls":
		if !strings.HasPrefix(lines[0], "- /") || !strings.HasSuffix(lines[0], "/") {
			bad(0)
		}
		for i := 1; i < len(lines); i++ {
			if !lsRow.MatchString(lines[i]) {
				bad(i)
			}
		}
	case "read":
		if text == "File is empty." {
			return
		}
		for i, l := range lines {
			notice := i == len(lines)-1 && readNotice.MatchString(l) && lines[i-1] == ""
			if !readRow.MatchString(l) && !notice && !(l == "" && i == len(lines)-2) {
				bad(i)
			}
		}
	case "grep":
		if !grepFound.MatchString(lines[0]) {
			bad(0)
		}
		switch {
		case strings.Contains(lines[0], " across "):
			for i := 1; i < len(lines); i++ {
				if !grepCount.MatchString(lines[i]) {
					bad(i)
				}
			}
		case strings.Contains(lines[0], "matching line"):
			header := true
			for i := 1; i < len(lines); i++ {
				switch {
				case lines[i] == "":
					header = true
				case header:
					header = false
				case !grepRow.MatchString(lines[i]):
					bad(i)
				}
			}
		default:
			for i := 1; i < len(lines); i++ {
				if lines[i] == "" || strings.Contains(lines[i], ":") {
					bad(i)
				}
			}
		}
	case "glob":
		if !globHead.MatchString(lines[0]) {
			bad(0)
		}
		for i := 1; i < len(lines); i++ {
			if !strings.HasPrefix(lines[i], "- ") || strings.HasPrefix(lines[i], "- /") {
				bad(i)
			}
		}
	case "diff":
		if !strings.HasPrefix(text, "diff --git a/") || strings.Contains(text, "\x1b[") {
			t.Fatalf("diff is not a plain unified diff: %.80q", text)
		}
	}
}
