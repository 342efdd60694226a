package cli

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
	"sync"
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

// buildDevserver puts agsh-devserver into dir: built once for the whole
// run of the package (removed when it ends, TestMain), then linked or
// copied.
func buildDevserver(t *testing.T, root, dir string) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not installed")
	}
	devserverBinOnce.Do(func() {
		d, err := os.MkdirTemp("", "agsh-devserver-built-")
		if err != nil {
			devserverBinErr = err
			return
		}
		devserverBinDir = d
		devserverBin = filepath.Join(d, "agsh-devserver")
		c := exec.Command("go", "build", "-o", devserverBin, "./cmd/agsh-devserver")
		c.Dir = root
		if out, err := c.CombinedOutput(); err != nil {
			devserverBinErr = fmt.Errorf("go build agsh-devserver: %v\n%s", err, out)
		}
	})
	if devserverBinErr != nil {
		t.Fatal(devserverBinErr)
	}
	exe := filepath.Join(dir, "agsh-devserver")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(devserverBin, exe); err != nil {
		data, err := os.ReadFile(devserverBin)
		if err == nil {
			err = os.WriteFile(exe, data, 0o755)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return exe
}

// The one build of agsh-devserver for the run (buildDevserver).
var (
	devserverBinOnce sync.Once
	devserverBin     string
	devserverBinDir  string
	devserverBinErr  error
)

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
		if addr != "" {
			ran += runReadmeCurls(t, block, addr, bin, tmp, target)
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
				runReadmeCommand(t, c.line, text, "", bin, tmp, target)
			})
			// A script's status is its last command's: each line of a
			// heredoc script must also succeed on its own.
			// With the script's launch options (agsh --yes <<'EOF').
			launch, lines := heredocLines(text)
			for i, l := range lines {
				ran++
				t.Run(fmt.Sprintf("line%d", c.line+1+i), func(t *testing.T) {
					runReadmeCommand(t, c.line+1+i, launch, l+"\n", bin, tmp, target)
				})
			}
		}
	}
	ran += checkReadmeInline(t, string(readme), string(makefile), root, bin, tmp, demo["executor"])
	if ran < 10 {
		t.Errorf("only %d README commands ran; the extraction is broken", ran)
	}
}

// runReadmeCurls runs a block that starts its own agsh-devserver and talks
// to it with curl: the block's commands after the server's line, agsh's
// aside, run in order as one bash script (a variable one sets is the next
// one's), against that server, and must succeed. It answers how many
// scripts it ran (0 for a block without curl).
func runReadmeCurls(t *testing.T, block []readmeCommand, addr, bin, home, target string) int {
	t.Helper()
	var lines []string
	after, curl, first := false, false, 0
	for _, c := range block {
		switch {
		case firstWord(c.text) == "agsh-devserver":
			after = true
		case after && !isAgsh(c.text):
			if first == 0 {
				first = c.line
			}
			lines = append(lines, c.text)
			curl = curl || strings.Contains(c.text, "curl ")
		}
	}
	if !curl {
		return 0
	}
	script := "set -e -o pipefail\n" + strings.ReplaceAll(strings.Join(lines, "\n"), "127.0.0.1:39400", addr)
	t.Run(fmt.Sprintf("line%d", first), func(t *testing.T) {
		// A session's record that shows a failed call is a broken example.
		if out := runReadmeCommand(t, first, script, "", bin, home, target); strings.Contains(out, `"isError":true`) {
			t.Errorf("README:%d: a call of the example failed:\n%s", first, out)
		}
	})
	return 1
}

// runReadmeCommand runs one README command with bash against target and
// fails the test unless it exits 0. It answers the command's output.
func runReadmeCommand(t *testing.T, line int, text, stdin, bin, home, target string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", text)
	cmd.Dir = home
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"AGENT_SHELL_TARGET="+target, "NO_COLOR=1", "HOME="+home, "XDG_STATE_HOME="+home, "XDG_CACHE_HOME="+home,
		"AGENT_SHELL_BEARER_TOKEN=", "CURSOR_API_KEY=", "CURSOR_API_KEY_FILE=", "AGENT_SERVE_CONFIG_DIR="+home)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	where := fmt.Sprintf("README:%d", line)
	if line == 0 {
		where = "README (inline)"
	}
	if err := cmd.Run(); err != nil {
		t.Errorf("%s: %s\n(stdin %q)\n%v\nstdout:\n%s\nstderr:\n%s", where, text, stdin, err, out.String(), errb.String())
	}
	return out.String()
}

// heredocLines answers the launch words (agsh, agsh --yes) and the
// commands of the document of `agsh [--options] <<'EOF'`
// (blank lines and comments left out); none for any other command.
func heredocLines(text string) (launch string, lines []string) {
	first, doc, ok := strings.Cut(text, "\n")
	m := regexp.MustCompile(`\b(agsh(?:\s+--[a-z-]+)*)\s*<<-?'?(\w+)'?\s*$`).FindStringSubmatch(first)
	if !ok || m == nil {
		return "", nil
	}
	var out []string
	for _, l := range strings.Split(doc, "\n") {
		if l == m[2] {
			break
		}
		if s := strings.TrimSpace(l); s != "" && !strings.HasPrefix(s, "#") {
			out = append(out, l)
		}
	}
	return m[1], out
}

