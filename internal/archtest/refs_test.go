package archtest

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/agsh-dev/agsh/internal/testcorpus"
)

// The tests of this file keep the repository self-contained for a reader
// who has only a clone: every reference to the design points into docs/
// and resolves there, nothing outside the corpus locator reaches for the
// folder of fixtures beside the checkout, and no comment or name points to
// a history the clone does not have (tracker items, their rounds).

// repoFile is one tracked file: its slash-separated path from the root and
// its bytes.
type repoFile struct {
	path string
	data []byte
}

// trackedFiles answers the repository's tracked text files: git ls-files
// when git and the repository are there, else every file under the root
// but .git and bin. Files holding a NUL byte are binary and left out.
func trackedFiles(t *testing.T, root string) []repoFile {
	t.Helper()
	var names []string
	if out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output(); err == nil {
		for _, n := range strings.Split(string(out), "\x00") {
			// A file with a merge conflict is listed once per stage.
			if n != "" && (len(names) == 0 || names[len(names)-1] != n) {
				names = append(names, n)
			}
		}
	} else {
		if os.Getenv("CI") == "true" {
			t.Fatalf("git ls-files: %v", err)
		}
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			r, _ := filepath.Rel(root, p)
			if d.IsDir() && (r == ".git" || r == "bin") {
				return filepath.SkipDir
			}
			if d.Type().IsRegular() {
				names = append(names, filepath.ToSlash(r))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	var files []repoFile
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(n)))
		if err != nil {
			if os.IsNotExist(err) {
				continue // deleted in the work tree, not yet in the index
			}
			t.Fatal(err)
		}
		if bytes.IndexByte(b, 0) >= 0 {
			continue
		}
		files = append(files, repoFile{n, b})
	}
	if len(files) == 0 {
		t.Fatal("no tracked files found")
	}
	return files
}

