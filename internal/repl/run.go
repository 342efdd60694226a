package repl

import (
	"context"
	"fmt"
	"time"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
)

const (
	// spinnerDelay is how long a run stays silent before the spinner shows.
	spinnerDelay = 300 * time.Millisecond
	// spinnerInterval is the spinner's frame time.
	spinnerInterval = 100 * time.Millisecond
)

// runState is the line running, if any.
type runState struct {
	active      bool
	id          int // increases with every run; messages of older runs are dropped
	cancel      context.CancelFunc
	pipe        *outPipe
	done        bool // the Runner returned
	drained     bool // all its output has been read
	exit        bool
	status      int
	lastOutput  time.Time // start of the run, then time of the latest output
	spinning    bool
	frame       int
	interrupted bool
}

// Messages of a run.
type (
	outputMsg struct {
		id   int
		data string
		eof  bool
	}
	runDoneMsg struct {
		id      int
		status  int
		exit    bool
		histErr error
	}
	spinnerTickMsg struct{ id int }
)

// startRun runs src. histEntry, when not empty, is appended to the history
// file first (in the same command, so appends keep their order).
func (m *model) startRun(src, histEntry string) tea.Cmd {
	ctx, cancel := context.WithCancel(m.ctx)
	m.run = runState{
		active:     true,
		id:         m.run.id + 1,
		cancel:     cancel,
		pipe:       newOutPipe(),
		lastOutput: m.now(),
	}
	id, pipe, runner := m.run.id, m.run.pipe, m.cfg.Runner
	path, secrets := m.cfg.HistoryPath, m.cfg.Secrets
	run := func() (msg tea.Msg) {
		done := runDoneMsg{id: id}
		defer func() {
			if r := recover(); r != nil {
				_, _ = fmt.Fprintf(pipe, "agsh: internal error: %v\n", r)
				done.status = 1
				msg = done
			}
			pipe.close()
			cancel()
		}()
		if histEntry != "" {
			done.histErr = appendHistory(path, histEntry, secrets)
		}
		done.status, done.exit = runner.Run(ctx, src, pipe, pipe)
		return done
	}
	return tea.Batch(run, readOutput(id, pipe), m.tick(id))
}

func readOutput(id int, p *outPipe) tea.Cmd {
	return func() tea.Msg {
		data, eof := p.next()
		return outputMsg{id: id, data: data, eof: eof}
	}
}

func spinnerTick(id int) tea.Cmd {
	return tea.Tick(spinnerInterval, func(time.Time) tea.Msg { return spinnerTickMsg{id: id} })
}

// output prints a chunk of the run's output and asks for the next.
func (m *model) output(msg outputMsg) tea.Cmd {
	if !m.run.active || msg.id != m.run.id {
		return nil
	}
	var cmds []tea.Cmd
	if text, ok := printable(msg.data); ok {
		m.run.lastOutput = m.now()
		m.run.spinning = false
		cmds = append(cmds, m.out.print(text))
	}
	if msg.eof {
		m.run.drained = true
		cmds = append(cmds, m.finishRun())
	} else {
		cmds = append(cmds, readOutput(m.run.id, m.run.pipe))
	}
	return tea.Batch(cmds...)
}

// runDone records the Runner's answer; the run ends once its output is read.
func (m *model) runDone(msg runDoneMsg) tea.Cmd {
	if !m.run.active || msg.id != m.run.id {
		return nil
	}
	m.run.done = true
	m.run.status, m.run.exit = msg.status, msg.exit
	return tea.Batch(m.historyError(msg.histErr), m.finishRun())
}

// finishRun ends the run when the Runner has returned and its output is
// all read, then replays the keys typed meanwhile.
func (m *model) finishRun() tea.Cmd {
	if !m.run.done || !m.run.drained {
		return nil
	}
	m.run.active = false
	m.run.spinning = false
	m.status = m.run.status
	if m.run.exit {
		m.typeahead = nil
		return m.quit()
	}
	keys := m.typeahead
	m.typeahead = nil
	var cmds []tea.Cmd
	for i, k := range keys {
		cmds = append(cmds, m.key(k))
		if m.run.active || m.quitting {
			m.typeahead = append(m.typeahead, keys[i+1:]...)
			break
		}
	}
	return tea.Batch(cmds...)
}

// spinnerTick shows the spinner once the run has been silent for
// spinnerDelay, and advances it.
func (m *model) spinnerTick(msg spinnerTickMsg) tea.Cmd {
	if !m.run.active || msg.id != m.run.id {
		return nil
	}
	if m.now().Sub(m.run.lastOutput) >= spinnerDelay {
		if m.run.spinning {
			m.run.frame = (m.run.frame + 1) % len(spinner.MiniDot.Frames)
		} else {
			m.run.spinning, m.run.frame = true, 0
		}
	}
	return m.tick(m.run.id)
}

// interrupt cancels the run in flight (Ctrl-C) and drops the type-ahead.
func (m *model) interrupt() {
	m.typeahead = nil
	if m.run.active && !m.run.interrupted {
		m.run.interrupted = true
		m.run.cancel()
	}
}
