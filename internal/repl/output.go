package repl

import (
	"bytes"
	"io"
	"strings"
	"sync"

	tea "github.com/charmbracelet/bubbletea"
)

// outPipeLimit is how much complete-line output may wait for the terminal
// before a writer blocks (docs/rendering.md#hold-or-stream).
const outPipeLimit = 1 << 20

// outPipe carries a run's stdout and stderr to the model. Writers append;
// the reader takes whole lines. It is bounded: a writer waits while more
// than outPipeLimit bytes of complete lines are waiting to be printed.
type outPipe struct {
	mu        sync.Mutex
	cond      *sync.Cond
	buf       []byte
	lastNL    int  // index of the last '\n' in buf, -1 when none
	closed    bool // the run finished: no more writes
	aborted   bool // the reader is gone: writes fail
	delivered int  // chunks next has returned
}

// pending reports whether complete lines wait in the pipe, and how many
// chunks next has handed out so far.
func (p *outPipe) pending() (waiting bool, delivered int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lastNL >= 0, p.delivered
}

func newOutPipe() *outPipe {
	p := &outPipe{lastNL: -1}
	p.cond = sync.NewCond(&p.mu)
	return p
}

// Write implements io.Writer for the Runner's stdout and stderr.
func (p *outPipe) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for !p.aborted && p.lastNL >= 0 && len(p.buf) >= outPipeLimit {
		p.cond.Wait()
	}
	if p.aborted || p.closed {
		return 0, io.ErrClosedPipe
	}
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		p.lastNL = len(p.buf) + i
	}
	p.buf = append(p.buf, b...)
	p.cond.Broadcast()
	return len(b), nil
}

// close marks the end of the run's output.
func (p *outPipe) close() {
	p.mu.Lock()
	p.closed = true
	p.cond.Broadcast()
	p.mu.Unlock()
}

// abort wakes everyone and makes further writes fail.
func (p *outPipe) abort() {
	p.mu.Lock()
	p.aborted = true
	p.cond.Broadcast()
	p.mu.Unlock()
}

// next waits for output and returns every complete line waiting (with its
// newline), or, once the pipe is closed, everything left and eof.
func (p *outPipe) next() (data string, eof bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.lastNL < 0 && !p.closed && !p.aborted {
		p.cond.Wait()
	}
	p.delivered++
	if p.closed || p.aborted {
		data = string(p.buf)
		p.buf, p.lastNL = nil, -1
		p.cond.Broadcast()
		return data, true
	}
	data = string(p.buf[:p.lastNL+1])
	rest := p.buf[p.lastNL+1:]
	p.buf = append(make([]byte, 0, len(rest)), rest...)
	p.lastNL = -1
	p.cond.Broadcast()
	return data, false
}

// printable turns a chunk of output into the text for one tea.Println:
// "\r\n" becomes "\n" and the last newline is dropped (Println adds it). ok
// is false when the chunk is empty and nothing should be printed.
func printable(chunk string) (text string, ok bool) {
	if chunk == "" {
		return "", false
	}
	if strings.Contains(chunk, "\r\n") {
		chunk = strings.ReplaceAll(chunk, "\r\n", "\n")
	}
	return strings.TrimSuffix(chunk, "\n"), true
}

// printer serializes prints above the program: bubbletea runs every command
// in its own goroutine, so two tea.Println commands could land out of order.
// One print is in flight at a time; what comes meanwhile is queued and sent
// as one print when the previous one is done.
type printer struct {
	queue []string
	busy  bool
}

// printedMsg says the print in flight has reached the renderer.
type printedMsg struct{}

// print prints text (lines separated by "\n", no final newline) above the
// program, after everything printed before.
func (p *printer) print(text string) tea.Cmd {
	if p.busy {
		p.queue = append(p.queue, text)
		return nil
	}
	p.busy = true
	return printCmd(text)
}

// printed handles printedMsg: it sends what was queued, if anything.
func (p *printer) printed() tea.Cmd {
	if len(p.queue) == 0 {
		p.busy = false
		return nil
	}
	text := strings.Join(p.queue, "\n")
	p.queue = nil
	return printCmd(text)
}

// idle reports whether everything has been handed to the renderer.
func (p *printer) idle() bool { return !p.busy && len(p.queue) == 0 }

func printCmd(text string) tea.Cmd {
	return tea.Sequence(tea.Println(text), func() tea.Msg { return printedMsg{} })
}
