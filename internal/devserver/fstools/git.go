package fstools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// git runs on served repositories, whose .git is not the operator's: a
// repository's config (core.fsmonitor, diff.external, textconv and filter
// drivers, gpg.program with log.showSignature, core.pager, core.sshCommand
// of a promisor remote…), its hooks and its info/attributes can all name
// programs. So git never reads them: it runs with a clean GIT_DIR of its
// own — a temporary directory holding a copy of HEAD, a minimal config (the
// repository format and object format only) and links to the real objects,
// refs and packed-refs — the real work tree (GIT_WORK_TREE) and the real
// index (GIT_INDEX_FILE); with no system or global config; and with the
// known program keys overridden on the command line as well. A filter or
// diff driver that .gitattributes names is then undefined, so nothing runs.

// gitEnv is the environment git runs with: the caller's without any GIT_*
// variable (GIT_EXTERNAL_DIFF, GIT_SSH_COMMAND, GIT_DIR…), no system or
// global config, no pager, no prompts, no optional locks (a read must not
// contend with the agent's writes), no lazy fetch, C locale.
func gitEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "GIT_") || strings.HasPrefix(kv, "PAGER=") || strings.HasPrefix(kv, "LC_ALL=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_ATTR_NOSYSTEM=1",
		"GIT_PAGER=cat", "PAGER=cat", "GIT_TERMINAL_PROMPT=0", "GIT_ASKPASS=", "SSH_ASKPASS=",
		"GIT_OPTIONAL_LOCKS=0", "GIT_NO_LAZY_FETCH=1", "GIT_NO_REPLACE_OBJECTS=1",
		"GIT_PROTOCOL_FROM_USER=0", "LC_ALL=C")
}

// gitSafetyArgs override, on the command line, every configuration key
// known to name a program or reach the network, in case a value comes from
// anywhere despite the clean GIT_DIR.
var gitSafetyArgs = []string{
	"-c", "core.fsmonitor=false", "-c", "core.hooksPath=" + os.DevNull,
	"-c", "core.pager=cat", "-c", "core.sshCommand=", "-c", "core.askPass=",
	"-c", "core.untrackedCache=false", "-c", "core.attributesFile=" + os.DevNull,
	"-c", "diff.external=", "-c", "log.showSignature=false", "-c", "gpg.program=" + os.DevNull,
	"-c", "protocol.allow=never", "-c", "credential.helper=", "-c", "submodule.recurse=false",
	"-c", "diff.ignoreSubmodules=all", "-c", "core.alternateRefsCommand=",
}

// repo is a git checkout found from a directory, by reading files only.
type repo struct {
	top    string // the work tree
	gitDir string // its git directory (.git, or .git/worktrees/NAME)
	common string // the common directory (objects, refs, config)
}

// isGitDir reports whether d looks like a git directory: HEAD, objects and
// refs.
func isGitDir(d string) bool {
	return fileExists(filepath.Join(d, "HEAD")) && fileExists(filepath.Join(d, "objects")) && fileExists(filepath.Join(d, "refs"))
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// formatCache keeps the repository-format lines of each config file, by
// its path, size and modification time.
var formatCache sync.Map // string → string

// formatConfig returns the part of the repository's config the clean
// GIT_DIR keeps: the repository format version and the object and ref
// storage formats. It asks git to read the file alone (--file: no includes,
// nothing run).
func formatConfig(ctx context.Context, common string) string {
	cfg := filepath.Join(common, "config")
	fi, err := os.Stat(cfg)
	if err != nil || !fi.Mode().IsRegular() {
		// None, or not a file git could read without hanging (a FIFO).
		return "[core]\n\trepositoryformatversion = 0\n"
	}
	key := fmt.Sprintf("%s\x00%d\x00%d", cfg, fi.Size(), fi.ModTime().UnixNano())
	if v, ok := formatCache.Load(key); ok {
		return v.(string)
	}
	cmd := exec.CommandContext(ctx, "git", "config", "--file", cfg, "--get-regexp",
		`^(core\.repositoryformatversion|extensions\.objectformat|extensions\.refstorage)$`)
	cmd.Env = gitEnv()
	cmd.Dir = os.TempDir()
	out, _ := cmd.Output()
	version, ext := "0", ""
	for _, line := range strings.Split(string(out), "\n") {
		k, v, _ := strings.Cut(strings.TrimSpace(line), " ")
		if !validConfigValue(v) {
			continue
		}
		switch k {
		case "core.repositoryformatversion":
			version = v
		case "extensions.objectformat":
			ext += "\tobjectformat = " + v + "\n"
		case "extensions.refstorage":
			ext += "\trefstorage = " + v + "\n"
		}
	}
	s := "[core]\n\trepositoryformatversion = " + version + "\n\tbare = false\n"
	if ext != "" {
		s += "[extensions]\n" + ext
	}
	formatCache.Store(key, s)
	return s
}

// validConfigValue accepts the plain words the format keys hold.
func validConfigValue(v string) bool {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return v != ""
}

// cleanGitDir makes the temporary git directory git runs with and returns
// it and the function removing it.
func cleanGitDir(ctx context.Context, r repo) (string, func(), error) {
	tmp, err := os.MkdirTemp("", "agsh-devserver-git-")
	if err != nil {
		return "", nil, err
	}
	done := func() { _ = os.RemoveAll(tmp) }
	// Files are read only when regular: a FIFO in a served .git would hang
	// the read (and git's).
	head, ok, err := readRegular(filepath.Join(r.gitDir, "HEAD"), 64<<10)
	switch {
	case errors.Is(err, errNotRegular):
		err = errors.New("HEAD is not a regular file")
	case err == nil && !ok:
		err = errors.New("HEAD is larger than 64 KiB")
	}
	if err == nil {
		err = regularOrAbsent(filepath.Join(r.gitDir, "index"))
	}
	if err != nil {
		done()
		return "", nil, err
	}
	if err := os.WriteFile(filepath.Join(tmp, "HEAD"), head, 0o600); err != nil {
		done()
		return "", nil, err
	}
	if err := os.WriteFile(filepath.Join(tmp, "config"), []byte(formatConfig(ctx, r.common)), 0o600); err != nil {
		done()
		return "", nil, err
	}
	// Data only: objects, refs, packed refs, the shallow list; a split
	// index's shared parts. Never config, hooks, info/attributes.
	links := []struct{ dir, name string }{
		{r.common, "objects"}, {r.common, "refs"}, {r.common, "packed-refs"},
		{r.common, "reftable"}, {r.common, "shallow"},
	}
	if shared, _ := filepath.Glob(filepath.Join(r.gitDir, "sharedindex.*")); len(shared) > 0 {
		for _, p := range shared {
			links = append(links, struct{ dir, name string }{r.gitDir, filepath.Base(p)})
		}
	}
	for _, l := range links {
		src := filepath.Join(l.dir, l.name)
		fi, err := os.Stat(src)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err == nil && !fi.IsDir() && !fi.Mode().IsRegular() {
			err = fmt.Errorf("%s is not a regular file", l.name)
		}
		if err != nil {
			done()
			return "", nil, err
		}
		if err := os.Symlink(src, filepath.Join(tmp, l.name)); err != nil {
			done()
			return "", nil, err
		}
	}
	if !fileExists(filepath.Join(tmp, "refs")) {
		_ = os.Mkdir(filepath.Join(tmp, "refs"), 0o700)
	}
	return tmp, done, nil
}

// regularOrAbsent fails when path exists and is not a regular file.
func regularOrAbsent(path string) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file", filepath.Base(path))
	}
	return nil
}

