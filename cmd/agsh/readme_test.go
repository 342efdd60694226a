package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/internal/testcorpus"
)

// readmeCommand is one command of a README code block: a line, its
// continuation lines and, for a heredoc, the document up to its end word.
type readmeCommand struct {
	text string
	line int
}

// readmeBlocks answers the commands of every fenced code block of the
// README, trailing "  # comments" removed.
func readmeBlocks(t *testing.T, readme string) [][]readmeCommand {
	t.Helper()
	var blocks [][]readmeCommand
	var cur []readmeCommand
	in, skip := false, false
	comment := regexp.MustCompile(`\s{2,}#.*$`)
	heredoc := regexp.MustCompile(`<<-?'?(\w+)'?`)
	lines := strings.Split(readme, "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(l, "```") {
			if in {
				blocks = append(blocks, cur)
				cur = nil
			}
			in = !in
			// Blocks for another shell (```zsh, ```fish) are not run by bash.
			if lang := strings.TrimSpace(strings.TrimPrefix(l, "```")); in && lang != "" && lang != "sh" && lang != "bash" {
				skip = true
			} else if !in {
				skip = false
			}
			continue
		}
		if skip {
			continue
		}
		if !in || strings.TrimSpace(l) == "" {
			continue
		}
		c := readmeCommand{line: i + 1}
		text := comment.ReplaceAllString(l, "")
		for strings.HasSuffix(text, "\\") && i+1 < len(lines) {
			i++
			text = strings.TrimSuffix(text, "\\") + " " + strings.TrimSpace(comment.ReplaceAllString(lines[i], ""))
		}
		if m := heredoc.FindStringSubmatch(text); m != nil {
			for i+1 < len(lines) {
				i++
				text += "\n" + lines[i]
				if lines[i] == m[1] {
					break
				}
			}
		}
		c.text = text
		cur = append(cur, c)
	}
	return blocks
}

// firstWord answers a command's program, after VAR=value assignments.
func firstWord(cmd string) string {
	for _, w := range strings.Fields(cmd) {
		if !regexp.MustCompile(`^[A-Z_][A-Z0-9_]*=`).MatchString(w) {
			return w
		}
	}
	return ""
}

// isAgsh says a command runs agsh: it starts with agsh, pipes into it, or
// reads its output (source <(agsh …)).
func isAgsh(cmd string) bool {
	return firstWord(cmd) == "agsh" || regexp.MustCompile(`(\||<\()\s*agsh\b`).MatchString(cmd)
}

// buildDevserver builds agsh-devserver into dir.
func buildDevserver(t *testing.T, root, dir string) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not installed")
	}
	exe := filepath.Join(dir, "agsh-devserver")
	c := exec.Command("go", "build", "-o", exe, "./cmd/agsh-devserver")
	c.Dir = root
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("go build agsh-devserver: %v\n%s", err, out)
	}
	return exe
}

// freeAddr answers a free loopback address.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// startDevserver runs agsh-devserver with args (a README line's arguments)
// from root, and answers its printed agent URLs once it said "ready".
func startDevserver(t *testing.T, exe, root string, args []string) map[string]string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	c := exec.CommandContext(ctx, exe, args...)
	c.Dir = root
	var stderr bytes.Buffer
	c.Stderr = &stderr
	out, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = c.Wait() })
	urls := map[string]string{}
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 1 && f[0] == "ready" {
			go func() { _, _ = bufio.NewReader(out).WriteTo(new(bytes.Buffer)) }()
			return urls
		}
		if len(f) == 2 {
			urls[f[0]] = f[1]
		}
	}
	_ = c.Wait()
	t.Fatalf("agsh-devserver %s did not start:\n%s", strings.Join(args, " "), stderr.String())
	return nil
}

