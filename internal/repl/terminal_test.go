package repl

import (
	"context"
	"io"
	"slices"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// exclusiveModel hands exclusiveMsg to the REPL's handling and quits on
// any key.
type exclusiveModel struct{}

func (exclusiveModel) Init() tea.Cmd { return nil }
func (exclusiveModel) View() string  { return "" }
func (m exclusiveModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case exclusiveMsg:
		return m, exclusive(msg)
	case tea.KeyMsg:
		return m, tea.Quit
	}
	return m, nil
}

// A line's code gets the terminal to itself through the running program
// (Exclusive runs its function and says so); with no program running it
// does not, and says that. The REPL's own path is the tmux test
// TestREPLInTmuxLightBackground.
func TestTerminalExclusive(t *testing.T) {
	var none *Terminal
	if none.Exclusive(func() { t.Error("ran without a REPL") }) || (&Terminal{}).Exclusive(func() { t.Error("ran before the REPL") }) {
		t.Error("Exclusive reported running without a REPL")
	}
	term := &Terminal{}
	inR, inW := io.Pipe()
	defer inW.Close()
	p := tea.NewProgram(exclusiveModel{}, tea.WithInput(inR), tea.WithOutput(io.Discard), tea.WithoutSignals())
	detach := term.attach(p)
	done := make(chan struct{})
	go func() {
		_, _ = p.Run()
		detach()
		close(done)
	}()
	ran := false
	if ok := term.Exclusive(func() { ran = true }); !ok || !ran {
		t.Errorf("Exclusive in a running program: %v, ran %v", ok, ran)
	}
	p.Quit()
	<-done
	if term.Exclusive(func() { t.Error("ran after the REPL") }) {
		t.Error("Exclusive reported running after the program ended")
	}
}

// A question of the running line (Terminal.Ask) waits until the output
// written before it is on the screen, and drops the keys typed ahead: they
// were not typed for it.
func TestAskAfterOutputDrawn(t *testing.T) {
	wrote, release := make(chan struct{}), make(chan struct{})
	r := &fakeRunner{fn: func(ctx context.Context, src string, stdout, stderr io.Writer) (int, bool) {
		_, _ = io.WriteString(stdout, "before the question\n")
		close(wrote)
		<-release
		return 0, false
	}}
	h := newHarness(t, Config{Runner: r})
	h.typeText("write")
	h.key(tea.KeyEnter)
	<-wrote
	h.typeText("y")
	if len(h.m.typeahead) == 0 {
		t.Fatal("no key typed ahead")
	}
	if cmd := h.m.ask(askMsg{exclusiveMsg{fn: func() {}, ran: make(chan struct{})}}); cmd != nil {
		t.Error("the question was let through before the output written ahead of it was drawn")
	}
	if len(h.m.typeahead) != 0 {
		t.Errorf("keys typed ahead kept for after the question: %v", h.m.typeahead)
	}
	h.until(func() bool { return h.m.run.asking == nil })
	if !slices.Contains(h.lines, "before the question") {
		t.Errorf("the question was let through before the output was drawn: %q", h.lines)
	}
	close(release)
	h.idle()
}
