package repl

import (
	"context"
	"io"
	"reflect"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

func TestTypingAndEditingView(t *testing.T) {
	h := newHarness(t, Config{})
	h.typeText("ls /rep")
	if got, want := h.view(), "agent ❯ ls /rep[ ]"; got != want {
		t.Fatalf("view = %q, want %q", got, want)
	}
	h.key(tea.KeyLeft)
	h.key(tea.KeyLeft)
	h.typeText("X")
	h.key(tea.KeyCtrlA)
	if got, want := h.view(), "agent ❯ [l]s /rXep"; got != want {
		t.Fatalf("view = %q, want %q", got, want)
	}
	h.alt('f')
	h.key(tea.KeyCtrlK)
	if got, want := h.view(), "agent ❯ ls[ ]"; got != want {
		t.Fatalf("view = %q, want %q", got, want)
	}
	h.typeText(" a b")
	h.key(tea.KeyCtrlW)
	h.key(tea.KeyBackspace)
	h.key(tea.KeyHome)
	h.key(tea.KeyDelete)
	h.key(tea.KeyEnd)
	h.alt('b')
	if got, want := h.view(), "agent ❯ s [a]"; got != want {
		t.Fatalf("view = %q, want %q", got, want)
	}
	h.key(tea.KeyCtrlU)
	h.key(tea.KeyCtrlE)
	h.key(tea.KeyCtrlY)
	if got, want := h.view(), "agent ❯ as [ ]"; got != want {
		t.Fatalf("view = %q, want %q", got, want)
	}
}

func TestEnterRunsCompleteLine(t *testing.T) {
	r := &fakeRunner{out: "row 1\nrow 2\n", errOut: "note\n", status: 4}
	h := newHarness(t, Config{Runner: r, Secrets: []string{"s3cret"}})
	h.line("ls /")
	if got, want := r.ran(), []string{"ls /"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("ran %q, want %q", got, want)
	}
	if want := []string{"agent ❯ ls /", "row 1", "row 2", "note"}; !reflect.DeepEqual(h.lines, want) {
		t.Fatalf("scrollback %q, want %q", h.lines, want)
	}
	if h.m.status != 4 || h.quit {
		t.Fatalf("status %d quit %v", h.m.status, h.quit)
	}
	if got, want := h.view(), "agent [4] ❯ [ ]"; got != want {
		t.Fatalf("view after run = %q, want %q (the last status shows)", got, want)
	}
	// An empty line runs nothing and leaves a bare prompt.
	h.line("  ")
	if len(r.ran()) != 1 || h.lines[len(h.lines)-1] != "agent [4] ❯   " {
		t.Fatalf("blank line: ran %q, scrollback %q", r.ran(), h.lines)
	}
	// A credential is masked in the echo and kept out of the history.
	h.line("read --token s3cret /x")
	if got := h.lines[len(h.lines)-4]; got != "agent [4] ❯ read --token *** /x" {
		t.Fatalf("echo = %q", got)
	}
	if got := h.m.hist.entries; !reflect.DeepEqual(got, []string{"ls /"}) {
		t.Fatalf("history %q", got)
	}
}

func TestOutputKeptExact(t *testing.T) {
	r := &fakeRunner{out: "a\r\nb\tc\n\n\x1b[1mbold\x1b[0m\nno newline"}
	h := newHarness(t, Config{Runner: r})
	h.line("x")
	want := []string{"agent ❯ x", "a", "b\tc", "", "\x1b[1mbold\x1b[0m", "no newline"}
	if !reflect.DeepEqual(h.lines, want) {
		t.Fatalf("scrollback %q, want %q", h.lines, want)
	}
}

func TestEnterOnIncompleteLineContinues(t *testing.T) {
	h := newHarness(t, Config{})
	h.typeText("ls / |")
	h.key(tea.KeyEnter)
	if got, want := h.view(), "agent ❯ ls / |\n… [ ]"; got != want {
		t.Fatalf("view = %q, want %q", got, want)
	}
	if len(h.runner.ran()) != 0 {
		t.Fatal("an incomplete line ran")
	}
	h.line("head -n 2")
	if got, want := h.runner.ran(), []string{"ls / |\nhead -n 2"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("ran %q, want %q", got, want)
	}
	if want := []string{"agent ❯ ls / |", "… head -n 2"}; !reflect.DeepEqual(h.lines, want) {
		t.Fatalf("scrollback %q, want %q", h.lines, want)
	}
	// ↑ recalls the whole input, shown on two lines.
	h.key(tea.KeyUp)
	if got, want := h.view(), "agent ❯ ls / |\n… head -n 2[ ]"; got != want {
		t.Fatalf("recalled view = %q, want %q", got, want)
	}
	// Ctrl-C in a continuation drops everything.
	h.key(tea.KeyCtrlU)
	h.typeText("echo 'open")
	h.key(tea.KeyEnter)
	h.typeText("more")
	h.key(tea.KeyCtrlC)
	h.idle()
	if got, want := h.lines[len(h.lines)-2:], []string{"agent ❯ echo 'open", "… more^C"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("scrollback %q, want %q", got, want)
	}
	h.idle()
	if got, want := h.view(), "agent ❯ [ ]"; got != want {
		t.Fatalf("view = %q, want %q", got, want)
	}
}

func TestCtrlDInContinuationRunsWhatWasTyped(t *testing.T) {
	h := newHarness(t, Config{})
	h.typeText("ls |")
	h.key(tea.KeyEnter)
	h.key(tea.KeyCtrlD)
	h.idle()
	if got, want := h.runner.ran(), []string{"ls |\n"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("ran %q, want %q", got, want)
	}
	if h.quit {
		t.Fatal("quit")
	}
}

func TestHistoryUpDown(t *testing.T) {
	h := newHarness(t, Config{})
	h.line("one")
	h.line("two")
	h.line("two")
	h.typeText("dra")
	steps := []struct {
		k    tea.KeyType
		want string
	}{
		{tea.KeyUp, "agent ❯ two[ ]"},
		{tea.KeyUp, "agent ❯ one[ ]"},
		{tea.KeyUp, "agent ❯ one[ ]"},
		{tea.KeyDown, "agent ❯ two[ ]"},
		{tea.KeyDown, "agent ❯ dra[ ]"},
		{tea.KeyCtrlP, "agent ❯ two[ ]"},
		{tea.KeyCtrlN, "agent ❯ dra[ ]"},
	}
	for i, s := range steps {
		h.key(s.k)
		if got := h.view(); got != s.want {
			t.Fatalf("step %d: view %q, want %q", i, got, s.want)
		}
	}
}

func TestCtrlRSearch(t *testing.T) {
	h := newHarness(t, Config{})
	for _, l := range []string{"ls /src", "read /repo/a", "ls /repo", "grep x"} {
		h.line(l)
	}
	h.typeText("keep")
	h.key(tea.KeyCtrlR)
	if got, want := h.view(), "(reverse-i-search)`': keep[ ]"; got != want {
		t.Fatalf("view %q, want %q", got, want)
	}
	h.typeText("ls")
	if got, want := h.view(), "(reverse-i-search)`ls': [l]s /repo"; got != want {
		t.Fatalf("view %q, want %q", got, want)
	}
	h.key(tea.KeyCtrlR)
	if got, want := h.view(), "(reverse-i-search)`ls': [l]s /src"; got != want {
		t.Fatalf("view %q, want %q", got, want)
	}
	h.key(tea.KeyCtrlR)
	if got, want := h.view(), "(failed reverse-i-search)`ls': [l]s /src"; got != want {
		t.Fatalf("view %q, want %q", got, want)
	}
	h.key(tea.KeyEsc)
	if got, want := h.view(), "agent ❯ keep[ ]"; got != want {
		t.Fatalf("after Esc: %q, want %q", got, want)
	}
	h.key(tea.KeyCtrlR)
	h.typeText("repo/")
	h.key(tea.KeyEnter)
	if got, want := h.view(), "agent ❯ read /[r]epo/a"; got != want {
		t.Fatalf("after Enter: %q, want %q", got, want)
	}
	if n := len(h.runner.ran()); n != 4 {
		t.Fatalf("Enter in search ran the line (%d runs)", n)
	}
	h.key(tea.KeyCtrlU)
	h.key(tea.KeyCtrlR)
	h.typeText("grep")
	h.key(tea.KeyCtrlG)
	if got, want := h.view(), "agent ❯ [r]epo/a"; got != want {
		t.Fatalf("after Ctrl-G: %q, want %q", got, want)
	}
	// Another key accepts and acts.
	h.key(tea.KeyCtrlK)
	h.key(tea.KeyCtrlR)
	h.typeText("gr")
	h.key(tea.KeyEnd)
	if got, want := h.view(), "agent ❯ grep x[ ]"; got != want {
		t.Fatalf("after End: %q, want %q", got, want)
	}
}

func TestCtrlCCancelsRunningCall(t *testing.T) {
	r := &fakeRunner{block: true}
	h := newHarness(t, Config{Runner: r})
	h.typeText("slow")
	h.key(tea.KeyEnter)
	h.until(func() bool { return len(r.ran()) == 1 })
	if !h.m.run.active || h.view() != "" {
		t.Fatalf("not running: view %q", h.view())
	}
	// Keys typed meanwhile are kept and replayed.
	h.typeText("ls")
	h.key(tea.KeyCtrlC)
	h.idle()
	if h.quit || h.m.status != 130 {
		t.Fatalf("quit %v status %d", h.quit, h.m.status)
	}
	if want := []string{"agent ❯ slow", "agsh: interrupted"}; !reflect.DeepEqual(h.lines, want) {
		t.Fatalf("scrollback %q, want %q", h.lines, want)
	}
	if got, want := h.view(), "agent [130] ❯ [ ]"; got != want {
		t.Fatalf("view %q, want %q (Ctrl-C drops type-ahead)", got, want)
	}
}

func TestTypeaheadReplayed(t *testing.T) {
	release := make(chan struct{})
	r := &fakeRunner{}
	r.fn = func(ctx context.Context, src string, stdout, _ io.Writer) (int, bool) {
		if src == "first" {
			<-release
		}
		_, _ = io.WriteString(stdout, "did "+src+"\n")
		return 0, false
	}
	h := newHarness(t, Config{Runner: r})
	h.typeText("first")
	h.key(tea.KeyEnter)
	h.until(func() bool { return len(r.ran()) == 1 })
	h.typeText("second")
	h.key(tea.KeyEnter)
	h.typeText("thi")
	close(release)
	h.until(func() bool { return len(r.ran()) == 2 })
	h.idle()
	want := []string{"agent ❯ first", "did first", "agent ❯ second", "did second"}
	if !reflect.DeepEqual(h.lines, want) {
		t.Fatalf("scrollback %q, want %q", h.lines, want)
	}
	if got, want := h.view(), "agent ❯ thi[ ]"; got != want {
		t.Fatalf("view %q, want %q", got, want)
	}
}

func TestCtrlDExits(t *testing.T) {
	r := &fakeRunner{status: 3}
	h := newHarness(t, Config{Runner: r})
	h.line("x")
	h.typeText("ab")
	h.key(tea.KeyHome)
	h.key(tea.KeyCtrlD) // deletes under the cursor
	if got, want := h.view(), "agent [3] ❯ [b]"; got != want || h.quit {
		t.Fatalf("view %q, want %q", got, want)
	}
	h.key(tea.KeyCtrlK)
	h.key(tea.KeyCtrlD)
	h.until(func() bool { return h.quit })
	if h.m.status != 3 || h.view() != "" {
		t.Fatalf("status %d view %q", h.m.status, h.view())
	}
	if got := h.lines[len(h.lines)-1]; got != "agent [3] ❯ " {
		t.Fatalf("last scrollback line %q", got)
	}
}

func TestExitWord(t *testing.T) {
	r := &fakeRunner{status: 7, exit: true, out: "bye\n"}
	h := newHarness(t, Config{Runner: r})
	h.typeText("exit 7")
	h.key(tea.KeyEnter)
	h.until(func() bool { return h.quit })
	if h.m.status != 7 {
		t.Fatalf("status %d", h.m.status)
	}
	if want := []string{"agent ❯ exit 7", "bye"}; !reflect.DeepEqual(h.lines, want) {
		t.Fatalf("scrollback %q, want %q", h.lines, want)
	}
}

func TestSpinnerAfterDelay(t *testing.T) {
	out := make(chan string)
	r := &fakeRunner{}
	r.fn = func(ctx context.Context, _ string, stdout, _ io.Writer) (int, bool) {
		for s := range out {
			_, _ = io.WriteString(stdout, s)
		}
		return 0, false
	}
	h := newHarness(t, Config{Runner: r})
	h.typeText("slow")
	h.key(tea.KeyEnter)
	h.until(func() bool { return len(h.lines) == 1 })
	id := h.m.run.id
	tick := func(d time.Duration) {
		h.clock = h.clock.Add(d)
		h.send(spinnerTickMsg{id: id})
	}
	tick(100 * time.Millisecond)
	tick(100 * time.Millisecond)
	if got := h.view(); got != "" {
		t.Fatalf("spinner before 300 ms: %q", got)
	}
	tick(100 * time.Millisecond)
	if got, want := h.view(), "⠋ running… Ctrl-C cancels"; got != want {
		t.Fatalf("view at 300 ms %q, want %q", got, want)
	}
	tick(100 * time.Millisecond)
	if got, want := h.view(), "⠙ running… Ctrl-C cancels"; got != want {
		t.Fatalf("view at 400 ms %q, want %q", got, want)
	}
	h.send(spinnerTickMsg{id: id - 1}) // a tick of an older run changes nothing
	if got, want := h.view(), "⠙ running… Ctrl-C cancels"; got != want {
		t.Fatalf("view after a stale tick %q", got)
	}
	h.key(tea.KeyCtrlC) // this runner ignores it for now
	if got, want := h.view(), "⠙ cancelling…"; got != want {
		t.Fatalf("view after Ctrl-C %q, want %q", got, want)
	}
	out <- "first\n"
	h.until(func() bool { return len(h.lines) == 2 })
	if got := h.view(); got != "" {
		t.Fatalf("spinner stays after output: %q", got)
	}
	tick(200 * time.Millisecond)
	if got := h.view(); got != "" {
		t.Fatalf("spinner 200 ms after output: %q", got)
	}
	tick(100 * time.Millisecond)
	if got := h.view(); got != "⠋ cancelling…" {
		t.Fatalf("spinner 300 ms after output: %q", got)
	}
	close(out)
	h.idle()
	if got := h.view(); got != "agent ❯ [ ]" {
		t.Fatalf("view after the run: %q", got)
	}
}

func TestViewWrapsLongLines(t *testing.T) {
	h := newHarness(t, Config{})
	h.m.width = 12
	h.typeText("ls /abcdefgh")
	if got, want := h.view(), "agent ❯ ls /\nabcdefgh[ ]"; got != want {
		t.Fatalf("view %q, want %q", got, want)
	}
	h.m.width = 11
	h.key(tea.KeyCtrlU)
	h.typeText("日本語")
	if got, want := h.view(), "agent ❯ 日\n本語[ ]"; got != want {
		t.Fatalf("view %q, want %q", got, want)
	}
	h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("a\tb"), Paste: true})
	if got, want := h.view(), "agent ❯ 日\n本語a^Ib[ ]"; got != want {
		t.Fatalf("view %q, want %q", got, want)
	}
}

func TestWindowSize(t *testing.T) {
	h := newHarness(t, Config{})
	h.send(tea.WindowSizeMsg{Width: 33, Height: 10})
	if h.m.width != 33 {
		t.Fatalf("width %d", h.m.width)
	}
}

// The echo of a line run is drawn as the editor drew it: a completed name's
// bidi control or zero-width space shows escaped, never raw
// (docs/rendering.md#terminal-safety); the command runs with the line as
// typed.
func TestEchoEscapesLikeTheEditor(t *testing.T) {
	r := &fakeRunner{}
	h := newHarness(t, Config{Runner: r})
	h.line("help evil\u202eexe zw\u200bsp \u05e9")
	if got, want := h.lines[0], "agent ❯ help evil\\u202eexe zw\\u200bsp \u05e9"; got != want {
		t.Fatalf("echo %q, want %q", got, want)
	}
	if got := r.ran(); len(got) != 1 || got[0] != "help evil\u202eexe zw\u200bsp \u05e9" {
		t.Fatalf("ran %q", got)
	}
}
