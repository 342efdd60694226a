package repl

import (
	"io"
	"sync"

	tea "github.com/charmbracelet/bubbletea"
)

// Terminal lets the code a line runs (its rendering) have the terminal to
// itself for a moment while the REPL runs: the background query of
// internal/termbg, whose answer bubbletea's input reader would otherwise
// read as typed keys. Set Config.Terminal to one; the zero value is ready.
type Terminal struct {
	mu      sync.Mutex
	send    func(tea.Msg) // the running program's Send; nil when none
	stopped chan struct{} // closed when that program has ended
}

// exclusiveMsg asks the model to run fn with the terminal released.
type exclusiveMsg struct {
	fn  func()
	ran chan struct{}
}

// Exclusive runs fn with the REPL's hold on the terminal released (its
// input reader stopped, raw mode left; the screen is kept and redrawn
// after) and reports whether it ran: false when no REPL is running. It
// must not be called from the REPL's own event loop (a Runner's goroutine
// is where rendering happens).
func (t *Terminal) Exclusive(fn func()) bool {
	return t.deliver(func(ran chan struct{}) tea.Msg { return exclusiveMsg{fn: fn, ran: ran} })
}

// askMsg asks the model to run fn with the terminal released, as
// exclusiveMsg does, once the running line's output so far is on the
// screen; the keys typed meanwhile are dropped (they must not answer a
// question they were not typed for).
type askMsg struct{ exclusiveMsg }

// Ask runs fn (a question on the terminal, which reads its answer itself)
// with the REPL's hold on the terminal released, after the running line's
// output so far has been drawn and with the keys typed ahead dropped, and
// reports whether it ran: false when no REPL is running. Like Exclusive,
// it must not be called from the REPL's own event loop.
func (t *Terminal) Ask(fn func()) bool {
	return t.deliver(func(ran chan struct{}) tea.Msg { return askMsg{exclusiveMsg{fn: fn, ran: ran}} })
}

// deliver sends the message made for ran to the running program and waits
// for fn to have run, or for the program to end.
func (t *Terminal) deliver(msg func(ran chan struct{}) tea.Msg) bool {
	if t == nil {
		return false
	}
	t.mu.Lock()
	send, stopped := t.send, t.stopped
	t.mu.Unlock()
	if send == nil {
		return false
	}
	ran := make(chan struct{})
	go send(msg(ran))
	select {
	case <-ran:
		return true
	case <-stopped:
		return false
	}
}

// attach makes p the program Exclusive goes through; the func returned
// detaches it once p has ended.
func (t *Terminal) attach(p *tea.Program) func() {
	if t == nil {
		return func() {}
	}
	stopped := make(chan struct{})
	t.mu.Lock()
	t.send, t.stopped = p.Send, stopped
	t.mu.Unlock()
	return func() {
		t.mu.Lock()
		t.send = nil
		t.mu.Unlock()
		close(stopped)
	}
}

// exclusiveExec is fn as a command bubbletea runs with the terminal
// released (tea.Exec); it uses none of the streams it is given.
type exclusiveExec struct{ msg exclusiveMsg }

func (e exclusiveExec) Run() error {
	defer close(e.msg.ran)
	e.msg.fn()
	return nil
}

func (exclusiveExec) SetStdin(io.Reader)  {}
func (exclusiveExec) SetStdout(io.Writer) {}
func (exclusiveExec) SetStderr(io.Writer) {}

// exclusive runs msg's fn through tea.Exec.
func exclusive(msg exclusiveMsg) tea.Cmd {
	return tea.Exec(exclusiveExec{msg}, func(error) tea.Msg { return nil })
}
