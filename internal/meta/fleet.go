package meta

import (
	"context"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agsh-dev/agsh/internal/console"
	"github.com/agsh-dev/agsh/internal/top"
	"github.com/agsh-dev/agsh/render"
)

// The fleet words (docs/console.md#the-fleet-view): :top, every session at
// a glance on a full screen, and :wait, a session's state for scripts.

// Their names.
const (
	MetaTop  = ":top"
	MetaWait = ":wait"
)

// Bounds of their durations.
const (
	fleetMinInterval = 200 * time.Millisecond
	maxInterval      = time.Hour
	maxTimeout       = 30 * 24 * time.Hour
)

// fleetRows are their rows of the meta table.
var fleetRows = []MetaCommand{
	{Name: MetaTop, Usage: ":top", Summary: "every session on one live screen, what needs you first (a terminal)",
		Writes: true, Live: true,
		Notes: "Keys: j/k or arrows move, Enter the record live, a/d approve/deny the parked call (its\n" +
			"whole arguments first, then y/n), s stop, m say, / filter, ? keys, q or Ctrl-C quit.\n" +
			"Each refresh sends at most 9 requests whatever the number of sessions: the listing and\n" +
			"8 records. Piped, use :sessions --watch or :sessions --output json.",
		Flags: []MetaFlag{
			{Name: "--interval", Placeholder: "<duration>", Help: "time between refreshes (default 2s)"},
			{Name: "--stale", Placeholder: "<duration>", Help: "a running turn this long without an event comes first (default 2m)"},
		}}, // Run: runTop
	{Name: MetaWait, Usage: ":wait [session]", Summary: "block until the session is done, waiting, asks approval or failed",
		Live:     true, // no pager holds its note while it waits
		Operands: []MetaOperand{sessionOperand},
		Notes: "--for done: the session is idle after a turn that completed; waiting: a chat session\n" +
			"waits for a message; approval: a call waits for the operator; failed: a turn failed (a\n" +
			"stop is no failure). Exit 0 when it gets there; 1 when it reaches a state that cannot\n" +
			"lead there without another turn; 5 at --timeout or when the deployment is lost. It\n" +
			"follows the record's stream as :tail does, never polling.",
		Flags: []MetaFlag{
			{Name: "--for", Placeholder: "<state>", Help: "done, waiting, approval or failed (required)", Required: true},
			{Name: "--timeout", Placeholder: "<duration>", Help: "give up after this long (exit 5)"},
		}}, // Run: runWait
}

// The rows' Check reads the durations and --for too (set at init, in the
// table: the rows are copied into it).
func init() {
	for i := range metas {
		if fleetRun(metas[i].Name) != nil {
			metas[i].Check = checkFleet(&metas[i])
		}
	}
}

// fleetRun is a fleet word's Run (set at init).
func fleetRun(name string) func(context.Context, *MetaRun, []string) (MetaResult, error) {
	switch name {
	case MetaTop:
		return runTop
	case MetaWait:
		return runWait
	}
	return nil
}

// checkFleet checks a fleet word's line: its row, then the values.
func checkFleet(m *MetaCommand) func([]string) error {
	return func(args []string) error {
		_, err := readFleetArgs(m, args)
		return err
	}
}

// fleetArgs are a fleet word's line, read.
type fleetArgs struct {
	metaArgs
	interval, stale, timeout time.Duration
}

func readFleetArgs(m *MetaCommand, args []string) (fleetArgs, error) {
	a, err := parseMetaArgs(m, args)
	fa := fleetArgs{metaArgs: a}
	if err != nil || a.values["--help"] != "" {
		return fa, err
	}
	dur := func(flag string, min, max time.Duration) (time.Duration, error) {
		v, ok := a.values[flag]
		if !ok {
			return 0, nil
		}
		d, err := time.ParseDuration(v)
		if err != nil || d < min || d > max {
			return 0, Usagef("%s: %s takes a duration from %s to %s (%s), not %q", m.Name, flag, shortDur(min), shortDur(max),
				strings.Join(durExamples(min, max), ", "), clipWord(v))
		}
		return d, nil
	}
	switch m.Name {
	case MetaTop:
		if fa.interval, err = dur("--interval", fleetMinInterval, maxInterval); err != nil {
			return fa, err
		}
		fa.stale, err = dur("--stale", time.Second, 24*time.Hour)
	case MetaWait:
		state, ok := a.values["--for"]
		if !ok {
			return fa, Usagef("%s: missing --for <state> (%s)\nusage: %s", m.Name, strings.Join(console.WaitStates, ", "), m.synopsis())
		}
		if !slices.Contains(console.WaitStates, state) {
			return fa, Usagef("%s: --for takes %s, not %q", m.Name, strings.Join(console.WaitStates, ", "), clipWord(state))
		}
		fa.timeout, err = dur("--timeout", time.Millisecond, maxTimeout)
	}
	return fa, err
}