// checkReadmeInline checks the commands quoted inline in the README's prose:
// every `make X` names a target, every `scripts/…` an executable script,
// every `go install ./…` a package, and every `agsh …` that is a plain
// command (not a synopsis with alternatives) runs. It answers how many it
// checked.
func checkReadmeInline(t *testing.T, readme, makefile, root, bin, home, target string) int {
	t.Helper()
	n := 0
	// The prose outside code blocks and tables.
	var prose strings.Builder
	in := false
	for _, l := range strings.Split(readme, "\n") {
		if strings.HasPrefix(l, "```") {
			in = !in
			continue
		}
		if !in && !strings.HasPrefix(l, "|") {
			prose.WriteString(l + "\n")
		}
	}
	for _, m := range regexp.MustCompile("`([^`\n]+)`").FindAllStringSubmatch(prose.String(), -1) {
		code := m[1]
		f := strings.Fields(code)
		if len(f) == 0 {
			continue
		}
		switch {
		case f[0] == "make" && len(f) > 1:
			n++
			for _, goal := range f[1:] {
				if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(goal) + `:`).MatchString(makefile) {
					t.Errorf("README: `%s`: no such make target", code)
				}
			}
		case strings.HasPrefix(f[0], "scripts/"):
			n++
			if st, err := os.Stat(filepath.Join(root, f[0])); err != nil || st.Mode()&0o111 == 0 {
				t.Errorf("README: `%s`: no such executable script", code)
			}
		case f[0] == "go" && len(f) > 2 && f[1] == "install" && strings.HasPrefix(f[2], "./"):
			n++
			if st, err := os.Stat(filepath.Join(root, f[2])); err != nil || !st.IsDir() {
				t.Errorf("README: `%s`: no such package", code)
			}
		case f[0] == "agsh" && len(f) > 1 && !strings.ContainsAny(code, "|<>…"):
			n++
			t.Run("inline "+code, func(t *testing.T) { runReadmeCommand(t, 0, code, "", bin, home, target) })
		}
	}
	return n
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

// TestDemoScript runs scripts/demo.sh (what `make demo` runs after the
// build) from a copy of the layout it expects: bin/agsh, bin/agsh-devserver
// and the tree it serves. With 127.0.0.1:39400 taken it says so and uses a
// free port; either way it prints the export line for a second terminal and
// where the binary is, runs agsh against the server, and the server stops
// when agsh exits. With the port free it uses 127.0.0.1:39400.
func TestDemoScript(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the demo script")
	}
	dir := demoLayout(t, "docs")
	if err := os.WriteFile(filepath.Join(dir, "docs", "guide.md"), []byte("# guide\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	wrapper := fmt.Sprintf("#!/bin/sh\nAGSH_TEST_AS_AGSH=1 exec '%s' \"$@\"\n", os.Args[0])
	if err := os.WriteFile(filepath.Join(dir, "bin", "agsh"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	buildDevserver(t, testcorpus.Root(t), filepath.Join(dir, "bin"))
	demo := func() (stdout, stderr string) {
		t.Helper()
		c := exec.Command(filepath.Join(dir, "scripts", "demo.sh"), "ls", "/repo/docs")
		c.Env = append(os.Environ(), "NO_COLOR=1", "AGENT_SHELL_TARGET=", "HOME="+dir, "XDG_STATE_HOME="+dir)
		var out, errb bytes.Buffer
		c.Stdout, c.Stderr = &out, &errb
		if err := c.Run(); err != nil {
			t.Fatalf("demo.sh: %v\n%s%s", err, out.String(), errb.String())
		}
		return out.String(), errb.String()
	}
	exportRE := regexp.MustCompile(`(?m)^  export AGENT_SHELL_TARGET=http://(127\.0\.0\.1:\d+)/executor$`)
	check := func(stdout, stderr string) string {
		t.Helper()
		if stdout != "guide.md\n" {
			t.Errorf("agsh ls /repo/docs in the demo printed %q", stdout)
		}
		if !strings.Contains(stderr, "The agsh binary is "+filepath.Join(dir, "bin", "agsh")) {
			t.Errorf("the demo does not say where the binary is:\n%s", stderr)
		}
		m := exportRE.FindStringSubmatch(stderr)
		if m == nil {
			t.Fatalf("no export line for a second terminal:\n%s", stderr)
		}
		if c, err := net.DialTimeout("tcp", m[1], time.Second); err == nil {
			c.Close()
			t.Errorf("the server on %s still answers after agsh exited", m[1])
		}
		return m[1]
	}

	// 127.0.0.1:39400 taken (by this test, or already by someone else).
	if l, err := net.Listen("tcp", "127.0.0.1:39400"); err == nil {
		stdout, stderr := demo()
		l.Close()
		if addr := check(stdout, stderr); addr == "127.0.0.1:39400" || !strings.Contains(stderr, "127.0.0.1:39400 is taken") {
			t.Errorf("with 127.0.0.1:39400 taken the demo used %s:\n%s", addr, stderr)
		}
	}
	// Free (unless another process took it meanwhile: the demo then says so).
	stdout, stderr := demo()
	addr := check(stdout, stderr)
	if !strings.Contains(stderr, "is taken") && addr != "127.0.0.1:39400" {
		t.Errorf("with 127.0.0.1:39400 free the demo used %s:\n%s", addr, stderr)
	}
}

// demoLayout is a temporary copy of the layout scripts/demo.sh expects:
// its scripts/demo.sh, an empty bin/, and the folders named (skipped where
// bash is not installed).
func demoLayout(t *testing.T, also ...string) string {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	dir := t.TempDir()
	for _, d := range append([]string{"scripts", "bin"}, also...) {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	script, err := os.ReadFile(filepath.Join(testcorpus.Root(t), "scripts", "demo.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "scripts", "demo.sh"), script, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}
