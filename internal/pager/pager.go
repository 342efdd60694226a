// Package pager sends a one-shot command's long output through the user's
// pager (docs/cli.md#the-pager), as git and gh do: only on a terminal, only
// when the output is taller than the screen, through $PAGER (default
// "less -FRX"); AGSH_PAGER="" or PAGER=cat turns it off. What goes to
// standard error meanwhile (notes, the session line) is held and written
// after the pager exits, so it is neither lost in nor drawn over the pager.
package pager

import (
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// MaxLine bounds a line on its way to the pager: the rest of a longer line
// is left out (a pager holds every line whole), and Close adds a note that
// says so. Output that is not paged is never cut.
const MaxLine = 1 << 20

// CutNote is the note written after the pager when a line was cut.
const CutNote = "agsh: note: a line longer than 1 MiB was cut on its way to the pager; " +
	"to get it whole, pipe the output (agsh … | less) or use --output json\n"

// Default is the pager when neither AGSH_PAGER nor PAGER is set.
const Default = "less -FRX"

// Command is the pager command line from the environment (lookup is
// os.LookupEnv or a stand-in): AGSH_PAGER when set, else PAGER when set,
// else Default; "" when paging is off (an empty value, or cat).
func Command(lookup func(string) (string, bool)) string {
	cmd := Default
	if v, ok := lookup("AGSH_PAGER"); ok {
		cmd = v
	} else if v, ok := lookup("PAGER"); ok {
		cmd = v
	}
	cmd = strings.TrimSpace(cmd)
	if cmd == "cat" {
		return ""
	}
	return cmd
}

// Pager holds standard output until it is taller than the screen, then
// starts the pager and streams everything to it. Close ends it.
type Pager struct {
	command string
	rows    int // the screen's height
	cols    int // its width (for lines that wrap)
	tty     io.Writer
	stderr  io.Writer
	env     []string

	mu      sync.Mutex
	held    bytes.Buffer // standard output not yet shown
	used    int          // screen rows the held lines take
	lineLen int          // bytes of the held line not ended yet
	proc    *exec.Cmd
	in      io.WriteCloser
	failed  bool
	errHeld bytes.Buffer // standard error, written after the pager

	line int  // bytes of the current line on the pager's way
	cut  bool // a line was cut
	skip bool // the rest of a cut line is being left out

	// quit is closed when the pager exits; exited says so to writes.
	quit   chan struct{}
	exited atomic.Bool
}

// New returns a Pager writing to the terminal tty (rows × cols), running
// command with env (nil: the process's; LESS=FRX is added when it has no
// LESS); stderr receives the held standard
// error at Close. A command of "" or a screen of no rows never pages.
func New(command string, rows, cols int, tty, stderr io.Writer, env []string) *Pager {
	return &Pager{command: command, rows: rows, cols: cols, tty: tty, stderr: stderr, env: env, quit: make(chan struct{})}
}

// Quit is closed when the pager exits: once the user quits it, nothing
// more is wanted, and the caller stops what produces the output.
func (p *Pager) Quit() <-chan struct{} { return p.quit }

// Out is the writer for standard output.
func (p *Pager) Out() io.Writer { return writerFunc(p.write) }

// Err is the writer for standard error: held until Close.
func (p *Pager) Err() io.Writer {
	return writerFunc(func(b []byte) (int, error) {
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.errHeld.Write(b)
	})
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

func (p *Pager) write(b []byte) (int, error) {
	n := len(b)
	if p.exited.Load() {
		return n, nil // the user quit the pager: the rest is not wanted
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.in == nil && (p.command == "" || p.rows <= 0 || p.failed) {
		return p.tty.Write(b)
	}
	b = p.cutLong(b)
	if p.in != nil {
		// An error means the user quit the pager: the rest is not wanted.
		_, _ = p.in.Write(b)
		return n, nil
	}
	p.held.Write(b)
	p.count(b)
	if p.used+p.rowsOf(p.lineLen) >= p.rows {
		p.start()
	}
	return n, nil
}

// cutLong answers b with every line kept to MaxLine bytes (cut at a
// character), counting across writes. A cut line is ended for the pager at
// the cut, not when its own line break comes: a pager waits for a line's
// end before it draws the screen and reads a key, so a line that never
// ends (an endless stream) would keep the user from quitting it. The rest
// of the line, its line break included, is left out.
func (p *Pager) cutLong(b []byte) []byte {
	if !p.skip && p.line+len(b) <= MaxLine {
		if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
			p.line = len(b) - i - 1
		} else {
			p.line += len(b)
		}
		return b
	}
	out := make([]byte, 0, min(len(b), MaxLine+1))
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if p.skip {
			if i < 0 {
				break // still the cut line's rest
			}
			p.skip, p.line = false, 0
			b = b[i+1:]
			continue
		}
		seg := b
		if i >= 0 {
			seg = b[:i]
		}
		if room := MaxLine - p.line; len(seg) > room {
			keep := max(room, 0)
			for keep > 0 && keep < len(seg) && !utf8.RuneStart(seg[keep]) {
				keep--
			}
			out = append(out, seg[:keep]...)
			out = append(out, '\n')
			p.cut, p.skip, p.line = true, true, 0
			continue // the rest of this line, up to its line break, is left out
		}
		out = append(out, seg...)
		p.line += len(seg)
		if i < 0 {
			break
		}
		out = append(out, '\n')
		p.line = 0
		b = b[i+1:]
	}
	return out
}

// count adds the screen rows of the lines b ends to used; a line's bytes
// are counted across writes (lineLen: the bytes of the line not ended
// yet), however the output arrives in pieces.
func (p *Pager) count(b []byte) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			p.lineLen += len(b)
			return
		}
		p.used += max(1, p.rowsOf(p.lineLen+i))
		p.lineLen = 0
		b = b[i+1:]
	}
}

