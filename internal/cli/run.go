package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/command"
	"github.com/agsh-dev/agsh/internal/exitcode"
	"github.com/agsh-dev/agsh/internal/iostreams"
	"github.com/agsh-dev/agsh/internal/meta"
	"github.com/agsh-dev/agsh/internal/pager"
	"github.com/agsh-dev/agsh/internal/shellcomp"
	"github.com/agsh-dev/agsh/internal/version"
	"github.com/agsh-dev/agsh/render"
)

// Main is agsh: it runs the command line args (without the program's
// name) on ios and returns the exit status, for cmd/agsh to exit with.
func Main(args []string, ios *iostreams.IOStreams, e Env) int {
	if len(args) > 0 && (args[0] == shellcomp.CompleteOption || args[0] == shellcomp.RefreshOption) {
		return hiddenComplete(args, ios, e) // the completion scripts' hidden options
	}
	line := command.Scan(args) // the one scan of the command line
	g, rest, err := line.Globals(), line.Words(), line.Err
	action := ""
	if err == nil {
		action, err = command.BeforeCommandAction(g, rest) // --version, --man, --completion
	}
	if err != nil {
		return reportEarly(ios, e, g, err, g.Format())
	}
	if action == "--version" {
		return writeVersion(ios.Out, g.Format())
	}
	if action == "--man" {
		fmt.Fprint(ios.Out, command.ManPage())
		return exitcode.OK
	}
	if action != "" {
		return shellcomp.Launch(ios.Out, g.Get("--completion"))
	}
	if len(rest) > 0 && rest[0] == "--" {
		rest = rest[1:]
	}
	if len(rest) == 0 && g.Help {
		fmt.Fprint(ios.Out, command.Usage())
		return exitcode.OK
	}
	if len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
		name, _, _ := strings.Cut(rest[0], "=") // never echo the value: it may be a secret
		return reportEarly(ios, e, g, command.Usagef("unknown option %s; see agsh --help", name), g.Format())
	}

	a := newApp(ios, e, g)
	a.late = line.Late()
	a.taken = line.Taken()
	a.debug = debugWanted(e.Getenv("AGSH_DEBUG"))
	a.yesEnv = yesWanted(e.Getenv("AGSH_YES"))
	defer a.flush()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ctx = a.withDebug(ctx, errWriter{a})
	if len(rest) == 0 {
		if g.Get("--input-json") != "" {
			return a.report(ctx, a.errOut, command.Usagef("--input-json is one command's input: give it on that command's line"))
		}
		return a.shell(ctx)
	}
	// One-shot: the first interrupt cancels the request in flight.
	ctx, stop := interruptible(ctx)
	defer stop()
	return a.oneShot(ctx, rest[0], rest[1:])
}

// writeVersion prints agsh --version: one line, or in a data format one
// object on one line.
func writeVersion(w io.Writer, f render.Format) int {
	v := version.Read("agsh")
	if f.IsData() {
		_ = f.Data.Line(w, v)
	} else {
		fmt.Fprintln(w, v)
	}
	return exitcode.OK
}