// shortDur is d as a flag takes it, without its zero parts: 1h, not 1h0m0s.
func shortDur(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// durExamples are up to three durations a flag bounded by min and max
// takes, for its usage error.
func durExamples(min, max time.Duration) []string {
	var out []string
	for _, e := range []time.Duration{500 * time.Millisecond, 2 * time.Second, 90 * time.Second, 10 * time.Minute} {
		if e >= min && e <= max && len(out) < 3 {
			out = append(out, shortDur(e))
		}
	}
	return out
}

// runTop is :top: the fleet view on the terminal, or a refusal off one.
func runTop(ctx context.Context, m *MetaRun, args []string) (MetaResult, error) {
	me, _ := LookupMeta(MetaTop)
	a, err := readFleetArgs(me, args)
	if err != nil || a.values["--help"] != "" {
		return helpResult(me, err)
	}
	if m.Screen == nil {
		return MetaResult{}, Usagef(":top needs a terminal (standard input and output); piped, use :sessions --watch for each change, or :sessions --output json for one listing")
	}
	if m.Format.IsData() {
		return MetaResult{}, Usagef(":top draws a screen; --output json has no screen: use :sessions --output json")
	}
	e := m.consoleEnv(ctx)
	fleet := console.NewFleet(e)
	err = m.Screen(func(in io.Reader, out io.Writer) error {
		return top.Run(ctx, top.Config{Source: fleet, Target: m.Client.Target(), Interval: a.interval, Stale: a.stale,
			In: in, Out: out, Color: m.OutOpts.Color})
	})
	if err != nil && ctx.Err() != nil {
		return MetaResult{}, console.Detached{}
	}
	return MetaResult{Written: true}, err
}

// runWait is :wait.
func runWait(ctx context.Context, m *MetaRun, args []string) (MetaResult, error) {
	me, _ := LookupMeta(MetaWait)
	a, err := readFleetArgs(me, args)
	if err != nil || a.values["--help"] != "" {
		return helpResult(me, err)
	}
	ch, err := m.session(ctx, a.operand(0))
	if err != nil {
		return MetaResult{}, err
	}
	mode := ch.Mode
	if mode == "" {
		mode = m.Client.SessionMode(ctx, ch.ID)
	}
	state := a.values["--for"]
	if m.Live {
		m.note("waiting for " + ch.ID + " to be " + console.WaitPhrase(state) + " (Ctrl-C stops waiting; the agent goes on)…")
	}
	out, err := console.Wait(ctx, m.consoleEnv(ctx), ch.ID, console.WaitOptions{For: state, Timeout: a.timeout, Task: mode == "task"})
	if out == nil {
		if we, ok := err.(*console.WaitError); ok && we.Outcome != nil {
			out = we.Outcome
		}
	}
	if m.Format.IsData() && out != nil {
		if err != nil {
			// The outcome on standard output, the status from the error.
			_ = m.Format.Data.Line(m.Out, out)
			return MetaResult{}, err
		}
		return MetaResult{Value: render.Value{JSON: out.JSON(), IsJSON: true}}, nil
	}
	if err != nil {
		return MetaResult{}, err
	}
	return MetaResult{Value: render.Value{Text: oneLine(waitLine(out)) + "\n", Final: true}}, nil
}

// waitLine is a reached wait's line: the state waited for, and what the
// session does when that is another word (a chat session done with its
// turn waits for a message: "is done (event 4; the session is waiting)").
func waitLine(out *console.WaitOutcome) string {
	line := out.Session + " is " + console.WaitPhrase(out.For) + " ("
	if out.Index >= 0 {
		line += "event " + itoa64(out.Index)
	} else {
		line += "already"
	}
	if out.State != out.For {
		line += "; the session is " + console.WaitPhrase(out.State)
	}
	return line + ")"
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }
