package repl

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/mattn/go-runewidth"
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
	done        bool   // the Runner returned
	next        string // the line the Runner put on the editor
	live        bool   // the output is never held for the pager (LiveRunner)
	drained     bool   // all its output has been read
	exit        bool
	status      int
	lastOutput  time.Time // start of the run, then time of the latest output
	spinning    bool
	frame       int
	interrupted bool
	// With a Pager: the output held until the run ends, and the screen
	// rows it takes; paged once it has been shown through the pager.
	held     []string
	heldRows int
	paged    bool
	// received counts the output chunks the model has had; asking holds a
	// question (Terminal.Ask) until the output before it is drawn.
	received int
	asking   *askMsg
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
		next    string // a line to put on the editor (LinePutter)
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
	if lr, ok := m.cfg.Runner.(LiveRunner); ok {
		m.run.live = lr.Live(src)
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
		if lp, ok := runner.(LinePutter); ok {
			done.next = lp.NextLine()
		}
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
	m.run.received++
	var cmds []tea.Cmd
	if text, ok := printable(msg.data); ok {
		m.run.lastOutput = m.now()
		m.run.spinning = false
		if m.cfg.Pager != "" && m.height > 0 && !m.run.live {
			// Held whole lines: the newline printable drops (Println
			// adds it) is put back, so the pager counts and shows every
			// line however the output arrived in chunks.
			m.hold(text + "\n")
		} else {
			cmds = append(cmds, m.out.print(text))
		}
	}
	if msg.eof {
		m.run.drained = true
		cmds = append(cmds, m.finishRun())
	} else {
		cmds = append(cmds, readOutput(m.run.id, m.run.pipe))
	}
	return tea.Batch(append(cmds, m.askWhenDrawn())...)
}

// ask handles a question of the running line (Terminal.Ask): the keys
// typed ahead are dropped, and the question waits for the output before it.
func (m *model) ask(msg askMsg) tea.Cmd {
	m.typeahead = nil
	if !m.run.active {
		return exclusive(msg.exclusiveMsg)
	}
	m.run.asking = &msg
	return m.askWhenDrawn()
}

// askWhenDrawn releases the terminal to the question waiting, once every
// chunk of output written before it has been printed.
func (m *model) askWhenDrawn() tea.Cmd {
	q := m.run.asking
	if q == nil {
		return nil
	}
	waiting, delivered := m.run.pipe.pending()
	if waiting || delivered != m.run.received || !m.out.idle() {
		return nil
	}
	m.run.asking = nil
	m.typeahead = nil
	return exclusive(q.exclusiveMsg)
}

// runDone records the Runner's answer; the run ends once its output is read.
func (m *model) runDone(msg runDoneMsg) tea.Cmd {
	if !m.run.active || msg.id != m.run.id {
		return nil
	}
	m.run.done = true
	m.run.status, m.run.exit, m.run.next = msg.status, msg.exit, msg.next
	return tea.Batch(m.historyError(msg.histErr), m.finishRun())
}

// finishRun ends the run when the Runner has returned and its output is
// all read, then replays the keys typed meanwhile.
func (m *model) finishRun() tea.Cmd {
	if !m.run.done || !m.run.drained {
		return nil
	}
	if held := strings.Join(m.run.held, ""); held != "" && !m.run.paged {
		m.run.paged = true
		if m.run.heldRows < m.height {
			return tea.Sequence(m.out.print(strings.TrimSuffix(held, "\n")), func() tea.Msg { return pagerDoneMsg{} })
		}
		c := exec.Command("sh", "-c", m.cfg.Pager)
		// The pager writes to the terminal itself (through a pipe less
		// acts as cat), so the secrets the output writer masks are masked
		// here.
		c.Stdin = strings.NewReader(m.cfg.redact(held))
		if f := terminalFile(m.cfg.Out); f != nil {
			c.Stdout, c.Stderr = f, f
		}
		return tea.ExecProcess(c, func(error) tea.Msg { return pagerDoneMsg{} })
	}
	m.run.active = false
	m.run.spinning = false
	m.status = m.run.status
	if m.run.next != "" && m.ed.text() == "" {
		// Typed-ahead keys go on after it.
		m.ed.set(m.run.next)
	}
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

// pagerDoneMsg: the pager showing a run's output has exited.
type pagerDoneMsg struct{}

// hold keeps a chunk of output for the pager, counting the screen rows it
// takes (a line wider than the screen wraps).
func (m *model) hold(text string) {
	m.run.held = append(m.run.held, text)
	for _, l := range strings.SplitAfter(text, "\n") {
		if strings.HasSuffix(l, "\n") {
			m.run.heldRows += 1 + max(0, runewidth.StringWidth(strings.TrimSuffix(l, "\n"))-1)/max(m.width, 1)
		}
	}
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
