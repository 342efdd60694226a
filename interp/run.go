package interp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/agsh-dev/agsh/internal/exitcode"
	"github.com/agsh-dev/agsh/internal/names"
	"github.com/agsh-dev/agsh/interp/syntax"
)

// Exit statuses interp produces itself (agsh's one table: exitcode).
const (
	StatusOK          = exitcode.OK
	StatusFailure     = exitcode.ToolError
	StatusUsage       = exitcode.Usage
	StatusInterrupted = exitcode.Interrupted
)

// RunScript parses and runs a whole script (script mode). A parse error anywhere
// runs nothing: it prints "<Prefix>line 3: col 14: <message>" and returns 2 (an
// input that ends inside a construct is reported the same way). Otherwise every
// list runs, failures do not stop the script, messages name the line
// ("<Prefix>line 3: <message>"), and the status of the last pipeline run is
// returned. `exit` stops the script with its status; an interruption (ctx
// cancelled, or a command that returns 130) stops it with 130.
func (r *Runner) RunScript(ctx context.Context, src string) int {
	s, err := syntax.Parse(src)
	if err != nil {
		r.message(r.Prefix, StatusUsage, err.Error())
		return StatusUsage
	}
	if c, ok := r.Handler.(Checker); ok && r.CheckScript(ctx, s, c) > 0 {
		return StatusUsage
	}
	return r.RunParsed(ctx, s)
}

// RunParsed runs a parsed (and checked) script as RunScript does.
func (r *Runner) RunParsed(ctx context.Context, s *syntax.Script) int {
	status := r.last
	for _, l := range s.Lists {
		st, exit := r.runList(ctx, l, true)
		status = st
		if exit {
			return st
		}
		if st == StatusInterrupted {
			return st
		}
	}
	return status
}

// RunList runs one parsed list (one REPL line); messages start with Prefix only.
// exit is true when the list ran `exit`: the caller should stop with status.
// An interruption ends the list with status 130 but does not ask to exit.
func (r *Runner) RunList(ctx context.Context, l *syntax.List) (status int, exit bool) {
	return r.runList(ctx, l, false)
}

// LastStatus returns the status of the last pipeline run (0 before any).
func (r *Runner) LastStatus() int { return r.last }

func (r *Runner) runList(ctx context.Context, l *syntax.List, script bool) (int, bool) {
	status := r.last
	for i, pl := range l.Pipelines {
		if i > 0 && i-1 < len(l.Ops) {
			switch l.Ops[i-1] {
			case syntax.OpAnd:
				if status != 0 {
					continue
				}
			case syntax.OpOr:
				if status == 0 {
					continue
				}
			}
		}
		if ctx.Err() != nil {
			r.last = StatusInterrupted
			return StatusInterrupted, false
		}
		if pl == nil {
			continue
		}
		prefix := r.Prefix
		if script {
			prefix += "line " + strconv.Itoa(pl.Pos.Line) + ": "
		}
		st, exit := r.runPipeline(context.WithValue(ctx, prefixKey{}, prefix), pl, prefix)
		if ctx.Err() != nil {
			st = StatusInterrupted
		}
		status = st
		r.last = st
		if exit || st == StatusInterrupted {
			return st, exit
		}
	}
	return status, false
}

