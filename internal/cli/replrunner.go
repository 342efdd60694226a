package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/agsh-dev/agsh/internal/exitcode"
	"github.com/agsh-dev/agsh/internal/iostreams"
	"github.com/agsh-dev/agsh/interp"
	"github.com/agsh-dev/agsh/interp/syntax"
	"github.com/agsh-dev/agsh/render"
)

// interpRunner is the REPL's Runner (repl.Runner): what the shells read
// runs through the interpreter of script mode, so a line typed in the REPL
// prints exactly what it prints in a script.
type interpRunner struct {
	runner *interp.Runner
	// out and errOut are the Runner's streams between lines.
	out, errOut io.Writer
}

// Run implements repl.Runner.
func (r *interpRunner) Run(ctx context.Context, src string, stdout, stderr io.Writer) (int, bool) {
	r.runner.Stdout, r.runner.Stderr = stdout, stderr
	defer func() { r.runner.Stdout, r.runner.Stderr = r.out, r.errOut }()
	script, err := syntax.Parse(typed(src))
	if err != nil {
		fmt.Fprintf(stderr, "agsh: %s\n", err)
		if r.runner.OnError != nil {
			r.runner.OnError(stderr, exitcode.Usage, err.Error())
		}
		return exitcode.Usage, false
	}
	status := r.runner.LastStatus()
	for _, l := range script.Lists {
		var exit bool
		status, exit = r.runner.RunList(ctx, l)
		if exit || ctx.Err() != nil {
			return status, exit
		}
	}
	return status, false
}

// Incomplete implements repl.Runner.
func (r *interpRunner) Incomplete(src string) bool {
	_, err := syntax.Parse(typed(src))
	if e, ok := err.(interface{ Incomplete() bool }); ok {
		return e.Incomplete()
	}
	return false
}

// typed is what the lines typed so far say: an empty line after a
// backslash continuation ends the input, as in sh (in a script, a
// continuation with nothing after it is incomplete).
func typed(src string) string {
	if strings.HasSuffix(src, "\\\n") {
		return src + "\n"
	}
	return src
}

// replDrawing is how the REPL shows what it draws and pages itself: the
// deployment's names escaped as every label agsh writes (render.SafeLabel),
// and a paged output masked as the output writer masks it.
func replDrawing(secrets []string) (escape, redact func(string) string) {
	return render.SafeLabel, func(s string) string { return iostreams.Redact(s, secrets...) }
}
