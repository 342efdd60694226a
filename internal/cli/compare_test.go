package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// compareTree is a workspace without ignore files or dot-files, so that the
// unix commands and the curated ones must agree exactly.
var compareTree = map[string]string{
	"README.md":          "# Demo\nThis repo has a readme.\nREADME again\n",
	"src/main.go":        "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"readme\")\n}\n",
	"src/util/util.go":   "package util\n\n// Readme helps.\nfunc Help() string { return \"see README\" }\n",
	"src/util/notes.txt": "one\ntwo\nthree\nfour readme\nfive\nsix\nseven\neight\nnine readme\nten\n",
	"docs/guide.md":      "Guide\n=====\n\nNo match here.\n",
	"docs/nested/a.go":   "package nested\n",
	"nonl.txt":           "last line without newline readme",
}

func startCompareDeployment(t *testing.T) (repo, target string) {
	t.Helper()
	srv, repo := startRepoDeployment(t, compareTree)
	return repo, srv.AgentURL("executor")
}

// runAgsh runs the agsh binary against target: its standard output and
// exit status (runAgshErr keeps standard error too).
func runAgsh(t *testing.T, target string, args ...string) (stdout string, status int) {
	t.Helper()
	stdout, _, status = runAgshErr(t, target, args...)
	return stdout, status
}

func runUnix(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
		return string(out) // grep: no match
	} else if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return string(out)
}

// grepGroups normalizes grep -rn output for comparison: the lines of each
// file (and its "--" separated groups) sorted by path, since grep -r walks
// directories in readdir order and agsh in path order.
func grepGroups(out string) string {
	byFile := map[string][]string{}
	var files []string
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if l == "" || l == "--" {
			continue
		}
		l = strings.TrimPrefix(l, "./")
		i := strings.IndexAny(l, ":-")
		for i > 0 && !(i+1 < len(l) && l[i+1] >= '0' && l[i+1] <= '9') {
			j := strings.IndexAny(l[i+1:], ":-")
			if j < 0 {
				i = -1
				break
			}
			i += j + 1
		}
		if i < 0 {
			continue
		}
		f := l[:i]
		if _, ok := byFile[f]; !ok {
			files = append(files, f)
		}
		byFile[f] = append(byFile[f], l)
	}
	sort.Strings(files)
	var b strings.Builder
	for _, f := range files {
		for _, l := range byFile[f] {
			fmt.Fprintln(&b, l)
		}
	}
	return b.String()
}

func TestCuratedMatchesUnixCommands(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("grep"); err != nil {
		t.Skip("grep not found")
	}
	repo, target := startCompareDeployment(t)

	t.Run("read", func(t *testing.T) {
		for name, text := range compareTree {
			got, status := runAgsh(t, target, "read", "/repo/"+name)
			if status != 0 || got != text {
				t.Errorf("read %s = %q (status %d), want %q", name, got, status, text)
			}
		}
	})
	t.Run("read offset limit", func(t *testing.T) {
		cases := []struct {
			args []string
			want string
		}{
			{[]string{"--offset", "3", "--limit", "2"}, "three\nfour readme\n"},
			{[]string{"--offset", "-3"}, "nine readme\nten\n"},
			{[]string{"--offset", "9"}, "nine readme\nten\n"},
			{[]string{"--limit", "1"}, "one\n"},
		}
		for _, c := range cases {
			got, _ := runAgsh(t, target, append([]string{"read", "/repo/src/util/notes.txt"}, c.args...)...)
			if got != c.want {
				t.Errorf("read %v = %q, want %q", c.args, got, c.want)
			}
		}
	})
	for _, args := range [][]string{{"-i", "readme"}, {"-i", "-A", "1", "readme"}, {"-i", "-B", "2", "readme"}, {"-i", "-C", "1", "readme"}, {"package"}} {
		t.Run("grep "+strings.Join(args, " "), func(t *testing.T) {
			got, _ := runAgsh(t, target, append([]string{"grep"}, args...)...)
			want := runUnix(t, repo, "grep", append([]string{"-rn", "--exclude-dir=.git"}, append(args, ".")...)...)
			if grepGroups(got) != grepGroups(want) {
				t.Errorf("agsh grep %v:\n%s\ngrep -rn:\n%s", args, got, want)
			}
			if strings.Contains(strings.Join(args, " "), "-") && strings.Count(got, "--\n") != strings.Count(want, "--\n") {
				t.Errorf("group separators differ:\n%s\nvs\n%s", got, want)
			}
		})
	}
	t.Run("glob", func(t *testing.T) {
		got, _ := runAgsh(t, target, "glob", "*.go")
		want := runUnix(t, repo, "find", ".", "-name", "*.go", "-type", "f", "-not", "-path", "./.git/*")
		if sortedLines(got) != sortedLines(strings.ReplaceAll(want, "./", "")) {
			t.Errorf("glob *.go:\n%s\nfind:\n%s", got, want)
		}
	})
	t.Run("ls", func(t *testing.T) {
		got, _ := runAgsh(t, target, "ls", "/repo/src")
		want := runUnix(t, filepath.Join(repo, "src"), "ls", "-p")
		if got != want {
			t.Errorf("ls:\n%s\nls -p:\n%s", got, want)
		}
	})
	t.Run("diff", func(t *testing.T) {
		if err := os.WriteFile(filepath.Join(repo, "README.md"), []byte("# Demo\nchanged\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		got, _ := runAgsh(t, target, "diff")
		want := runUnix(t, repo, "git", "diff", "HEAD")
		if got != want {
			t.Errorf("diff:\n%s\ngit diff HEAD:\n%s", got, want)
		}
	})
}

func sortedLines(s string) string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	sort.Strings(l)
	return strings.Join(l, "\n")
}
