package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/agsh-dev/agsh/interp"
	"github.com/agsh-dev/agsh/interp/syntax"
	"github.com/agsh-dev/agsh/render"
)

// shell runs agsh without a command (shell.md): a script read from standard
// input when it is not a terminal, the plain line shell when only standard
// output is not a terminal, the REPL otherwise. The session identity is bound
// once, at launch, and printed once, at the end.
func (a *app) shell(ctx context.Context) int {
	if err := a.connect(ctx); err != nil {
		return a.report(ctx, a.errOut, err)
	}
	rd := &shellRenderer{a: a}
	runner := &interp.Runner{Handler: &shellHandler{a: a, rd: rd}, Renderer: rd, Stdout: a.out, Stderr: a.errOut, Prefix: "agsh: "}
	if a.ios.ErrTTY || a.ios.InTTY && a.ios.OutTTY { // the REPL prints stderr on the terminal
		runner.Clean = render.SafeLabel
	}
	if a.g.json() {
		// Failures of the shell itself get the JSON error line, as a one-shot
		// command's do (cli.md).
		runner.OnError = func(w io.Writer, _ int, msg string) { writeJSONErrorLine(w, usagef("%s", msg)) }
	}
	var status int
	switch {
	case !a.ios.InTTY:
		status = a.script(ctx, runner)
	default:
		status = a.interactive(ctx, runner)
	}
	a.flush()
	a.sessionLine()
	return status
}

// launch binds the session and loads the catalog (in parallel, wire.md).
func (a *app) launch(ctx context.Context) error {
	_, err := a.loadTools(ctx)
	return err
}

// script reads the whole script, parses it, then runs it; the first
// interrupt stops it with status 130.
func (a *app) script(ctx context.Context, runner *interp.Runner) int {
	src, err := io.ReadAll(a.ios.In)
	if err != nil {
		return a.report(ctx, a.errOut, fmt.Errorf("reading the script: %w", err))
	}
	if _, perr := syntax.Parse(string(src)); perr != nil {
		// Nothing runs, nothing is asked of the deployment.
		return runner.RunScript(ctx, string(src))
	}
	ctx, stop := interruptible(ctx)
	defer stop()
	if err := a.launch(ctx); err != nil {
		return a.report(ctx, a.errOut, err)
	}
	return runner.RunScript(ctx, string(src))
}

// shellHandler gives the interpreter the deployment's tools and help.
type shellHandler struct {
	a  *app
	rd *shellRenderer
}

func (h *shellHandler) IsTool(name string) bool {
	for _, t := range h.a.tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

func (h *shellHandler) ToolNames() []string {
	names := make([]string, 0, len(h.a.tools))
	for _, t := range h.a.tools {
		names = append(names, t.Name)
	}
	sort.Strings(names)
	return names
}

func (h *shellHandler) Call(ctx context.Context, argv []string, last bool, stdout, stderr io.Writer) (interp.Value, interp.Result) {
	h.rd.output = ""
	if !last {
		// The tool's --output is the pipeline's: it renders the last value.
		h.rd.output = outputFlag(argv[1:])
		// A tool before a pipe writes on standard output only its help
		// (read --help | head): that text is the value the filters get.
		var help bytes.Buffer
		o := h.a.runTool(ctx, argv[0], valueArgs(argv[1:]), false, true, false, &help, stderr)
		if o.rendered && o.status == 0 {
			return interp.Value{Text: help.String(), Final: true}, interp.Result{}
		}
		_, _ = stdout.Write(help.Bytes())
		v := interp.Value{Text: o.value.Text, JSON: o.value.JSON, IsJSON: o.value.IsJSON, Final: o.value.Final}
		return v, interp.Result{Status: o.status, Rendered: o.rendered}
	}
	o := h.a.runTool(ctx, argv[0], argv[1:], false, true, last, stdout, stderr)
	v := interp.Value{Text: o.value.Text, JSON: o.value.JSON, IsJSON: o.value.IsJSON, Final: o.value.Final}
	return v, interp.Result{Status: o.status, Rendered: o.rendered}
}

// Help is the shell's word help [--output text|json] [tool]. The --output is
// this command's, as on any command line; a filter's name gives its page.
func (h *shellHandler) Help(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var words []string
	output := ""
	for i := 0; i < len(args); i++ {
		switch x := args[i]; {
		case x == "--output" && i+1 < len(args):
			output = args[i+1]
			i++
		case strings.HasPrefix(x, "--output="):
			output = strings.TrimPrefix(x, "--output=")
		default:
			words = append(words, x)
		}
	}
	switch output {
	case "":
	case "text", "json":
		saved := h.a.g.output
		h.a.g.output = output
		defer func() { h.a.g.output = saved }()
	default:
		return h.a.report(ctx, stderr, usagef("--output must be text or json, not %q", output))
	}
	if len(words) == 1 && !h.IsTool(words[0]) {
		if page, ok := interp.FilterHelp(words[0]); ok {
			_, _ = io.WriteString(stdout, page)
			return 0
		}
	}
	return h.a.helpWord(ctx, words, stdout, stderr)
}

// shellRenderer renders the final value of a pipeline as one-shot calls do.
type shellRenderer struct {
	a *app
	// output is the --output given to the pipeline's tool ("" when none).
	output string
}

func (r *shellRenderer) Render(stdout, stderr io.Writer, v interp.Value) error {
	rv := render.Value{Text: v.Text, JSON: v.JSON, IsJSON: v.IsJSON, Final: v.Final}
	jsonOut := r.a.g.json()
	switch r.output {
	case "json":
		jsonOut = true
	case "text":
		jsonOut = false
	}
	r.output = ""
	return r.a.writeValue(stdout, rv, jsonOut && !v.Final, "")
}

// valueArgs are the arguments of a tool before a pipe: its value is what the
// filters get, a curated command's reformatted output whatever the --output
// (shell.md: read /repo/config.json | jq .version works), so --output text
// replaces any --output given, unless help is asked for or the value is bad.
func valueArgs(args []string) []string {
	if o := outputFlag(args); o != "" && o != "text" && o != "json" {
		return args // the tool reports the bad value
	}
	out := []string{"--output", "text"}
	for i := 0; i < len(args); i++ {
		switch arg := args[i]; {
		case arg == "--":
			return append(out, args[i:]...)
		case arg == "-h" || arg == "--help":
			return args
		case arg == "--output" && i+1 < len(args):
			i++
		case strings.HasPrefix(arg, "--output="):
		default:
			out = append(out, arg)
		}
	}
	return out
}

// outputFlag is the value of the last --output among a tool's arguments
// (before "--"), "" when none.
func outputFlag(args []string) string {
	out := ""
	for i, arg := range args {
		switch {
		case arg == "--":
			return out
		case arg == "--output" && i+1 < len(args):
			out = args[i+1]
		case strings.HasPrefix(arg, "--output="):
			out = strings.TrimPrefix(arg, "--output=")
		}
	}
	return out
}

func (r *shellRenderer) PropertyLines(obj json.RawMessage) ([]string, error) {
	return render.PropertyLines(obj, r.a.ios.Width)
}

// errInterrupted reports Ctrl-C.
var errInterrupted = errors.New("interrupted")
