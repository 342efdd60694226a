package repl

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"
)

const goldenWidth = 40

// newTestProgram starts a REPL model under teatest with the color profile
// pinned and waits for its banner.
func newTestProgram(t *testing.T, cfg Config) *teatest.TestModel {
	t.Helper()
	lipgloss.SetColorProfile(termenv.Ascii)
	cfg.AgentName, cfg.Target, cfg.Session = "change-monitor", "https://agents.example/cm", "ses_42"
	if cfg.Runner == nil {
		cfg.Runner = &fakeRunner{out: "row 1\nrow 2\n"}
	}
	if cfg.Escape == nil {
		cfg.Escape = safeLabel
	}
	tm := teatest.NewTestModel(t, newModel(context.Background(), cfg), teatest.WithInitialTermSize(goldenWidth, 12))
	waitOutput(t, tm, "session: ses_42")
	return tm
}

func waitOutput(t *testing.T, tm *teatest.TestModel, s string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte(s))
	}, teatest.WithDuration(3*time.Second), teatest.WithCheckInterval(5*time.Millisecond))
}

// finalView quits and returns the last view, checked for structure: no row
// wider than the terminal and no escape but the cursor's.
func finalView(t *testing.T, tm *teatest.TestModel) string {
	t.Helper()
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	v := tm.FinalModel(t, teatest.WithFinalTimeout(3*time.Second)).View()
	for _, row := range strings.Split(v, "\n") {
		if w := ansi.StringWidth(row); w > goldenWidth {
			t.Errorf("row %q is %d columns wide", row, w)
		}
		if strings.Count(row, "\x1b") != 2*strings.Count(row, cursorOn) {
			t.Errorf("row %q holds escapes other than the cursor", row)
		}
	}
	return v
}

func TestGoldenPromptAfterRun(t *testing.T) {
	tm := newTestProgram(t, Config{})
	tm.Type("ls /repo")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitOutput(t, tm, "row 2")
	tm.Type("read /a-long-path/that/wraps/around")
	waitOutput(t, tm, "around")
	v := finalView(t, tm)
	if !strings.HasPrefix(v, "change-monitor ❯ read") || strings.Count(v, "\n") != 1 {
		t.Errorf("view %q: want the prompt wrapped on two rows", v)
	}
	teatest.RequireEqualOutput(t, []byte(v))
}

func TestGoldenCompletionList(t *testing.T) {
	c := &fakeCompleter{answers: map[string]Completion{"ls --": {Start: 3, End: 5, Candidates: []Candidate{
		{Text: "--limit", Display: "--limit <integer>", Description: "Maximum number of entries to return"},
		{Text: "--all", Description: "Include hidden entries"},
		{Text: "--output", Display: "--output <text|json>"},
	}}}}
	tm := newTestProgram(t, Config{Completer: c})
	tm.Type("ls --")
	tm.Send(tea.KeyMsg{Type: tea.KeyTab})
	waitOutput(t, tm, "--output <text|json>")
	v := finalView(t, tm)
	rows := strings.Split(v, "\n")
	if len(rows) != 4 || !strings.HasPrefix(rows[1], "--limit <integer>     Maximum") || !strings.HasSuffix(rows[1], "…") {
		t.Errorf("rows %q: want the prompt and three aligned, cut candidates", rows)
	}
	teatest.RequireEqualOutput(t, []byte(v))
}

func TestGoldenSearchAndContinuation(t *testing.T) {
	tm := newTestProgram(t, Config{})
	tm.Type("ls /repo |")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	tm.Type("head -n 3")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitOutput(t, tm, "row 2")
	tm.Type("grep x |")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlR})
	tm.Type("head")
	waitOutput(t, tm, "reverse-i-search")
	v := finalView(t, tm)
	rows := strings.Split(v, "\n")
	if len(rows) != 3 || rows[0] != "change-monitor ❯ grep x |" || rows[1] != "(reverse-i-search)`head': ls /repo |" ||
		showCursor(rows[2]) != "… [h]ead -n 3" {
		t.Errorf("rows %q", rows)
	}
	teatest.RequireEqualOutput(t, []byte(v))
}

func TestTeatestCtrlDExits(t *testing.T) {
	r := &fakeRunner{out: "done\n", status: 1}
	tm := newTestProgram(t, Config{Runner: r})
	tm.Type("ls")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitOutput(t, tm, "done")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlD})
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(3*time.Second)).(*model)
	if fm.status != 1 || fm.View() != "" {
		t.Fatalf("status %d view %q", fm.status, fm.View())
	}
}

func TestPromptAgentDimmed(t *testing.T) {
	r := lipgloss.NewRenderer(nil)
	r.SetColorProfile(termenv.ANSI)
	m := newModel(context.Background(), Config{AgentName: "cm", Runner: &fakeRunner{}})
	m.st = styles{dim: r.NewStyle().Faint(true)}
	if got, want := m.promptFor(0), "\x1b[2mcm\x1b[0m ❯ "; got != want {
		t.Errorf("prompt %q, want %q", got, want)
	}
	if got := m.promptFor(1); got != "… " {
		t.Errorf("continuation prompt %q", got)
	}
	if got := newStyles(true).dim.Render("x"); got != "x" {
		t.Errorf("NoColor style renders %q", got)
	}
}