// rowsOf is how many screen rows a line of n bytes takes (a line wider
// than cols wraps; escape sequences and multi-byte characters are counted
// as bytes, so this errs on paging).
func (p *Pager) rowsOf(n int) int {
	if p.cols <= 0 {
		return min(n, 1)
	}
	return (n + p.cols - 1) / p.cols
}

// start runs the pager and gives it what is held; when it cannot start,
// the output goes to the terminal with a note.
func (p *Pager) start() {
	cmd := exec.Command("sh", "-c", p.command)
	cmd.Stdout, cmd.Stderr = p.tty, p.tty
	if p.env != nil {
		cmd.Env = p.env
		if !hasVar(cmd.Env, "LESS") {
			cmd.Env = append(cmd.Env, "LESS=FRX") // as git does
		}
	}
	var err error
	if f := strings.Fields(p.command); len(f) > 0 && !strings.ContainsAny(f[0], "=$'\"") {
		_, err = exec.LookPath(f[0]) // sh would start, then not find it
	}
	var in io.WriteCloser
	if err == nil {
		in, err = cmd.StdinPipe()
	}
	if err == nil {
		err = cmd.Start()
	}
	if err != nil {
		p.failed = true
		fmt.Fprintf(&p.errHeld, "agsh: pager %q did not start: %v\n", p.command, err)
		p.tty.Write(p.held.Bytes())
		p.held.Reset()
		return
	}
	p.proc, p.in = cmd, in
	go func() {
		_ = cmd.Wait()
		p.exited.Store(true)
		close(p.quit)
	}()
	_, _ = in.Write(p.held.Bytes())
	p.held.Reset()
}

// Paging reports whether the pager was started.
func (p *Pager) Paging() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.proc != nil
}

// Close shows what is held (on the terminal when it never filled the
// screen), waits for the pager to exit, then writes the held standard
// error, after the note of a line cut on the pager's way (unless the user
// quit the pager before the output ended).
func (p *Pager) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cut && p.exited.Load() {
		p.cut = false // the user quit the pager before the end: no more to say
	}
	if p.cut {
		// Before what was held: the session line stays the last line.
		held := append([]byte(CutNote), p.errHeld.Bytes()...)
		p.errHeld.Reset()
		p.errHeld.Write(held)
		p.cut = false
	}
	if p.proc != nil {
		p.in.Close()
		<-p.quit
	} else if p.held.Len() > 0 {
		p.tty.Write(p.held.Bytes())
		p.held.Reset()
	}
	_, err := p.stderr.Write(p.errHeld.Bytes())
	p.errHeld.Reset()
	return err
}

func hasVar(env []string, name string) bool {
	for _, e := range env {
		if strings.HasPrefix(e, name+"=") {
			return true
		}
	}
	return false
}

// ShellCommand is the pager of the interactive shell: AGSH_PAGER's command
// when it is set (as Command reads it), else "" (the REPL pages only when
// asked to).
func ShellCommand(lookup func(string) (string, bool)) string {
	if _, ok := lookup("AGSH_PAGER"); !ok {
		return ""
	}
	return Command(lookup)
}