// runPipeline resolves and validates every command of a pipeline, then runs it.
func (r *Runner) runPipeline(ctx context.Context, pl *syntax.Pipeline, prefix string) (int, bool) {
	fail := func(status int, format string, args ...any) (int, bool) {
		r.message(prefix, status, fmt.Sprintf(format, args...))
		return status, false
	}
	if len(pl.Commands) == 0 { // only a hand-built tree can hold these
		return fail(StatusUsage, "empty command")
	}
	for _, c := range pl.Commands {
		if c == nil || len(c.Words) == 0 {
			return fail(StatusUsage, "empty command")
		}
	}
	argv := pl.Commands[0].Args()
	name := argv[0]
	isTool := r.Handler != nil && r.Handler.IsTool(name)
	if !isTool {
		switch {
		case IsFilter(name):
			return fail(StatusUsage, "%s reads a pipe: put it after |", name)
		case name != "help" && name != "exit":
			return fail(StatusUsage, "%s", r.unknown(name))
		case name == "exit" && len(pl.Commands) > 1:
			return fail(StatusUsage, "exit does not write to a pipe")
		}
	}
	filters := make([]filter, 0, len(pl.Commands)-1)
	for _, c := range pl.Commands[1:] {
		args := c.Args()
		if !IsFilter(args[0]) {
			if args[0] == "help" || args[0] == "exit" || (r.Handler != nil && r.Handler.IsTool(args[0])) {
				return fail(StatusUsage, "%s does not read a pipe; after | use head, tail, wc, grep or jq", args[0])
			}
			return fail(StatusUsage, "%s", unknownCommand(args[0], names.Suggest(args[0], FilterNames())))
		}
		f, err := newFilter(args)
		if err != nil {
			return fail(StatusUsage, "%s", err)
		}
		if j, ok := f.(*jq); ok {
			j.stderr, j.clean = r.stderr(), r.clean
			j.last = c == pl.Commands[len(pl.Commands)-1]
		}
		filters = append(filters, f)
	}

	var v Value
	switch {
	case isTool:
		last := len(filters) == 0
		val, res := r.Handler.Call(ctx, argv, last, r.stdout(), r.stderr())
		if res.Status != 0 {
			return res.Status, false
		}
		if last && res.Rendered {
			return StatusOK, false
		}
		v = val
	case name == "exit":
		return r.exit(argv[1:], prefix)
	default: // help
		out := r.stdout()
		var buf bytes.Buffer
		if len(filters) > 0 {
			out = &buf
		}
		st := StatusUsage
		if r.Handler != nil {
			st = r.Handler.Help(ctx, argv[1:], out, r.stderr())
		}
		if st != 0 || len(filters) == 0 {
			return st, false
		}
		v = Value{Text: buf.String(), Final: true}
	}

	status := StatusOK
	for _, f := range filters {
		var err error
		v, status, err = f.run(ctx, r.Renderer, v)
		if err != nil {
			r.message(prefix, status, f.name()+": "+err.Error())
		}
		if ctx.Err() != nil {
			return StatusInterrupted, false
		}
	}
	if err := r.render(v); err != nil {
		return StatusFailure, false
	}
	return status, false
}

// CheckScript checks every command of a parsed script before any runs, as
// runPipeline would check it and with c for tools and meta commands, and
// reports each usage error as a parse error is reported ("line 50: col 5:
// …"). It returns how many it reported.
func (r *Runner) CheckScript(ctx context.Context, s *syntax.Script, c Checker) int {
	n := 0
	report := func(w *syntax.Word, format string, args ...any) {
		n++
		r.message(r.Prefix, StatusUsage, fmt.Sprintf("line %d: col %d: ", w.Pos.Line, w.Pos.Col)+fmt.Sprintf(format, args...))
	}
	for _, l := range s.Lists {
		for _, pl := range l.Pipelines {
			if pl == nil || len(pl.Commands) == 0 {
				continue
			}
			r.checkPipeline(ctx, pl, c, report)
		}
		if ctx.Err() != nil {
			break
		}
	}
	return n
}

