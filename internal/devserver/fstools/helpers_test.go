package fstools

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/internal/devserver/tool"
)

// writeTree creates files (path → content) under a new temporary directory.
// A path ending in "/" makes an empty directory.
func writeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if name[len(name)-1] == '/' {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// toolSet returns the tools over dir mounted at /repo, by name.
func toolSet(dir string, more ...tool.Mount) map[string]*tool.Tool {
	mounts := append([]tool.Mount{{Path: "/repo", Dir: dir}}, more...)
	m := map[string]*tool.Tool{}
	for _, tl := range Tools(mounts) {
		m[tl.Name] = tl
	}
	return m
}

// outcome is a call's result as text.
type outcome struct {
	text    string
	isError bool
	err     error // an *InputError (400)
}

// run calls the named tool with a JSON input.
func run(t testing.TB, tools map[string]*tool.Tool, name, in string) outcome {
	t.Helper()
	tl, ok := tools[name]
	if !ok {
		t.Fatalf("no tool %q", name)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := tl.Call(ctx, &tool.Call{Input: json.RawMessage(in)})
	if err != nil {
		return outcome{err: err}
	}
	var s string
	if e := json.Unmarshal(res.Value, &s); e != nil {
		s = string(res.Value)
	}
	return outcome{text: s, isError: res.IsError}
}

// mustText calls the tool and fails unless it answers a successful result.
func mustText(t testing.TB, tools map[string]*tool.Tool, name, in string) string {
	t.Helper()
	o := run(t, tools, name, in)
	if o.err != nil || o.isError {
		t.Fatalf("%s %s: err=%v isError=%v text=%q", name, in, o.err, o.isError, o.text)
	}
	return o.text
}

// needTool skips when an outside program is missing, unless CI is set.
func needTool(t testing.TB, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is required in CI: %v", name, err)
		}
		t.Skipf("%s not installed: %v", name, err)
	}
}

// gitRun runs git in dir with a fixed identity and dates.
func gitRun(t testing.TB, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(),
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+dir,
		"GIT_AUTHOR_NAME=Ada Lovelace", "GIT_AUTHOR_EMAIL=ada@example.com",
		"GIT_COMMITTER_NAME=Ada Lovelace", "GIT_COMMITTER_EMAIL=ada@example.com",
		"GIT_AUTHOR_DATE=2024-01-02T03:04:05Z", "GIT_COMMITTER_DATE=2024-01-02T03:04:05Z")
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// js quotes s as a JSON string.
func js(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// toolMounts is the single /repo mount over dir.
func toolMounts(dir string) []tool.Mount { return []tool.Mount{{Path: "/repo", Dir: dir}} }
