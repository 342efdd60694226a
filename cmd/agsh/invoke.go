package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/curated"
	"github.com/agsh-dev/agsh/generated"
	"github.com/agsh-dev/agsh/internal/resultstream"
	"github.com/agsh-dev/agsh/interp"
	"github.com/agsh-dev/agsh/render"
)

// outcome is what one tool command produced: a value to pass on (when it
// was not the last command of its pipeline), its status, and whether it
// already wrote its output.
type outcome struct {
	value    render.Value
	status   int
	rendered bool
}

// tool fetches a tool's detail with the run's binding: the first time,
// in parallel with the session lookup of the default binding (wire.md).
func (a *app) tool(ctx context.Context, name string) (*catalog.ToolDetail, error) {
	if d, ok := a.details[name]; ok {
		return d, nil
	}
	var (
		d   *catalog.ToolDetail
		err error
	)
	if a.bound {
		d, err = a.client.Tool(ctx, name, a.binding)
	} else {
		d, a.binding, err = a.client.ToolBound(ctx, name, a.explicit)
		a.bound = err == nil || a.binding != (catalog.Binding{}) || a.explicit != (catalog.Binding{})
	}
	a.noteReached(err)
	if err != nil {
		return nil, a.unknownTool(name, err)
	}
	a.details[name] = d
	return d, nil
}

// noteReached records that a request reached the deployment (for the
// session line): any answer, even an error envelope.
func (a *app) noteReached(err error) {
	if err == nil {
		a.reached = true
		return
	}
	var ce *catalog.Error
	// A host that has no agent at the target is not the deployment: no
	// session line for it.
	if errors.As(err, &ce) && ce.Status != 0 && ce.Code() != catalog.CodeNotAnAgent {
		a.reached = true
	}
}

// unknownTool turns a 404 unknown_tool into a usage error with
// suggestions.
func (a *app) unknownTool(name string, err error) error {
	var ce *catalog.Error
	if !errors.As(err, &ce) || ce.Code() != catalog.CodeUnknownTool {
		return err
	}
	msg := fmt.Sprintf("unknown command %q", name)
	if s := generated.Suggest(name, ce.Available); len(s) > 0 {
		msg += "; did you mean " + orList(s) + "?"
	}
	msg += "\nRun 'agsh help' for the commands of this deployment."
	return &catalog.Error{ErrCode: catalog.CodeUnknownTool, Status: ce.Status, Message: msg, Exit: exitUsage}
}