// checkPipeline checks one pipeline (CheckScript).
func (r *Runner) checkPipeline(ctx context.Context, pl *syntax.Pipeline, c Checker, report func(*syntax.Word, string, ...any)) {
	for _, cmd := range pl.Commands {
		if cmd == nil || len(cmd.Words) == 0 || cmd.Words[0] == nil {
			return // runPipeline reports it
		}
	}
	first := pl.Commands[0]
	argv := first.Args()
	name := argv[0]
	isTool := r.Handler.IsTool(name)
	switch {
	case isTool:
		if i, err := c.Check(ctx, argv, len(pl.Commands) == 1); err != nil {
			report(wordAt(first, i), "%s", err)
		}
	case IsFilter(name):
		report(first.Words[0], "%s reads a pipe: put it after |", name)
	case name != "help" && name != "exit":
		report(first.Words[0], "%s", r.unknown(name))
	case name == "exit" && len(pl.Commands) > 1:
		report(first.Words[0], "exit does not write to a pipe")
	}
	for _, cmd := range pl.Commands[1:] {
		args := cmd.Args()
		if !IsFilter(args[0]) {
			if args[0] == "help" || args[0] == "exit" || r.Handler.IsTool(args[0]) {
				report(cmd.Words[0], "%s does not read a pipe; after | use head, tail, wc, grep or jq", args[0])
			} else {
				report(cmd.Words[0], "%s", unknownCommand(args[0], names.Suggest(args[0], FilterNames())))
			}
			continue
		}
		if _, err := newFilter(args); err != nil {
			report(cmd.Words[0], "%s", err)
		}
	}
}

// wordAt is the command's word i, its name when there is no such word.
func wordAt(c *syntax.Command, i int) *syntax.Word {
	if i > 0 && i < len(c.Words) && c.Words[i] != nil {
		return c.Words[i]
	}
	return c.Words[0]
}

// exit handles the shell word `exit [status]`, following bash: no operand exits
// with the last status, a non-numeric one exits 2 after a message, and more
// than one operand is an error that does not exit.
func (r *Runner) exit(args []string, prefix string) (int, bool) {
	switch len(args) {
	case 0:
		return r.last, true
	case 1:
		n, err := strconv.ParseInt(args[0], 10, 64)
		if err != nil {
			r.message(prefix, StatusUsage, "exit: "+args[0]+": numeric argument required")
			return StatusUsage, true
		}
		return int(uint8(n)), true
	}
	r.message(prefix, StatusUsage, "exit: too many arguments")
	return StatusUsage, false
}

// message prints one of interp's own messages for a failure with status, and
// hands a usage failure (status 2 or more) to OnError.
func (r *Runner) message(prefix string, status int, msg string) {
	fmt.Fprintf(r.stderr(), "%s%s\n", prefix, r.clean(msg))
	if r.OnError != nil && status >= StatusUsage {
		r.OnError(r.stderr(), status, msg)
	}
}

// render writes the final value through the Renderer, or plainly without one.
func (r *Runner) render(v Value) error {
	if r.Renderer != nil {
		return r.Renderer.Render(r.stdout(), r.stderr(), v)
	}
	s := v.Text
	if v.IsJSON {
		s = string(v.JSON)
	}
	if s == "" {
		return nil
	}
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	_, err := io.WriteString(r.stdout(), s)
	return err
}

// unknown is the message of a command name that names nothing: the
// Handler's reason when it has one (UnknownNoter), else did-you-mean.
func (r *Runner) unknown(name string) string {
	if n, ok := r.Handler.(UnknownNoter); ok {
		if note := n.UnknownNote(name); note != "" {
			return "unknown command \"" + name + "\": " + note
		}
	}
	return unknownCommand(name, r.suggest(name))
}

// suggest is what an unknown command name may mean: the Handler's answer
// (the command resolver's), else the shell's words and filters.
func (r *Runner) suggest(name string) []string {
	if r.Handler != nil {
		return r.Handler.Suggest(name)
	}
	return names.Suggest(name, append(ShellWords(), FilterNames()...))
}

func (r *Runner) stdout() io.Writer {
	if r.Stdout == nil {
		return io.Discard
	}
	return r.Stdout
}

// clean is Clean, or the identity.
func (r *Runner) clean(s string) string {
	if r.Clean == nil {
		return s
	}
	return r.Clean(s)
}

func (r *Runner) stderr() io.Writer {
	if r.Stderr == nil {
		return io.Discard
	}
	return r.Stderr
}