// oneShot runs `agsh <name> [args…]` (or `agsh help [tool]`).
func (a *app) oneShot(ctx context.Context, name string, args []string) int {
	if isMeta(name) {
		// A meta command's page needs no deployment (agsh :trace --help:
		// the scan took the --help as agsh's, a.g.Help).
		if page, ok := command.MetaPage(name, a.commandLine(name, args, false), a.g.Help); ok {
			if err := a.writeValue(a.out, a.errOut, render.Value{Text: page, Final: true}, render.Text, ""); err != nil {
				return a.report(ctx, a.errOut, err)
			}
			a.flush()
			return exitcode.OK
		}
	}
	if err := command.CheckLateTarget(ctx, a.late, &a.g, a.getenv("AGENT_SHELL_TARGET"), name, a.connect, &a.run); err != nil {
		return a.report(ctx, a.errOut, err)
	}
	if err := a.connect(ctx); err != nil {
		if !isStatus(name) || a.run == nil || exitcode.Of(err) == exitcode.Usage {
			return a.report(ctx, a.errOut, command.WithShadowHint(a.late, err))
		}
		a.connectErr = err // :status shows its screen and the failure
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	endPager := func() {}
	if !meta.MetaLive(append([]string{name}, args...)) {
		endPager = a.paged(cancel)
	}
	status := a.dispatch(ctx, name, args)
	if pagerQuit(ctx) {
		status = exitcode.OK // the user quit the pager: nothing failed
	}
	a.flush()
	a.sessionLine(false)
	endPager()
	return status
}

// errPagerQuit is the cause of a one-shot's end when the user quit the
// pager before the output ended.
var errPagerQuit = errors.New("the pager exited")

// pagerQuit reports a command ended because the user quit the pager.
func pagerQuit(ctx context.Context) bool { return errors.Is(context.Cause(ctx), errPagerQuit) }

// paged sends a one-shot command's output through the pager on a terminal
// (standard error held until it exits); the func returned ends it. When
// the user quits the pager first, cancel ends the command: the call's
// answer is not read any further (docs/cli.md#the-pager).
func (a *app) paged(cancel context.CancelCauseFunc) func() {
	if !a.ios.OutTTY {
		return func() {}
	}
	p := pager.New(pager.Command(a.lookupEnv), a.ios.Rows(), a.ios.CurrentWidth(), a.ios.Out, a.ios.ErrOut, a.env.Environ())
	a.ios.Out, a.ios.ErrOut = p.Out(), p.Err()
	a.setSecrets()
	done := make(chan struct{})
	go func() {
		select {
		case <-p.Quit():
			cancel(errPagerQuit)
		case <-done:
		}
	}()
	return func() { a.flush(); close(done); _ = p.Close() }
}

// dispatch runs one command: agsh's help word, unless the deployment has a
// tool of that name, or a tool.
func (a *app) dispatch(ctx context.Context, name string, args []string) int {
	if isMeta(name) {
		return a.meta(ctx, append([]string{name}, args...), true, false, a.out, a.errOut).status
	}
	if name == "help" {
		tools, err := a.run.Tools(ctx)
		if err != nil {
			return a.report(ctx, a.errOut, err)
		}
		if !command.NewTable(tools).Lookup(name).IsTool() {
			return a.helpWord(ctx, args, a.g.Format(), a.out, a.errOut)
		}
	}
	req := &toolRequest{name: name, args: args, help: a.g.Help, last: true, stdout: a.out, stderr: a.errOut}
	// The launch's scan took any --input-json of the words (a.g's): they
	// are not walked again for one.
	req.inputRead = a.taken
	return a.runTool(ctx, req).status
}

// helpWord is agsh's `help [tool]`, its words read (agsh's options taken
// out): the index, one tool's page in the line's format f, or a meta
// command's usage.
func (a *app) helpWord(ctx context.Context, words []string, f render.Format, stdout, stderr io.Writer) int {
	var tools []string
	for _, x := range words {
		if !strings.HasPrefix(x, "-") {
			tools = append(tools, x)
		}
	}
	switch len(tools) {
	case 0:
		if err := a.writeIndex(ctx, stdout, f); err != nil {
			return a.report(ctx, stderr, err)
		}
		return exitcode.OK
	case 1:
		if isMeta(tools[0]) {
			// help :wait: the meta command's usage, as :wait --help.
			return a.meta(ctx, []string{tools[0], "--help"}, true, false, stdout, stderr).status
		}
		if done, status := a.groupHelp(ctx, tools[0], f, stdout, stderr); done {
			return status
		}
		req := &toolRequest{name: tools[0], help: true, last: true, format: f, stdout: stdout, stderr: stderr}
		return a.runTool(ctx, req).status
	}
	return a.report(ctx, stderr, command.Usagef("help takes at most one tool name, got %d", len(tools)))
}

// groupHelp is `help <group>` (help datadog): the commands of that group,
// when name is no command of the deployment; done false otherwise (name
// is then a tool's page, or the unknown command).
func (a *app) groupHelp(ctx context.Context, name string, f render.Format, stdout, stderr io.Writer) (done bool, status int) {
	if _, err := a.toolOf(ctx, name); !catalog.IsCode(err, catalog.CodeUnknownTool) {
		return false, 0 // a command (its page), or another failure the page reports
	}
	tools, err := a.run.Tools(ctx)
	if err != nil {
		return false, 0
	}
	g, doc, ok := command.GroupPage(tools, name)
	if !ok {
		return false, 0
	}
	if f.IsData() {
		err = f.Data.Document(stdout, doc)
	} else {
		err = render.WriteGroup(stdout, g, a.outOpts())
	}
	if err != nil {
		return true, a.report(ctx, stderr, err)
	}
	return true, exitcode.OK
}

// hiddenComplete answers the completion scripts and refreshes their cache.
func hiddenComplete(args []string, ios *iostreams.IOStreams, e Env) int {
	self := e.Self() // the program as invoked, for the detached refresh
	dial := func(ctx context.Context, g command.Globals) (*catalog.Client, error) {
		a := newApp(ios, e, g)
		a.answerBound = shellcomp.MaxAnswerBytes
		err := a.connect(ctx)
		return a.client, err
	}
	return shellcomp.Main(context.Background(), args, ios.Out, shellcomp.Env{Getenv: e.Getenv, ReadFile: e.ReadFile,
		Home: e.HomeDir(), Environ: e.Environ(), Self: self, Dial: dial})
}