// TestReadmeExamples runs every command of the README's code blocks that
// invokes agsh, verbatim, with bash, against what `make demo` serves:
// agsh-devserver --root <the repository>. A block that starts its own
// agsh-devserver (the development deployment's section) runs that server
// (on a free port instead of 127.0.0.1:39400) and its agsh commands against
// it. Every agsh example must exit 0; every make target and go install path
// must exist.
func TestReadmeExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the README examples")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	requireGit(t)
	root := testcorpus.Root(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	makefile, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	wrapper := fmt.Sprintf("#!/bin/sh\nAGSH_TEST_AS_AGSH=1 exec '%s' \"$@\"\n", os.Args[0])
	if err := os.WriteFile(filepath.Join(bin, "agsh"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	devserver := buildDevserver(t, root, bin)
	demo := startDevserver(t, devserver, root, []string{"--addr", "127.0.0.1:0", "--root", "."})

	ran := 0
	for _, block := range readmeBlocks(t, string(readme)) {
		target := demo["executor"]
		addr := ""
		for _, c := range block {
			switch firstWord(c.text) {
			case "make":
				for _, goal := range strings.Fields(c.text)[1:] {
					if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(goal) + `:`).Match(makefile) {
						t.Errorf("README:%d: make %s: no such target", c.line, goal)
					}
				}
			case "go":
				f := strings.Fields(c.text)
				if len(f) >= 3 && f[1] == "install" {
					pkg, _, _ := strings.Cut(strings.TrimPrefix(f[2], "github.com/agsh-dev/agsh/"), "@")
					if st, err := os.Stat(filepath.Join(root, pkg)); err != nil || !st.IsDir() {
						t.Errorf("README:%d: go install %s: no such package", c.line, f[2])
					}
				}
			case "agsh-devserver":
				args := strings.Fields(c.text)[1:]
				addr = freeAddr(t)
				hasAddr := false
				for i, a := range args {
					if a == "--addr" && i+1 < len(args) {
						args[i+1], hasAddr = addr, true
					}
				}
				if !hasAddr {
					args = append(args, "--addr", addr)
				}
				urls := startDevserver(t, devserver, root, args)
				target = urls["executor"]
				ran++
			}
		}
		for _, c := range block {
			if !isAgsh(c.text) {
				continue
			}
			text := c.text
			if addr != "" {
				text = strings.ReplaceAll(text, "127.0.0.1:39400", addr)
			}
			ran++
			t.Run(fmt.Sprintf("line%d", c.line), func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				cmd := exec.CommandContext(ctx, "bash", "-c", text)
				cmd.Dir = tmp
				cmd.Stdin = strings.NewReader("")
				cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
					"AGENT_SHELL_TARGET="+target, "NO_COLOR=1", "HOME="+tmp, "XDG_STATE_HOME="+tmp, "XDG_CACHE_HOME="+tmp,
					"AGENT_SHELL_BEARER_TOKEN=", "CURSOR_API_KEY=", "CURSOR_API_KEY_FILE=", "AGENT_SERVE_CONFIG_DIR="+tmp)
				var out, errb bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &errb
				if err := cmd.Run(); err != nil {
					t.Errorf("README:%d: %s\n%v\nstdout:\n%s\nstderr:\n%s", c.line, text, err, out.String(), errb.String())
				}
			})
		}
	}
	if ran < 10 {
		t.Errorf("only %d README commands ran; the extraction is broken", ran)
	}
}

// TestReadmeDevserverFlags: the README's flag table of the development
// deployment lists every flag agsh-devserver --help prints, and no other.
func TestReadmeDevserverFlags(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the devserver build")
	}
	root := testcorpus.Root(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	exe := buildDevserver(t, root, t.TempDir())
	help, _ := exec.Command(exe, "--help").CombinedOutput()
	flagRE := regexp.MustCompile(`^\s+(?:-\w, )?(--[a-z][a-z0-9-]*)`)
	var want []string
	for _, l := range strings.Split(string(help), "\n") {
		if m := flagRE.FindStringSubmatch(l); m != nil && m[1] != "--help" {
			want = append(want, m[1])
		}
	}
	if len(want) < 5 {
		t.Fatalf("found %d flags in agsh-devserver --help:\n%s", len(want), help)
	}
	rowRE := regexp.MustCompile("(?m)^\\| `(--[a-z][a-z0-9-]*)")
	documented := map[string]bool{}
	for _, m := range rowRE.FindAllStringSubmatch(string(readme), -1) {
		documented[m[1]] = true
	}
	for _, f := range want {
		if !documented[f] {
			t.Errorf("agsh-devserver %s is not in the README's flag table", f)
		}
		delete(documented, f)
	}
	for f := range documented {
		if !strings.Contains(string(readme), "| `"+f+" <") && !strings.HasPrefix(f, "--target") {
			// agsh's own options table shares the row form: only flags
			// agsh does not have are stray devserver rows.
			if !regexp.MustCompile(`(?m)^\s+` + regexp.QuoteMeta(f) + `\b`).Match(agshHelp(t)) {
				t.Errorf("README documents %s, which neither agsh-devserver nor agsh has", f)
			}
		}
	}
}

// agshHelp answers agsh --help.
func agshHelp(t *testing.T) []byte {
	t.Helper()
	out, _ := agshCommand("--help").CombinedOutput()
	return out
}
