package devserver_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/internal/devserver"
	"github.com/agsh-dev/agsh/internal/devserver/devservertest"
	"github.com/agsh-dev/agsh/internal/devserver/tool"
)

// needGit skips without git, except in CI, which installs it.
func needGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("git is required in CI: %v", err)
		}
		t.Skipf("git not installed: %v", err)
	}
}

// gitIn runs git in dir for a test's setup, isolated from the user's
// config; it returns the output and whether git succeeded.
func gitIn(t *testing.T, dir, stdin string, args ...string) (string, bool) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+dir,
		"GIT_AUTHOR_NAME=Ada", "GIT_AUTHOR_EMAIL=ada@example.com", "GIT_COMMITTER_NAME=Ada",
		"GIT_COMMITTER_EMAIL=ada@example.com", "GIT_TERMINAL_PROMPT=0")
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	return string(out), err == nil
}

func mustGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, ok := gitIn(t, dir, "", args...)
	if !ok {
		t.Fatalf("git %v: %s", args, out)
	}
	return strings.TrimSpace(out)
}

// markerKit writes scripts that each leave a marker file when run.
type markerKit struct{ scripts, markers string }

// script writes an executable that touches the marker name and then runs
// body (sh).
func (k markerKit) script(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(k.scripts, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\ntouch '"+filepath.Join(k.markers, name)+"'\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// fired lists the markers left so far, and removes them.
func (k markerKit) fired(t *testing.T) []string {
	t.Helper()
	des, err := os.ReadDir(k.markers)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range des {
		names = append(names, de.Name())
		_ = os.Remove(filepath.Join(k.markers, de.Name()))
	}
	sort.Strings(names)
	return names
}

// hostileRepo makes a checkout whose .git names a program for every
// executable key: core.fsmonitor, hooks, diff.external, a textconv driver,
// clean/smudge and process filter drivers (named by .gitattributes and by
// .git/info/attributes), log.showSignature with gpg.program over a signed
// commit, core.pager; and leaves changes in the work tree for the filters
// to see.
func hostileRepo(t *testing.T, k markerKit) string {
	dir := t.TempDir()
	mustGit(t, dir, "init", "-q", "-b", "main")
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.txt", "one\n")
	write("b.dat", "data\n")
	write(".gitattributes", "*.dat filter=evilp diff=evil\n")
	mustGit(t, dir, "add", ".")
	mustGit(t, dir, "commit", "-q", "-m", "first")
	// A signed commit (the signature is garbage: verifying it runs gpg.program).
	tree := mustGit(t, dir, "rev-parse", "HEAD^{tree}")
	parent := mustGit(t, dir, "rev-parse", "HEAD")
	commit := "tree " + tree + "\nparent " + parent + "\nauthor Ada <ada@example.com> 1700000000 +0000\n" +
		"committer Ada <ada@example.com> 1700000000 +0000\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEEAAAA\n -----END PGP SIGNATURE-----\n\nsigned\n"
	out, ok := gitIn(t, dir, commit, "hash-object", "-t", "commit", "-w", "--stdin")
	if !ok {
		t.Fatalf("hash-object: %s", out)
	}
	mustGit(t, dir, "update-ref", "HEAD", strings.TrimSpace(out))

	for key, script := range map[string]string{
		"core.fsmonitor":       k.script(t, "fsmonitor", "exit 0"),
		"core.pager":           k.script(t, "pager", "cat"),
		"diff.external":        k.script(t, "external", "exit 0"),
		"diff.evil.textconv":   k.script(t, "textconv", `cat "$1"`),
		"filter.evilc.clean":   k.script(t, "clean", "cat"),
		"filter.evilc.smudge":  k.script(t, "smudge", "cat"),
		"filter.evilp.process": k.script(t, "process", "exit 1"),
		"gpg.program":          k.script(t, "gpg", "exit 1"),
	} {
		mustGit(t, dir, "config", key, script)
	}
	mustGit(t, dir, "config", "log.showSignature", "true")
	mustGit(t, dir, "config", "filter.evilc.required", "true")
	if err := os.MkdirAll(filepath.Join(dir, ".git", "info"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".git", "info", "attributes"), []byte("*.txt filter=evilc diff=evil\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, hook := range []string{"post-index-change", "reference-transaction", "post-checkout", "pre-auto-gc", "fsmonitor-watchman", "post-rewrite", "pre-commit"} {
		k.script(t, "hook-"+hook, "exit 0")
		if err := os.Rename(filepath.Join(k.scripts, "hook-"+hook), filepath.Join(dir, ".git", "hooks", hook)); err != nil {
			t.Fatal(err)
		}
	}
	// Work-tree changes with new times, so the index is stale and git must
	// read (and would filter) the files.
	write("a.txt", "one\ntwo\n")
	write("b.dat", "data\nmore\n")
	later := time.Now().Add(time.Hour)
	_ = os.Chtimes(filepath.Join(dir, "a.txt"), later, later)
	_ = os.Chtimes(filepath.Join(dir, "b.dat"), later, later)
	k.fired(t) // setup itself may have run some
	return dir
}

// promisorRepo makes a partial clone whose promisor remote is reached over
// ssh with core.sshCommand, and removes a blob a diff needs: reading it
// would make git fetch it lazily, running the ssh command.
func promisorRepo(t *testing.T, k markerKit) string {
	dir := t.TempDir()
	mustGit(t, dir, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(dir, "c.txt"), []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustGit(t, dir, "add", ".")
	mustGit(t, dir, "commit", "-q", "-m", "first")
	blob := mustGit(t, dir, "rev-parse", "HEAD:c.txt")
	if err := os.Remove(filepath.Join(dir, ".git", "objects", blob[:2], blob[2:])); err != nil {
		t.Fatal(err)
	}
	mustGit(t, dir, "config", "core.repositoryformatversion", "1")
	mustGit(t, dir, "config", "extensions.partialClone", "origin")
	mustGit(t, dir, "config", "remote.origin.url", "ssh://git.example.invalid/repo.git")
	mustGit(t, dir, "config", "remote.origin.promisor", "true")
	mustGit(t, dir, "config", "core.sshCommand", k.script(t, "ssh", "exit 1"))
	if err := os.WriteFile(filepath.Join(dir, "c.txt"), []byte("new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	k.fired(t)
	return dir
}

// TestGitRunsNoRepositoryPrograms: a served repository's .git cannot make
// diff or list_changes run a program. The same repositories do run the
// programs under a plain git (the markers are live), and none of them under
// the deployment.
func TestGitRunsNoRepositoryPrograms(t *testing.T) {
	needGit(t)
	k := markerKit{scripts: t.TempDir(), markers: t.TempDir()}
	hostile := hostileRepo(t, k)
	promisor := promisorRepo(t, k)

	// The markers are live: a plain git, as the deployment ran it before,
	// runs the repository's programs.
	gitIn(t, hostile, "", "diff", "--no-color", "--no-ext-diff", "HEAD", "--", "a.txt")
	gitIn(t, hostile, "", "diff", "HEAD", "--", "a.txt")
	gitIn(t, hostile, "", "diff", "HEAD", "--", "b.dat")
	gitIn(t, hostile, "", "log", "-n", "3")
	gitIn(t, promisor, "", "diff", "--no-ext-diff", "HEAD")
	gitIn(t, hostile, "", "cat-file", "--filters", "HEAD:a.txt") // smudge
	gitIn(t, hostile, "", "status")                              // writes the index: post-index-change
	want := []string{"clean", "external", "fsmonitor", "gpg", "hook-post-index-change", "process", "smudge", "ssh", "textconv"}
	if script, err := exec.LookPath("script"); err == nil {
		// The pager runs when standard output is a terminal.
		cmd := exec.Command(script, "-qec", "git -C '"+hostile+"' log -n 1 --no-show-signature", os.DevNull)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "TERM=dumb")
		_ = cmd.Run()
		want = append(want, "pager")
	}
	live := strings.Join(k.fired(t), " ")
	for _, w := range want {
		if !strings.Contains(live, w) {
			t.Fatalf("the test repository does not run %s under a plain git (ran: %s)", w, live)
		}
	}

	s := devservertest.StartDeployment(t, devserver.Options{Root: hostile, Mounts: []tool.Mount{{Path: "/promisor", Dir: promisor}}})
	exec := s.AgentURL("executor")
	for _, c := range []struct{ tool, input, want string }{
		{"diff", `{"input":{"path":"/repo"}}`, "+two"},
		{"diff", `{"input":{"path":"/repo/a.txt"}}`, "+two"},
		{"diff", `{"input":{"path":"/repo/b.dat"}}`, "+more"},
		{"diff", `{"input":{"path":"/promisor"}}`, ""},
		{"diff", `{"input":{"path":"/"}}`, ""},
		{"list_changes", `{"input":{"limit":5}}`, `"subject":"signed"`},
	} {
		status, body := post(t, exec, c.tool, "", c.input)
		if status != 200 || !strings.Contains(string(body), c.want) {
			t.Errorf("%s %s: %d %s", c.tool, c.input, status, clipBody(body))
		}
		if fired := k.fired(t); len(fired) > 0 {
			t.Fatalf("%s %s ran the repository's programs: %v", c.tool, c.input, fired)
		}
	}
}
