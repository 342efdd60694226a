package repl

import (
	"io"
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