// runTool runs one tool command line: parse, call, and either render the
// result (last) or return it as a value for the filters after it.
// Messages go to stderr; the caller prints the session line.
func (a *app) runTool(ctx context.Context, name string, args []string, forceHelp, inShell, last bool, stdout, stderr io.Writer) outcome {
	fail := func(err error) outcome {
		return outcome{status: a.report(ctx, stderr, err), rendered: true}
	}
	d, err := a.tool(ctx, name)
	if err != nil {
		return fail(err)
	}
	cmd, err := newCommand(d)
	if err != nil {
		return fail(err)
	}
	pc, err := cmd.parse(args)
	if forceHelp || (pc != nil && pc.parsed.Help) {
		// Help is asked for: nothing else on the line matters.
		jsonOut := a.g.json()
		if pc != nil {
			jsonOut = outputOverride(pc.parsed.Globals, jsonOut)
		}
		if err := a.writeToolHelp(ctx, stdout, cmd, jsonOut); err != nil {
			return fail(err)
		}
		return outcome{rendered: true}
	}
	if err != nil {
		return fail(err)
	}
	jsonOut := a.g.json()
	for _, g := range pc.parsed.Globals {
		if inShell && isLaunchOnly(g.Name) {
			return fail(usagef("%s is set when the shell starts (agsh %s … ); it cannot change on a command line", g.Name, g.Name))
		}
		if g.Name == "--output" {
			switch g.Value {
			case "json":
				jsonOut = true
			case "text":
				jsonOut = false
			default:
				return fail(usagef("--output must be text or json, not %q", g.Value))
			}
		}
	}
	st := resultstream.New(stdout, resultstream.Options{Command: name, Reformats: cmd.reformats(), JSON: jsonOut, Last: last,
		Highlighted: a.outOpts().Color && (name == "read" && len(pc.parsed.Operands) > 0 || name == "diff"),
		GrepContext: pc.context, Render: a.outOpts()})
	res, err := a.client.CallStream(ctx, name, pc.input, a.binding, st.Func())
	a.noteReached(err)
	var held *render.Value
	if res != nil && res.Streamed {
		var end resultstream.End
		end, err = st.Finish(err, func(n string) { a.message(stderr, "", n) })
		if err == nil && !end.Held {
			a.noteAnswer(res, stderr)
			return outcome{status: end.Status, rendered: true}
		}
		held = &end.Value
	}
	if err != nil {
		var ce *catalog.Error
		if errors.As(err, &ce) {
			ce.IssueFlag = cmd.issueFlag
		}
		return fail(err)
	}
	a.noteAnswer(res, stderr)
	var v render.Value
	if held != nil {
		v = *held
	} else {
		v = render.FromResult(res.Result)
	}
	if msg, isWrapper := render.ErrorMessage(v); res.IsError || isWrapper {
		if jsonOut && last {
			render.WriteJSON(stdout, v)
			return outcome{status: exitToolError, rendered: true}
		}
		if !isWrapper {
			msg = render.ErrorText(v)
		}
		render.WriteError(stderr, a.safeErr(msg), a.errOpts())
		return outcome{status: exitToolError, rendered: true}
	}
	status := exitOK
	if cmd.reformats() && !jsonOut && !v.IsJSON {
		if out, ok := curated.Reformat(name, v.Text, curated.ReformatOptions{Context: pc.context}); ok {
			for _, n := range out.Notes {
				a.message(stderr, "", n)
			}
			v = render.Value{Text: out.Stdout, Final: true}
			status = out.Status
		}
	}
	if !last {
		return outcome{value: v, status: status}
	}
	highlight := ""
	if cmd.reformats() && v.Final {
		switch {
		case name == "read" && len(pc.parsed.Operands) > 0:
			highlight = pc.parsed.Operands[0]
		case name == "diff":
			highlight = "diff"
		}
	}
	if err := a.writeValue(stdout, v, jsonOut, highlight); err != nil {
		return fail(err)
	}
	return outcome{status: status, rendered: true}
}

// noteAnswer takes the session of a call's answer and notes a scratch
// workspace.
func (a *app) noteAnswer(res *catalog.CallResult, stderr io.Writer) {
	if res.SessionID != "" {
		a.answerSession = res.SessionID
	}
	if res.ScratchWorkspace {
		a.message(stderr, "", "note: ran in a scratch workspace (the session's workspace is unavailable)")
	}
}

// outputOverride applies a per-command --output to the run's choice.
func outputOverride(globals []generated.Global, jsonOut bool) bool {
	for _, g := range globals {
		if g.Name == "--output" {
			jsonOut = g.Value == "json"
		}
	}
	return jsonOut
}

// safeErr makes server text safe for standard error when it is a terminal.
func (a *app) safeErr(s string) string {
	if a.ios.ErrTTY {
		return render.Safe(s)
	}
	return s
}

// writeValue renders a final value on standard output. highlight is the
// file name a read printed, or "diff", for highlighting on a color terminal.
func (a *app) writeValue(w io.Writer, v render.Value, jsonOut bool, highlight string) error {
	if jsonOut {
		return render.WriteJSON(w, v)
	}
	o := a.outOpts()
	if o.Color && highlight != "" {
		if highlight == "diff" {
			return render.HighlightDiff(w, render.Safe(v.Text))
		}
		return render.HighlightFile(w, highlight, render.Safe(v.Text))
	}
	return render.Write(w, a.errOut, v, o)
}

// report prints an error the agsh way ("agsh: …", or "agsh: line 3: …" in
// a script) and returns its exit status.
func (a *app) report(ctx context.Context, w io.Writer, err error) int {
	prefix := interp.MessagePrefix(ctx)
	if prefix == "" {
		prefix = "agsh: "
	}
	a.message(w, prefix, err.Error())
	if a.g.json() {
		writeJSONErrorLine(w, err)
	}
	return exitCode(err)
}

func isLaunchOnly(name string) bool { return slices.Contains(launchOnly, name) }

// orList joins suggestions: "a", "a or b", "a, b or c".
func orList(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	out := ""
	for i, x := range s[:len(s)-1] {
		if i > 0 {
			out += ", "
		}
		out += x
	}
	return out + " or " + s[len(s)-1]
}
