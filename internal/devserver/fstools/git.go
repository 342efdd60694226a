package fstools

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
)

// gitEnv is the environment git runs with: no pager, no prompts, no
// optional locks (a read must not contend with the agent's writes), and
// no user or system config changing the output (diff.external, color).
func gitEnv() []string {
	env := os.Environ()
	return append(env,
		"GIT_PAGER=cat", "PAGER=cat", "GIT_TERMINAL_PROMPT=0",
		"GIT_OPTIONAL_LOCKS=0", "GIT_CONFIG_NOSYSTEM=1", "LC_ALL=C")
}

// runGit runs git in dir and returns its standard output.
func runGit(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.Env = gitEnv()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		if msg == "" {
			msg = err.Error()
		}
		return nil, errors.New("git: " + msg)
	}
	return stdout.Bytes(), nil
}

// isCheckout reports whether dir is inside a git work tree.
func isCheckout(ctx context.Context, dir string) bool {
	out, err := runGit(ctx, dir, "rev-parse", "--is-inside-work-tree")
	return err == nil && strings.TrimSpace(string(out)) == "true"
}

// hasHead reports whether the checkout at dir has a commit.
func hasHead(ctx context.Context, dir string) bool {
	_, err := runGit(ctx, dir, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
	return err == nil
}

// emptyTree is the id of the empty tree in the checkout's hash format.
func emptyTree(ctx context.Context, dir string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", "-C", dir, "hash-object", "-t", "tree", "--stdin")
	cmd.Env = gitEnv()
	cmd.Stdin = strings.NewReader("")
	out, err := cmd.Output()
	if err != nil {
		return "", errors.New("git: cannot compute the empty tree")
	}
	return strings.TrimSpace(string(out)), nil
}

// gitDiff is `git diff HEAD` of the checkout at dir limited to pathspec
// (relative to dir); a checkout without commits diffs against the empty
// tree, so its staged files show as added.
func gitDiff(ctx context.Context, dir, pathspec string) ([]byte, error) {
	base := "HEAD"
	if !hasHead(ctx, dir) {
		t, err := emptyTree(ctx, dir)
		if err != nil {
			return nil, err
		}
		base = t
	}
	return runGit(ctx, dir, "diff", "--no-color", "--no-ext-diff",
		"--src-prefix=a/", "--dst-prefix=b/", "--no-relative", base, "--", ":(literal)"+pathspec)
}
