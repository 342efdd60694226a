package repl

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestHistoryPathFrom(t *testing.T) {
	tests := []struct {
		name, xdg, home, want string
	}{
		{"xdg", "/state", "/home/u", "/state/agsh/history"},
		{"default", "", "/home/u", "/home/u/.local/state/agsh/history"},
		{"relative xdg ignored", "state", "/home/u", "/home/u/.local/state/agsh/history"},
		{"nothing known", "", "", ""},
		{"xdg without home", "/s", "", "/s/agsh/history"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			getenv := func(k string) string {
				if k == "XDG_STATE_HOME" {
					return tt.xdg
				}
				return ""
			}
			if got := HistoryPathFrom(getenv, tt.home); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestHistoryFileModesAndRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "agsh", "history")
	for _, e := range []string{"ls /", "read /a.go", "ls |\nhead", `grep 'a\b'`} {
		if err := appendHistory(path, e, nil); err != nil {
			t.Fatal(err)
		}
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != 0o600 {
		t.Errorf("file mode = %o, want 600", got)
	}
	di, _ := os.Stat(filepath.Dir(path))
	if got := di.Mode().Perm(); got != 0o700 {
		t.Errorf("dir mode = %o, want 700", got)
	}
	raw, _ := os.ReadFile(path)
	if want := "ls /\nread /a.go\nls |\\nhead\ngrep 'a\\\\b'\n"; string(raw) != want {
		t.Errorf("file = %q, want %q", raw, want)
	}
	got, err := loadHistory(path, 100, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"ls /", "read /a.go", "ls |\nhead", `grep 'a\b'`}; !reflect.DeepEqual(got, want) {
		t.Errorf("loaded %q, want %q", got, want)
	}
}

func TestHistoryNeverWritesSecrets(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	secrets := []string{"", "tok-123"}
	for _, e := range []string{"ls /", "echo --bearer-token tok-123", "read x"} {
		if err := appendHistory(path, e, secrets); err != nil {
			t.Fatal(err)
		}
	}
	raw, _ := os.ReadFile(path)
	if strings.Contains(string(raw), "tok-123") || string(raw) != "ls /\nread x\n" {
		t.Errorf("file = %q", raw)
	}
	// A file that somehow holds one is cleaned on load.
	if err := os.WriteFile(path, []byte("a\nuse tok-123\nb\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := loadHistory(path, 100, secrets)
	if err != nil || !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Errorf("loaded %q, %v", got, err)
	}
	raw, _ = os.ReadFile(path)
	if string(raw) != "a\nb\n" {
		t.Errorf("rewritten file = %q", raw)
	}
}

func TestHistoryCapAndDedupe(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	var b strings.Builder
	for i := 0; i < 12; i++ {
		b.WriteString("cmd ")
		b.WriteByte(byte('a' + i))
		b.WriteString("\ncmd ")
		b.WriteByte(byte('a' + i))
		b.WriteString("\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := loadHistory(path, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"cmd j", "cmd k", "cmd l"}; !reflect.DeepEqual(got, want) {
		t.Errorf("loaded %q, want %q", got, want)
	}
	raw, _ := os.ReadFile(path)
	if string(raw) != "cmd j\ncmd k\ncmd l\n" {
		t.Errorf("file after cap = %q", raw)
	}
	fi, _ := os.Stat(path)
	if got := fi.Mode().Perm(); got != 0o600 {
		t.Errorf("rewritten file mode = %o, want 600", got)
	}
}

func TestHistoryAppendTightensMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := appendHistory(path, "ls", nil); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	if got := fi.Mode().Perm(); got != 0o600 {
		t.Errorf("mode = %o, want 600", got)
	}
}

func TestHistoryMissingAndDisabled(t *testing.T) {
	got, err := loadHistory(filepath.Join(t.TempDir(), "none"), 10, nil)
	if err != nil || got != nil {
		t.Errorf("missing file: %q, %v", got, err)
	}
	if err := appendHistory("", "ls", nil); err != nil {
		t.Errorf("disabled history: %v", err)
	}
	// A directory in the way is an error, not a panic.
	dir := t.TempDir()
	if _, err := loadHistory(dir, 10, nil); err == nil {
		t.Error("loading a directory: no error")
	}
}

func TestHistoryLineCoding(t *testing.T) {
	for _, e := range []string{"plain", `a\b`, "a\nb", `trailing\`, "x\r\ny", `\n literal`} {
		line := encodeHistoryLine(e)
		if strings.ContainsAny(line, "\n\r") {
			t.Errorf("encode(%q) = %q holds a line break", e, line)
		}
		if got := decodeHistoryLine(line); got != e {
			t.Errorf("decode(encode(%q)) = %q", e, got)
		}
	}
	if got := decodeHistoryLine(`odd\q end\`); got != `odd\q end\` {
		t.Errorf("unknown escapes: %q", got)
	}
}

func TestMaskSecrets(t *testing.T) {
	if got := maskSecrets("a tok b tok", []string{"", "tok"}); got != "a *** b ***" {
		t.Errorf("got %q", got)
	}
}

// A line giving a credential with --bearer-token (refused on a command line)
// is kept out of the history file too.
func TestHistoryNeverWritesBearerTokenFlag(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	for _, e := range []string{"ls --bearer-token tok-typed", "ls --bearer-token=tok-typed", "ls /"} {
		if err := appendHistory(path, e, nil); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "tok-typed") || !strings.Contains(string(b), "ls /") {
		t.Errorf("history file = %q", b)
	}
}

// A line whose words, unquoted and unescaped, spell a credential is kept
// out of the history, however it is quoted.
func TestHistorySkipsQuotedCredential(t *testing.T) {
	secrets := []string{"tok_abc123"}
	for _, e := range []string{
		`echo 'tok_''abc123'`,
		`echo "tok_"abc123`,
		`echo tok\_abc\123`,
		`echo "tok_abc\
123"`,
		`grep -e 'tok_abc'"123" /x`,
		`ls '--bearer''-token' x`,
	} {
		if !containsSecret(e, secrets) {
			t.Errorf("%q: not taken for a credential", e)
		}
	}
	for _, e := range []string{`echo tok_ abc123`, `echo 'tok_' 'abc123'`, `read /x`} {
		if containsSecret(e, secrets) {
			t.Errorf("%q: taken for a credential", e)
		}
	}
}

// TestHistoryNeverWritesControls: a line holding a control character (a
// deployment's tool name inserted by Tab: "x\x1b]0;…\a") is not written to
// the file, and one planted there is not read back; the line stays in the
// session's history.
func TestHistoryNeverWritesControls(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	for _, e := range []string{"ls /", "evil\x1b]0;pwned\x07 --x", "c1\u009b2J", "bad\xff", "tab\tand\nline"} {
		if err := appendHistory(path, e, nil); err != nil {
			t.Fatal(err)
		}
	}
	raw, _ := os.ReadFile(path)
	if want := "ls /\ntab\tand\\nline\n"; string(raw) != want {
		t.Errorf("file = %q, want %q", raw, want)
	}
	if err := os.WriteFile(path, []byte("ls /\nplanted\x1b[2J\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := loadHistory(path, 100, nil)
	if err != nil || !reflect.DeepEqual(got, []string{"ls /"}) {
		t.Errorf("loadHistory = %q, %v", got, err)
	}
	if raw, _ := os.ReadFile(path); strings.Contains(string(raw), "\x1b") {
		t.Errorf("the planted line stays in the file: %q", raw)
	}
}