// headingAnchors answers the anchors GitHub gives the headings of a
// markdown text: the heading's text lowercased, spaces turned into dashes,
// every other character but letters, digits, '-' and '_' dropped; a repeated
// anchor gets -1, -2, …. Lines inside fenced code blocks are no headings.
func headingAnchors(md string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	for _, line := range outsideFences(md) {
		m := headingLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		text := strings.TrimSpace(strings.TrimRight(m[1], "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(text) {
			switch {
			case r == ' ':
				b.WriteByte('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			seen[a] = n + 1
			a = fmt.Sprintf("%s-%d", a, n)
		} else {
			seen[a] = 1
		}
		anchors[a] = true
	}
	return anchors
}

var headingLine = regexp.MustCompile(`^ {0,3}#{1,6}\s+(.*)$`)

// outsideFences answers the lines of md that are not inside a fenced code
// block (``` or ~~~), fence lines left out; the others are kept in place
// as empty lines so that line numbers stay right.
func outsideFences(md string) []string {
	lines := strings.Split(md, "\n")
	out := make([]string, len(lines))
	fence := ""
	for i, l := range lines {
		t := strings.TrimLeft(l, " ")
		switch {
		case fence != "":
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
		case strings.HasPrefix(t, "```"):
			fence = "```"
		case strings.HasPrefix(t, "~~~"):
			fence = "~~~"
		default:
			out[i] = l
		}
	}
	return out
}

var (
	// docsRef is a reference by path from the root: docs/<page>.md, with
	// an optional #anchor.
	docsRef = regexp.MustCompile(`(?:^|[^\w./-])(docs/[\w-]+\.md)(?:#([\w-]*))?`)
	// mdLink is the target of an inline markdown link or image, and of a
	// reference definition.
	mdLink = regexp.MustCompile(`\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|^\s*\[[^\]]+\]:\s*(\S+)`)
	// designPage is a design page named with whatever folder precedes it:
	// anything but docs/ is a citation of a page outside the repository.
	designPage = regexp.MustCompile(`(?:^|[^\w./-])((?:[\w.-]+/)*)((?:architecture|wire|cli|mapping|render|rendering|shell|console|devserver|file-tools|sessions|testing|STYLE)\.md)\b`)
)

// pageIndex answers the anchors of each markdown page, computed once.
type pageIndex struct {
	root  string
	pages map[string]map[string]bool
}

func (ix *pageIndex) anchors(page string) (map[string]bool, bool) {
	if a, ok := ix.pages[page]; ok {
		return a, a != nil
	}
	b, err := os.ReadFile(filepath.Join(ix.root, filepath.FromSlash(page)))
	if err != nil {
		ix.pages[page] = nil
		return nil, false
	}
	a := headingAnchors(string(b))
	ix.pages[page] = a
	return a, true
}

// checkTarget reports what is wrong with a reference to page#anchor (page
// a path from the root), or "" when both exist.
func (ix *pageIndex) checkTarget(page, anchor string) string {
	if page == ".." || strings.HasPrefix(page, "../") || path.IsAbs(page) {
		return "points outside the repository"
	}
	if _, err := os.Stat(filepath.Join(ix.root, filepath.FromSlash(page))); err != nil {
		return page + " does not exist"
	}
	if anchor == "" || !strings.HasSuffix(page, ".md") {
		return ""
	}
	a, _ := ix.anchors(page)
	if !a[anchor] {
		return fmt.Sprintf("%s has no heading with the anchor #%s", page, anchor)
	}
	return ""
}

// refProblems answers the broken references of one file, and how many
// docs/<page>.md references it checked: docs/<page>.md references (in Go,
// those of comments; fixtures in string literals are not references),
// relative links in markdown files, and pages named without docs/ outside
// docs/.
func refProblems(ix *pageIndex, f repoFile) (problems []string, refs int) {
	var lines []proseLine
	isMD := strings.HasSuffix(f.path, ".md")
	switch {
	case strings.HasSuffix(f.path, ".go"):
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, f.path, f.data, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return []string{fmt.Sprintf("%s: %v", f.path, err)}, 0
		}
		for _, g := range file.Comments {
			for _, c := range g.List {
				for i, l := range strings.Split(c.Text, "\n") {
					lines = append(lines, proseLine{fset.Position(c.Pos()).Line + i, l})
				}
			}
		}
	case isMD:
		for i, l := range outsideFences(string(f.data)) {
			lines = append(lines, proseLine{i + 1, l})
		}
	default:
		for i, l := range strings.Split(string(f.data), "\n") {
			lines = append(lines, proseLine{i + 1, l})
		}
	}
	for _, l := range lines {
		at := fmt.Sprintf("%s:%d", f.path, l.line)
		text := l.text
		if isMD {
			text = mdLink.ReplaceAllString(text, "]") // links are checked below
		}
		for _, m := range docsRef.FindAllStringSubmatch(text, -1) {
			refs++
			ref := m[1]
			if m[2] != "" {
				ref += "#" + m[2]
			}
			if p := ix.checkTarget(m[1], m[2]); p != "" {
				problems = append(problems, fmt.Sprintf("%s: %s: %s", at, ref, p))
			}
		}
		if !strings.HasPrefix(f.path, "docs/") {
			for _, m := range designPage.FindAllStringSubmatch(l.text, -1) {
				if m[1] != "docs/" {
					problems = append(problems, fmt.Sprintf("%s: %s%s is no page of docs/ (write docs/<page>.md#<section>)", at, m[1], m[2]))
				}
			}
		}
		if !isMD {
			continue
		}
		for _, m := range mdLink.FindAllStringSubmatch(l.text, -1) {
			target := m[1] + m[2]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			page, anchor, _ := strings.Cut(target, "#")
			if page == "" {
				page = f.path
			} else {
				page = path.Join(path.Dir(f.path), page)
			}
			if p := ix.checkTarget(page, anchor); p != "" {
				problems = append(problems, fmt.Sprintf("%s: link %s: %s", at, target, p))
			}
		}
	}
	return problems, refs
}

// TestReferencesResolve: every docs/<page>.md#anchor reference in a tracked
// file, and every relative link of a markdown file (the README, docs/),
// names a page that exists and, with an anchor, a heading of that page; no
// file outside docs/ cites a design page by its bare name.
func TestReferencesResolve(t *testing.T) {
	root := testcorpus.Root(t)
	ix := &pageIndex{root: root, pages: map[string]map[string]bool{}}
	refs := 0
	for _, f := range trackedFiles(t, root) {
		problems, n := refProblems(ix, f)
		refs += n
		for _, p := range problems {
			t.Error(p)
		}
	}
	if refs < 50 {
		t.Errorf("only %d docs/<page>.md references found: is the scan reading the files?", refs)
	}
}

// sharedFolder is the relative path to the folder of fixtures beside the
// checkout, spelled in two pieces so that this file does not name it.
var sharedFolder = ".." + "/shared"

// TestOnlyTheLocatorNamesTheSharedFolder: internal/testcorpus is the one
// place that knows where the fixtures beside the checkout are; everything
// else asks it, and nothing in the repository (docs included) sends a
// reader there.
func TestOnlyTheLocatorNamesTheSharedFolder(t *testing.T) {
	root := testcorpus.Root(t)
	for _, f := range trackedFiles(t, root) {
		for _, p := range sharedProblems(f) {
			t.Error(p)
		}
	}
}

// sharedProblems answers the lines of a file outside internal/testcorpus
// that name the shared folder.
func sharedProblems(f repoFile) []string {
	if strings.HasPrefix(f.path, "internal/testcorpus/") {
		return nil
	}
	var problems []string
	for i, line := range strings.Split(string(f.data), "\n") {
		if strings.Contains(line, sharedFolder) {
			problems = append(problems, fmt.Sprintf("%s:%d names %s; reach it through internal/testcorpus: %s", f.path, i+1, sharedFolder, strings.TrimSpace(line)))
		}
	}
	return problems
}

var (
	// historyText is prose pointing to the project's history: an item of
	// the tracker, a review or a round by number, "the <topic> issue", and
	// the names of batches of work and of checks of the past (the regular
	// expression spells them out).
	historyText = regexp.MustCompile(`(?i)\b(?:issue|wave|review|round|item)s?\s?#?\d+\b|\[wave|\bwaves?\b|\baudit(?:s|ed|ing)?\b|\bthe [a-z][a-z-]* issues?\b`)
	// historyName is the same in an identifier or a file name, where words
	// run together and a number follows its word directly.
	historyName = regexp.MustCompile(`(?i)(?:issue|wave|review|round|item)[_-]?\d|wave|audit`)
)

// historyProblems answers the places of one file that point to the
// project's history: its path; in Go, comments, the names of test,
// benchmark, fuzz and example functions and of subtests; in markdown, the
// text; in test scripts, shell scripts and the Makefile, the comment lines.
// Prose is read a block at a time (a comment, a run of comment lines, a
// markdown file), so that a phrase broken over two lines is still seen.
func historyProblems(f repoFile) []string {
	var problems []string
	if m := historyName.FindString(path.Base(f.path)); m != "" {
		problems = append(problems, fmt.Sprintf("%s: the file name says %q", f.path, m))
	}
	name := func(line int, what, text string) {
		if m := historyName.FindString(text); m != "" {
			problems = append(problems, fmt.Sprintf("%s:%d: %s says %q: %s", f.path, line, what, m, text))
		}
	}
	var block []proseLine
	flush := func() {
		for _, p := range historyInProse(block) {
			problems = append(problems, fmt.Sprintf("%s:%s", f.path, p))
		}
		block = block[:0]
	}
	switch {
	case strings.HasSuffix(f.path, ".go"):
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, f.path, f.data, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return append(problems, fmt.Sprintf("%s: %v", f.path, err))
		}
		for _, g := range file.Comments {
			for _, c := range g.List {
				for i, l := range strings.Split(c.Text, "\n") {
					block = append(block, proseLine{fset.Position(c.Pos()).Line + i, l})
				}
			}
			flush()
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				for _, p := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
					if strings.HasPrefix(n.Name.Name, p) {
						name(fset.Position(n.Pos()).Line, "the function name", n.Name.Name)
					}
				}
			case *ast.CallExpr:
				if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Run" && len(n.Args) == 2 {
					if s, ok := stringLit(n.Args[0]); ok {
						name(fset.Position(n.Pos()).Line, "the subtest name", s)
					}
				}
			case *ast.KeyValueExpr:
				if k, ok := n.Key.(*ast.Ident); ok && k.Name == "name" {
					if s, ok := stringLit(n.Value); ok {
						name(fset.Position(n.Pos()).Line, "the test case name", s)
					}
				}
			}
			return true
		})
	case strings.HasSuffix(f.path, ".md"):
		for i, l := range strings.Split(string(f.data), "\n") {
			block = append(block, proseLine{i + 1, l})
		}
		flush()
	case strings.HasSuffix(f.path, ".txtar"), strings.HasSuffix(f.path, ".sh"),
		path.Base(f.path) == "Makefile", strings.HasPrefix(f.path, ".ci/"):
		for i, l := range strings.Split(string(f.data), "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "#") {
				block = append(block, proseLine{i + 1, l})
			} else {
				flush()
			}
		}
		flush()
	}
	return problems
}

