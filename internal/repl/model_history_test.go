package repl

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

func TestModelHistoryAcrossRuns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agsh", "history")
	cfg := Config{HistoryPath: path, Secrets: []string{"tok-9"}}
	h := newHarness(t, cfg)
	h.line("ls /")
	h.line("ls /")
	h.line("read --token tok-9 x")
	h.typeText("ls |")
	h.key(tea.KeyEnter)
	h.line("head")

	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := "ls /\nls |\\nhead\n"; string(raw) != want {
		t.Fatalf("file %q, want %q", raw, want)
	}

	// A new REPL loads it: ↑ gives the newest entry first.
	h2 := newHarness(t, cfg)
	h2.until(func() bool { return len(h2.m.hist.entries) == 2 })
	h2.key(tea.KeyUp)
	if got, want := h2.view(), "agent ❯ ls |\n… head[ ]"; got != want {
		t.Fatalf("view %q, want %q", got, want)
	}
	h2.key(tea.KeyUp)
	if got, want := h2.view(), "agent ❯ ls /[ ]"; got != want {
		t.Fatalf("view %q, want %q", got, want)
	}
}

func TestModelHistoryErrorShownOnce(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, Config{HistoryPath: filepath.Join(blocker, "history")})
	h.line("a")
	h.line("b")
	notes := func() (n []string) {
		for _, l := range h.lines {
			if strings.HasPrefix(l, "agsh: history: ") {
				n = append(n, l)
			}
		}
		return n
	}
	h.until(func() bool { return len(notes()) > 0 })
	if got := notes(); len(got) != 1 || !strings.HasSuffix(got[0], "not a directory") {
		t.Fatalf("history notes %q in %q", got, h.lines)
	}
	if got, want := h.runner.ran(), []string{"a", "b"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("ran %q", got)
	}
}

func TestRunnerPanicKeepsTheShell(t *testing.T) {
	r := &fakeRunner{fn: func(context.Context, string, io.Writer, io.Writer) (int, bool) { panic("bug") }}
	h := newHarness(t, Config{Runner: r})
	h.line("x")
	if want := []string{"agent ❯ x", "agsh: internal error: bug"}; !reflect.DeepEqual(h.lines, want) {
		t.Fatalf("scrollback %q, want %q", h.lines, want)
	}
	if h.quit || h.m.status != 1 {
		t.Fatalf("quit %v status %d", h.quit, h.m.status)
	}
}

type panicIncomplete struct{ fakeRunner }

func (*panicIncomplete) Incomplete(string) bool { panic("parser bug") }

func TestIncompletePanicRunsTheLine(t *testing.T) {
	r := &panicIncomplete{}
	h := newHarness(t, Config{Runner: r})
	h.line("ls |")
	if got := r.ran(); !reflect.DeepEqual(got, []string{"ls |"}) {
		t.Fatalf("ran %q", got)
	}
}