// gitTimeout bounds one git run: what git itself reads of a served
// repository (a loose ref, a pack) could be a FIFO that never ends.
// (A variable so that tests can make it short.)
var gitTimeout = 2 * time.Minute

// runGit runs git in dir, a directory of a checkout, with a clean git
// directory (see above), and returns its standard output.
func runGit(ctx context.Context, dir string, args ...string) ([]byte, error) {
	return runGitInput(ctx, dir, "", args...)
}

// runGitInput is runGit with stdin holding input.
func runGitInput(ctx context.Context, dir, input string, args ...string) ([]byte, error) {
	r, err := findRepo(ctx, dir)
	if err != nil {
		return nil, errors.New("git: " + err.Error())
	}
	gitDir, done, err := cleanGitDir(ctx, r)
	if err != nil {
		return nil, fmt.Errorf("git: preparing to read the checkout: %v", err)
	}
	defer done()
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", append(append([]string{"-C", dir}, gitSafetyArgs...), args...)...)
	cmd.Env = append(gitEnv(), "GIT_DIR="+gitDir, "GIT_WORK_TREE="+r.top,
		"GIT_INDEX_FILE="+filepath.Join(r.gitDir, "index"),
		"GIT_OBJECT_DIRECTORY="+filepath.Join(r.common, "objects"))
	cmd.Stdin = strings.NewReader(input)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = time.Second // a killed git's children cannot hold its output open
	if err := cmd.Run(); err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) && parent.Err() == nil {
			return nil, fmt.Errorf("git: no answer within %s (a file of the repository that never ends?)", gitTimeout)
		}
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

// refusedCheckout is checkout's error result for a mount whose .git was
// refused (findRepo).
type refusedCheckout string

func (r refusedCheckout) Error() string { return string(r) }

// checkout answers nil when dir is inside a git work tree (and not inside
// the git directory itself), else the error result naming the mount (its
// virtual path), with the reason when the checkout's .git was refused.
func checkout(ctx context.Context, dir, mount string) error {
	if _, err := findRepo(ctx, dir); err != nil {
		var why refusal
		if errors.As(err, &why) {
			return refusedCheckout(fmt.Sprintf("Not a git checkout: %s (%s)", mount, why))
		}
		return errorf("Not a git checkout: %s", mount)
	}
	out, err := runGit(ctx, dir, "rev-parse", "--is-inside-work-tree")
	if err != nil || strings.TrimSpace(string(out)) != "true" {
		return errorf("Not a git checkout: %s", mount)
	}
	return nil
}

// hasHead reports whether the checkout at dir has a commit.
func hasHead(ctx context.Context, dir string) bool {
	_, err := runGit(ctx, dir, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
	return err == nil
}

// emptyTree is the id of the empty tree in the checkout's hash format.
func emptyTree(ctx context.Context, dir string) (string, error) {
	out, err := runGitInput(ctx, dir, "", "hash-object", "-t", "tree", "--stdin")
	if err != nil {
		return "", errors.New("git: cannot compute the empty tree")
	}
	return strings.TrimSpace(string(out)), nil
}

// gitDiff is `git diff HEAD` of the checkout at dir limited to pathspec
// (relative to dir); a checkout without commits diffs against the empty
// tree, so its staged files show as added. No external diff, no textconv,
// submodules not entered (their own config would apply there).
func gitDiff(ctx context.Context, dir, pathspec string) ([]byte, error) {
	base := "HEAD"
	if !hasHead(ctx, dir) {
		t, err := emptyTree(ctx, dir)
		if err != nil {
			return nil, err
		}
		base = t
	}
	return runGit(ctx, dir, "diff", "--no-color", "--no-ext-diff", "--no-textconv", "--ignore-submodules=all",
		"--src-prefix=a/", "--dst-prefix=b/", "--no-relative", base, "--", ":(literal)"+pathspec)
}
