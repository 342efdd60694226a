package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/agsh-dev/agsh/internal/iostreams"
	"github.com/agsh-dev/agsh/render"
)

// run is agsh: it returns the exit status.
func run(args []string, ios *iostreams.IOStreams, e env) int {
	g, rest, err := splitGlobals(args)
	if err != nil {
		return reportEarly(ios, e, g, err, jsonRequested(args))
	}
	if len(rest) > 0 && rest[0] == "--" {
		rest = rest[1:]
	}
	if len(rest) > 0 && rest[0] == "--version" {
		return printVersion(ios, e, g, rest)
	}
	if len(rest) == 0 && g.help {
		fmt.Fprint(ios.Out, usageText)
		return exitOK
	}
	if len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
		name, _, _ := strings.Cut(rest[0], "=") // never echo the value: it may be a secret
		return reportEarly(ios, e, g, usagef("unknown option %s; see agsh --help", name), g.json())
	}

	a := newApp(ios, e, g)
	defer a.flush()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if len(rest) == 0 {
		return a.shell(ctx)
	}
	// One-shot: the first interrupt cancels the request in flight.
	ctx, stop := interruptible(ctx)
	defer stop()
	return a.oneShot(ctx, rest[0], rest[1:])
}

// reportEarly reports a usage error found before the app exists, with the
// same care as every other message: the credential (from the flag or the
// environment) redacted, and the text made safe on a terminal.
func reportEarly(ios *iostreams.IOStreams, e env, g globals, err error, jsonLine bool) int {
	token := g.token
	if token == "" {
		token = e.Getenv("AGENT_SHELL_BEARER_TOKEN")
	}
	w := iostreams.NewRedactor(ios.ErrOut, token)
	defer w.Flush()
	if ios.ErrTTY {
		err = &usageError{render.Safe(err.Error())}
	}
	return reportError(w, err, jsonLine)
}

// jsonRequested is a best-effort look for --output json when the options
// themselves could not be parsed.
func jsonRequested(args []string) bool {
	for i, a := range args {
		if a == "--output=json" || (a == "--output" && i+1 < len(args) && args[i+1] == "json") {
			return true
		}
	}
	return false
}

// oneShot runs `agsh <name> [args…]` (or `agsh help [tool]`).
func (a *app) oneShot(ctx context.Context, name string, args []string) int {
	if err := a.connect(ctx); err != nil {
		return a.report(ctx, a.errOut, err)
	}
	status := a.dispatch(ctx, name, args)
	a.flush()
	a.sessionLine()
	return status
}

// dispatch runs one command: the help word, or a tool.
func (a *app) dispatch(ctx context.Context, name string, args []string) int {
	if name == "help" {
		isTool, err := a.hasTool(ctx, "help")
		if err != nil {
			return a.report(ctx, a.errOut, err)
		}
		if !isTool {
			return a.helpWord(ctx, args, a.out, a.errOut)
		}
	}
	o := a.runTool(ctx, name, args, a.g.help, false, true, a.out, a.errOut)
	return o.status
}

// hasTool reports whether the deployment has a tool of that name.
func (a *app) hasTool(ctx context.Context, name string) (bool, error) {
	tools, err := a.loadTools(ctx)
	if err != nil {
		return false, err
	}
	for _, t := range tools {
		if t.Name == name {
			return true, nil
		}
	}
	return false, nil
}

// helpWord is agsh's `help [tool]`: the index, or one tool's page.
func (a *app) helpWord(ctx context.Context, args []string, stdout, stderr interface {
	Write([]byte) (int, error)
}) int {
	var tools []string
	jsonOut := a.g.json()
	for i := 0; i < len(args); i++ {
		switch x := args[i]; {
		case x == "--output" && i+1 < len(args):
			i++
			jsonOut = args[i] == "json"
		case strings.HasPrefix(x, "--output="):
			jsonOut = x == "--output=json"
		case !strings.HasPrefix(x, "-"):
			tools = append(tools, x)
		}
	}
	switch len(tools) {
	case 0:
		if err := a.writeIndex(ctx, stdout, jsonOut); err != nil {
			return a.report(ctx, stderr, err)
		}
		return exitOK
	case 1:
		return a.runTool(ctx, tools[0], nil, true, false, true, stdout, stderr).status
	}
	return a.report(ctx, stderr, usagef("help takes at most one tool name, got %d", len(tools)))
}