// proseLine is one line of a block of prose and its line number.
type proseLine struct {
	line int
	text string
}

// historyInProse answers "line: says …" for each phrase of historyText in
// the block, its lines read as one text.
func historyInProse(block []proseLine) []string {
	var text strings.Builder
	starts := make([]int, len(block))
	for i, l := range block {
		starts[i] = text.Len()
		text.WriteString(strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l.text), "/#*")))
		text.WriteByte(' ')
	}
	var problems []string
	s := text.String()
	for _, m := range historyText.FindAllStringIndex(s, -1) {
		i := max(0, sort.SearchInts(starts, m[0]+1)-1)
		problems = append(problems, fmt.Sprintf("%d: %q: %s", block[i].line, s[m[0]:m[1]], strings.TrimSpace(block[i].text)))
	}
	return problems
}

// stringLit answers the value of a string literal expression.
func stringLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

// TestNoHistoryInNames: comments, test names and file names describe the
// code, not the tracker items or review rounds it came from; a clone has
// none of that history.
func TestNoHistoryInNames(t *testing.T) {
	root := testcorpus.Root(t)
	for _, f := range trackedFiles(t, root) {
		for _, p := range historyProblems(f) {
			t.Error(p)
		}
	}
}

// TestChecksCatchPlantedExamples: the checks above fail on a planted
// example of each mistake and pass the domain words that look alike.
func TestChecksCatchPlantedExamples(t *testing.T) {
	md := "# Title\n\n## The list_changes tool\n\n### `read` — high\n\n## Notes\n\n```\n## Not a heading\n```\n\n## Notes\n"
	got := headingAnchors(md)
	want := []string{"title", "the-list_changes-tool", "read--high", "notes", "notes-1"}
	for _, a := range want {
		if !got[a] {
			t.Errorf("anchor %q missing from %v", a, got)
		}
	}
	if got["not-a-heading"] || len(got) != len(want) {
		t.Errorf("anchors %v, want exactly %v", got, want)
	}

	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"docs/cli.md": "# The command line\n\n## Exit status\n", "README.md": "# agsh\n\n## Layout\n"} {
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(name)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ix := &pageIndex{root: root, pages: map[string]map[string]bool{}}
	refs := []struct {
		file, text string
		bad        bool
	}{
		{"a.go", "package a\n\n// See docs/cli.md#exit-status.\nvar x int\n", false},
		{"a.go", "package a\n\n// See docs/cli.md.\nvar x int\n", false},
		{"a.go", "package a\n\n// See docs/cli.md#exit-statuses.\nvar x int\n", true},
		{"a.go", "package a\n\n/* See docs/wire.md#routes. */\nvar x int\n", true},
		{"a.go", "package a\n\n// The exit table (cli.md, \"Exit status\").\nvar x int\n", true},
		{"a_test.go", "package a\n\nvar tree = map[string]string{\"docs/guide.md\": \"# Guide\"}\n", false},
		{"a.sh", "# as STYLE.md says", true},
		{"README.md", "[exit](docs/cli.md#exit-status)", false},
		{"README.md", "[exit](docs/cli.md#exit)", true},
		{"README.md", "[spec](" + sharedFolder + "/spec/cli.md)", true},
		{"a.go", "package a\n\n// As spec/file-tools.md gives them.\nvar x int\n", true},
		{"README.md", "[up](#layout)", false},
		{"README.md", "[up](#the-command-line)", true},
		{"docs/cli.md", "[self](#exit-status), [same](cli.md#exit-status)", false},
		{"docs/cli.md", "[other](wire.md)", true},
		{"docs/cli.md", "see cli.md", false},
		{"README.md", "```\n[not a link](nowhere.md)\n```", false},
	}
	for _, r := range refs {
		p, _ := refProblems(ix, repoFile{r.file, []byte(r.text)})
		if (len(p) > 0) != r.bad {
			t.Errorf("%s %q: problems %q, want bad=%v", r.file, r.text, p, r.bad)
		}
	}

	history := []struct {
		file, text string
		bad        bool
	}{
		{"a.go", "package a\n\n// Closes issue 12's hole.\nfunc f() {}\n", true},
		{"a.go", "package a\n\n// As agreed (cli.md [wave 2]).\nfunc f() {}\n", true},
		{"a.go", "package a\n\n// Item 7: a silent server.\nfunc f() {}\n", true},
		{"a.go", "package a\n\n// Found in the audit.\nfunc f() {}\n", true},
		{"a.go", "package a\n\n// The table of the streaming issue.\nfunc f() {}\n", true},
		{"a_test.go", "package a\n\nimport \"testing\"\n\nfunc BenchmarkIssue15HighlightGo50K(b *testing.B) {}\n", true},
		{"a_test.go", "package a\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) { t.Run(\"review3\", nil) }\n", true},
		{"a_test.go", "package a\n\nvar cases = []struct{ name string }{{name: \"wave2 rule\"}}\n", true},
		{"internal/cli/testdata/script/generated_review5.txtar", "exec agsh\n", true},
		{"internal/cli/testdata/script/a.txtar", "# Shell completion (issue 17).\nexec agsh\n", true},
		{"scripts/a.sh", "#!/bin/sh\n# Runs the cases of issue 12\n", true},
		{"docs/a.md", "Fixed in round 2.\n", true},
		{"a.go", "package a\n\n// The table of issue\n// 16.\nfunc f() {}\n", true},
		{"scripts/a.sh", "#!/bin/sh\n# the cases of issue\n# 12\n", true},
		// Domain words that look alike.
		{"a.go", "package a\n\n// report_change_issue files an issue; an invalid_input issue names its flag.\n" +
			"// IssueFlag maps the issue path; the round trip holds; a preview is shown.\nfunc f() {}\n", false},
		{"a.go", "package a\n\nvar s = \"issue 12 in a string is data\"\n", false},
		{"testdata/schemas/tracker/create_review.json", "{}", false},
		{"testdata/schemas/github/property_issue.json", "{}", false},
		{"render/preview.go", "package render\n", false},
		{"internal/cli/testdata/script/a.txtar", "exec agsh report_change_issue --title x\nstdout 'issue 12'\n", false},
	}
	for _, h := range history {
		p := historyProblems(repoFile{h.file, []byte(h.text)})
		if (len(p) > 0) != h.bad {
			t.Errorf("%s %q: problems %q, want bad=%v", h.file, h.text, p, h.bad)
		}
	}

	planted := []byte("the corpus is in " + sharedFolder + "/corpus")
	if p := sharedProblems(repoFile{"README.md", planted}); len(p) != 1 {
		t.Errorf("the README naming the shared folder: problems %q, want one", p)
	}
	if p := sharedProblems(repoFile{"internal/testcorpus/testcorpus.go", planted}); len(p) != 0 {
		t.Errorf("the locator naming the shared folder: problems %q, want none", p)
	}
}
