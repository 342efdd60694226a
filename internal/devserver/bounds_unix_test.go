//go:build unix

package devserver_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/internal/devserver"
	"github.com/agsh-dev/agsh/internal/devserver/devservertest"
)

// postWithin posts a call and fails the test, rather than hang it, when
// no answer comes within a generous minute.
func postWithin(t *testing.T, exec, tool, body string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, exec+"/v1/tools/"+tool, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: no answer: %v", tool, body, err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return resp.StatusCode, b.String()
}

// TestGrepBoundedWork: grep reads regular files only, with the 64 MiB skip,
// whether the path names the file or a directory holding it (or a symlink to
// it).
func TestGrepBoundedWork(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "small.txt"), []byte("needle\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "pipe"), 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	if err := os.Symlink("pipe", filepath.Join(root, "link-to-pipe.txt")); err != nil {
		t.Fatal(err)
	}
	big, err := os.Create(filepath.Join(root, "big.log")) // sparse: no disk used
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(100 << 20); err != nil {
		t.Fatal(err)
	}
	big.Close()
	s := devservertest.StartDeployment(t, devserver.Options{Root: root})
	exec := s.AgentURL("executor")
	for _, c := range []struct{ body, want string }{
		{`{"input":{"pattern":"needle","path":"/repo/pipe"}}`, `"isError":true,"result":"Not a regular file: /repo/pipe"`},
		{`{"input":{"pattern":"needle","path":"/repo/link-to-pipe.txt"}}`, `"isError":true,"result":"Not a regular file: /repo/link-to-pipe.txt"`},
		{`{"input":{"pattern":"needle","path":"/repo/big.log"}}`, `"isError":true,"result":"File too large to search: /repo/big.log`},
		{`{"input":{"pattern":"needle","path":"/repo"}}`, `small.txt`},
		{`{"input":{"pattern":"needle","path":"/repo","output_mode":"content"}}`, `needle`},
	} {
		status, body := postWithin(t, exec, "grep", c.body)
		if status != 200 || !strings.Contains(body, c.want) {
			t.Errorf("grep %s: %d %s, want %s", c.body, status, clipBody([]byte(body)), c.want)
		}
	}
	status, body := postWithin(t, exec, "read", `{"input":{"path":"/repo/link-to-pipe.txt"}}`)
	if status != 200 || !strings.Contains(body, "Not a regular file") {
		t.Errorf("read of a symlinked FIFO: %d %s", status, body)
	}
}

// TestBraceExpansionBounded: brace expansion is bounded: 10,000 patterns are
// taken, more are a 400 for glob's glob_pattern, grep's glob and ls's
// ignore_globs.
func TestBraceExpansionBounded(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := devservertest.StartDeployment(t, devserver.Options{Root: root})
	exec := s.AgentURL("executor")
	four := "{0,1,2,3,4,5,6,7,8,9}{0,1,2,3,4,5,6,7,8,9}{0,1,2,3,4,5,6,7,8,9}{0,1,2,3,4,5,6,7,8,9}" // 10,000
	if status, body := postWithin(t, exec, "glob", `{"input":{"glob_pattern":"`+four+`*.go"}}`); status != 200 {
		t.Fatalf("10,000 patterns: %d %s", status, body)
	}
	huge := strings.Repeat("{a,b}", 40) // 2^40
	for _, c := range []struct{ tool, body, field string }{
		{"glob", `{"input":{"glob_pattern":"` + four + `{a,b}"}}`, `"glob_pattern"`},
		{"glob", `{"input":{"glob_pattern":"` + huge + `"}}`, `"glob_pattern"`},
		{"grep", `{"input":{"pattern":"x","glob":"` + huge + `"}}`, `"glob"`},
		{"ls", `{"input":{"target_directory":"/repo","ignore_globs":["*.tmp","` + huge + `"]}}`, `"ignore_globs",1`},
	} {
		status, body := postWithin(t, exec, c.tool, c.body)
		if status != 400 || !strings.Contains(body, `"error":"invalid_input"`) || !strings.Contains(body, c.field) ||
			!strings.Contains(body, "more than 10000 patterns") {
			t.Errorf("%s: %d %s", c.tool, status, clipBody([]byte(body)))
		}
	}
}
