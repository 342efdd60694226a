package repl

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
)

// RunPlain is the plain line-reading shell, for standard input a terminal
// but standard output not: the banner and the prompts ("<agent> ❯ ",
// "… ") go to cfg.ErrOut, results to cfg.Out untouched, no full-screen
// interface. An incomplete input continues on the next line. Ctrl-C
// (cfg.Interrupts, else SIGINT) cancels the run in flight, or drops the
// input being typed, and the shell goes on; end of input exits with the
// status of the last run (input still incomplete is run first, so the
// interpreter reports it). The `exit` word exits with its status; a
// cancelled ctx exits with 130.
func RunPlain(ctx context.Context, cfg Config) (status int, err error) {
	if err := cfg.check(); err != nil {
		return 1, err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	intr := cfg.Interrupts
	if intr == nil {
		ch, stop := notifyInterrupts()
		defer stop()
		intr = ch
	}
	sh := &plainShell{cfg: cfg, ctx: ctx, intr: intr, lines: make(chan lineRead, 1), want: make(chan struct{})}
	go sh.readLines(bufio.NewReader(cfg.In))
	defer close(sh.want)
	for _, l := range bannerLines(cfg) {
		fmt.Fprintln(cfg.ErrOut, l)
	}
	return sh.loop(), nil
}

type lineRead struct {
	text string
	eof  bool
	err  error
}

type plainShell struct {
	cfg     Config
	ctx     context.Context
	intr    <-chan struct{}
	lines   chan lineRead
	want    chan struct{} // asks the reader for one line; closed at the end
	status  int
	pending []string
}

// loop prompts, reads and runs until end of input, exit or ctx.
func (sh *plainShell) loop() int {
	asked := false
	for {
		if !asked {
			sh.prompt()
			sh.want <- struct{}{}
			asked = true
		}
		select {
		case <-sh.ctx.Done():
			fmt.Fprintln(sh.cfg.ErrOut)
			return StatusInterrupted
		case <-sh.intr:
			// The terminal dropped the line typed; start afresh. The
			// read asked for is still outstanding.
			sh.pending = nil
			fmt.Fprintln(sh.cfg.ErrOut)
			sh.prompt()
		case l := <-sh.lines:
			asked = false
			if done, status := sh.line(l); done {
				return status
			}
		}
	}
}

func (sh *plainShell) prompt() {
	p := statusMark(sh.status) + promptMark
	if len(sh.pending) > 0 {
		p = continuationMark
	} else if sh.cfg.AgentName != "" {
		p = sh.cfg.AgentName + " " + p
	}
	fmt.Fprint(sh.cfg.ErrOut, p)
}

// line handles one line read; done says the shell ends with status.
func (sh *plainShell) line(l lineRead) (done bool, status int) {
	if l.err != nil {
		fmt.Fprintf(sh.cfg.ErrOut, "\nagsh: reading input: %v\n", l.err)
		return true, sh.status
	}
	if l.eof && l.text == "" {
		fmt.Fprintln(sh.cfg.ErrOut)
		if len(sh.pending) > 0 {
			src := strings.Join(sh.pending, "\n")
			sh.pending = nil
			if st, _, interrupted := sh.run(src); !interrupted {
				return true, st
			}
			return true, StatusInterrupted
		}
		return true, sh.status
	}
	src := strings.Join(append(append([]string(nil), sh.pending...), l.text), "\n")
	if !l.eof && incomplete(sh.cfg.Runner, src) {
		sh.pending = append(sh.pending, l.text)
		return false, 0
	}
	sh.pending = nil
	if strings.TrimSpace(src) == "" {
		return l.eof, sh.status
	}
	st, exit, interrupted := sh.run(src)
	if interrupted && sh.ctx.Err() != nil {
		return true, StatusInterrupted
	}
	sh.status = st
	return exit || l.eof, st
}

// run runs src, cancelling it on an interrupt or when ctx ends.
func (sh *plainShell) run(src string) (status int, exit, interrupted bool) {
	ctx, cancel := context.WithCancel(sh.ctx)
	defer cancel()
	type result struct {
		status int
		exit   bool
	}
	done := make(chan result, 1)
	go func() {
		var r result
		defer func() {
			if v := recover(); v != nil {
				fmt.Fprintf(sh.cfg.ErrOut, "agsh: internal error: %v\n", v)
				r = result{status: 1}
			}
			done <- r
		}()
		r.status, r.exit = sh.cfg.Runner.Run(ctx, src, sh.cfg.Out, sh.cfg.ErrOut)
	}()
	for {
		select {
		case r := <-done:
			return r.status, r.exit, interrupted
		case <-sh.intr:
			interrupted = true
			cancel()
		case <-sh.ctx.Done():
			interrupted = true
			cancel()
		}
	}
}

// readLines reads one line each time it is asked, until end of input.
func (sh *plainShell) readLines(r *bufio.Reader) {
	for range sh.want {
		text, err := r.ReadString('\n')
		l := lineRead{text: strings.TrimSuffix(strings.TrimSuffix(text, "\n"), "\r")}
		switch {
		case errors.Is(err, io.EOF):
			l.eof = true
		case err != nil:
			l.err = err
		}
		sh.lines <- l
		if l.eof || l.err != nil {
			// Further asks get end of input again.
			for range sh.want {
				sh.lines <- lineRead{eof: true}
			}
			return
		}
	}
}

// notifyInterrupts turns SIGINT into a channel for the shell's lifetime.
func notifyInterrupts() (<-chan struct{}, func()) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	out := make(chan struct{}, 1)
	quit := make(chan struct{})
	go func() {
		for {
			select {
			case <-sig:
				select {
				case out <- struct{}{}:
				default:
				}
			case <-quit:
				return
			}
		}
	}()
	return out, func() {
		signal.Stop(sig)
		close(quit)
	}
}
