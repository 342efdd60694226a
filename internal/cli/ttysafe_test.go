package cli

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/iostreams"
)

// ttySafeEnv is an environment of fixed variables, no files, no home.
type ttySafeEnv map[string]string

func (m ttySafeEnv) Getenv(k string) string        { return m[k] }
func (ttySafeEnv) ReadFile(string) ([]byte, error) { return nil, errTTYSafeNoFile }
func (ttySafeEnv) HomeDir() string                 { return "" }
func (ttySafeEnv) Environ() []string               { return nil }
func (ttySafeEnv) Self() string                    { return "" }
func (ttySafeEnv) Open(string) (fs.File, error)    { return nil, errTTYSafeNoFile }
func (m ttySafeEnv) LookupEnv(k string) (string, bool) {
	v, ok := m[k]
	return v, ok
}

var errTTYSafeNoFile = &ttySafeNotFound{}

type ttySafeNotFound struct{}

func (*ttySafeNotFound) Error() string { return "no such file" }

// TestSessionLineSafeOnTerminal: the session line carries an id or token
// (the answer's sessionId comes from the deployment); on a terminal its
// control characters show as visible escapes like in every other message
// (docs/rendering.md#terminal-safety); in a pipe it is passed unchanged.
func TestSessionLineSafeOnTerminal(t *testing.T) {
	t.Parallel()
	exe := startDeployment(t).AgentURL("executor")
	for _, tty := range []bool{true, false} {
		ios, out, errOut := iostreams.Test("")
		ios.ErrTTY, ios.OutTTY = tty, tty
		token := "http:x\x1b]0;pwned\x07y"
		status := Main([]string{"--target", exe, "ls", "/repo", "--continuation-token", token}, ios, ttySafeEnv{})
		if status != 0 {
			t.Fatalf("tty %v: status %d\nstdout:\n%s\nstderr:\n%s", tty, status, out, errOut)
		}
		lines := strings.Split(strings.TrimSuffix(errOut.String(), "\n"), "\n")
		last := lines[len(lines)-1]
		want := "→ " + token
		if tty {
			want = `→ http:x\x1b]0;pwned\x07y`
		}
		if last != want {
			t.Errorf("tty %v: session line %q, want %q", tty, last, want)
		}
	}
}

// TestEarlyUsageErrorRedactedAndSafe: a usage error found while reading
// agsh's own options still never shows the credential
// (docs/cli.md#credentials) and is made safe on a terminal.
func TestEarlyUsageErrorRedactedAndSafe(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		env  ttySafeEnv
	}{
		{[]string{"--s3cr3t-tok\x1b[2J", "--output", "json"}, ttySafeEnv{"AGENT_SHELL_BEARER_TOKEN": "s3cr3t-tok"}},
		{[]string{"--bearer-token", "s3cr3t-tok", "--s3cr3t-tok\x1b[2J", "--output=json"}, ttySafeEnv{}},
		{[]string{"--bearer-token=s3cr3t-tok", "--output", "s3cr3t-tok\x1b[2J"}, ttySafeEnv{}},
	} {
		ios, _, errOut := iostreams.Test("")
		ios.ErrTTY = true
		if status := Main(tc.args, ios, tc.env); status != 2 {
			t.Errorf("%q: status %d, want 2", tc.args, status)
		}
		got := errOut.String()
		if strings.Contains(got, "s3cr3t-tok") || strings.Contains(got, "\x1b") || !strings.HasPrefix(got, "agsh: ") {
			t.Errorf("%q: stderr shows the credential or a raw escape:\n%q", tc.args, got)
		}
	}
}

// TestJSONErrorLineSafe: the JSON error line escapes DEL and C1 controls
// too (encoding/json leaves them raw), so server text cannot drive a
// terminal through it (docs/rendering.md#terminal-safety).
func TestJSONErrorLineSafe(t *testing.T) {
	t.Parallel()
	exe := startDeployment(t).AgentURL("executor")
	ios, _, errOut := iostreams.Test("")
	ios.ErrTTY = true
	status := Main([]string{"--target", exe, "ls", "--session", "x\u009b2J\x7f", "--output", "json"}, ios, ttySafeEnv{})
	if status != 3 {
		t.Fatalf("status %d, want 3\n%s", status, errOut)
	}
	got := errOut.String()
	if !strings.Contains(got, `"message":"the deployment does not know session x\u009b2J\u007f`) {
		t.Errorf("no escaped JSON error line:\n%q", got)
	}
	if strings.ContainsAny(got, "\u009b\x7f") {
		t.Errorf("raw C1 or DEL on a terminal:\n%q", got)
	}
}
