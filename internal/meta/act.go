package meta

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/console"
	"github.com/agsh-dev/agsh/render"
)

// The console words that act on a session (docs/console.md): decide a
// parked call, interrupt the running turn, send the bound session a
// message, start another session. Each request is sent once; a refusal is
// one line with its exit status (catalog's errors).

// Their names.
const (
	MetaApprovals = ":approvals"
	MetaApprove   = ":approve"
	MetaDeny      = ":deny"
	MetaStop      = ":stop"
	MetaSay       = ":say"
	MetaNew       = ":new"
)

var (
	parkedOperand = MetaOperand{Name: "callId", Required: true, Call: true, Parked: true}
	textOperand   = MetaOperand{Name: "text", Required: true, Words: true}
)

// actRows are their rows of the meta table.
var actRows = []MetaCommand{
	{Name: MetaApprovals, Usage: ":approvals [session]", Summary: "the calls waiting for approval, inputs whole",
		Operands: []MetaOperand{sessionOperand}},
	{Name: MetaApprove, Usage: ":approve <callId> [session]", Summary: "approve a parked call (agsh asks first, or needs --yes)",
		Operands: []MetaOperand{parkedOperand, sessionOperand}, Notes: decideNotes},
	{Name: MetaDeny, Usage: ":deny <callId> [session]", Summary: "deny a parked call (agsh asks first, or needs --yes)",
		Operands: []MetaOperand{parkedOperand, sessionOperand}, Notes: decideNotes,
		Flags: []MetaFlag{{Name: "--reason", Placeholder: "<text>", Help: "why, sent with the denial"}}},
	{Name: MetaStop, Usage: ":stop [session]", Summary: "interrupt the running turn",
		Operands: []MetaOperand{sessionOperand}},
	{Name: MetaSay, Usage: ":say <text>", Summary: "a message to the bound session (keeps its token)",
		Operands: []MetaOperand{textOperand}, Writes: true, Live: true,
		Notes: "The words are joined by spaces into the message (a step script of the development\n" +
			"deployment's agent, one step a line, or any text). The message rotates the session's\n" +
			"continuation token: agsh keeps the new one for the rest of the run and shows it;\n" +
			"the old one is refused from then on. Without a bound session, the latest.",
		Flags: []MetaFlag{{Name: "--follow", Help: "then show the turn it started, live, until the session waits again"}}},
	{Name: MetaNew, Usage: ":new <text>", Summary: "start another session (this shell keeps its own)",
		Operands: []MetaOperand{textOperand},
		Notes: "It prints the new session's id, continuation token and URLs, and the line that binds\n" +
			"it: agsh --session <id>.",
		Flags: []MetaFlag{
			{Name: "--title", Placeholder: "<t>", Help: "the new session's title"},
			{Name: "--dry-run", Help: "a dry run: its turns run read tools and stub write tools (marked stubbed)"},
		}},
}

// decideNotes are the --help notes of :approve and :deny.
const decideNotes = "When standard input is a terminal agsh first shows the whole call, the target and the\n" +
	"session, and asks [y/N]; --yes (or AGSH_YES=1) skips the question. Without a terminal\n" +
	"(a script, a pipe) agsh cannot ask: it refuses unless --yes or AGSH_YES=1 is given.\n" +
	"The call id is one :approvals lists."

// actRun is the Run of each of them (set at init: they look their rows up).
func actRun(name string) func(context.Context, *MetaRun, []string) (MetaResult, error) {
	switch name {
	case MetaApprovals:
		return runApprovals
	case MetaApprove:
		return func(ctx context.Context, m *MetaRun, args []string) (MetaResult, error) {
			return runDecide(ctx, m, args, true)
		}
	case MetaDeny:
		return func(ctx context.Context, m *MetaRun, args []string) (MetaResult, error) {
			return runDecide(ctx, m, args, false)
		}
	case MetaStop:
		return runStop
	case MetaSay:
		return runSay
	case MetaNew:
		return runNew
	}
	return nil
}

// readArgs reads a row's line; help asked is returned as the result.
func readArgs(name string, args []string) (metaArgs, *MetaResult, error) {
	me, _ := LookupMeta(name)
	a, err := parseMetaArgs(me, args)
	if err != nil || a.values["--help"] != "" {
		res, err := helpResult(me, err)
		return a, &res, err
	}
	return a, nil, nil
}

// parkedLine is a parked call's input as its command line, or what is
// known of it: the whole input, never cut.
func (m *MetaRun) parkedLine(ctx context.Context, line func(context.Context, string, json.RawMessage) (string, bool, error), p console.Parked) string {
	if p.Truncated {
		return p.Tool + " (the deployment cut this input in its record; agsh cannot show it whole)"
	}
	l, _, err := line(ctx, p.Tool, p.Input)
	if err != nil {
		return p.Tool + " (its input is not a JSON object)"
	}
	return l
}

// age is how long ago an RFC 3339 time was: "3m", "" when unknown.
func age(at string, now time.Time) string {
	return strings.TrimSuffix(strings.TrimPrefix(ago(at, now), " ("), " ago)")
}

// clip cuts s to n bytes, with "…".
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// parkedJSON is a parked call in :approvals --output json.
type parkedJSON struct {
	CallID    string          `json:"callId"`
	Tool      string          `json:"tool"`
	At        string          `json:"at,omitempty"`
	TurnID    string          `json:"turnId,omitempty"`
	Input     json.RawMessage `json:"input"`
	Truncated bool            `json:"inputTruncated,omitempty"`
	Line      string          `json:"line"`
}

// runApprovals is :approvals: the parked calls, each input whole as its
// command line.
func runApprovals(ctx context.Context, m *MetaRun, args []string) (MetaResult, error) {
	a, help, err := readArgs(MetaApprovals, args)
	if help != nil || err != nil {
		return derefResult(help), err
	}
	ch, err := m.session(ctx, a.operand(0))
	if err != nil {
		return MetaResult{}, err
	}
	ps, dropped, err := console.ParkedCalls(ctx, m.Client, ch.ID, m.note)
	if err != nil {
		return MetaResult{}, err
	}
	var res MetaResult
	if dropped > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("note: the record asks for more than %d approvals at once; the %d oldest are not shown",
			console.MaxParked, dropped))
	}
	line := m.callLine(ctx)
	now := time.Now()
	if m.Format.IsData() {
		rows := make([]parkedJSON, 0, len(ps))
		for _, p := range ps {
			input := p.Input
			if input == nil {
				input = json.RawMessage("null")
			}
			rows = append(rows, parkedJSON{CallID: p.ID, Tool: p.Tool, At: p.At, TurnID: p.TurnID, Input: input,
				Truncated: p.Truncated, Line: m.parkedLine(ctx, line, p)})
		}
		data, _ := json.Marshal(rows)
		res.Value = render.Value{JSON: data, IsJSON: true}
		return res, nil
	}
	if len(ps) == 0 {
		res.Notes = append(res.Notes, "No call of session "+ch.ID+" waits for approval.")
		res.Value = render.Value{Final: true}
		return res, nil
	}
	var b strings.Builder
	for i, p := range ps {
		if i > 0 {
			b.WriteByte('\n')
		}
		when := "asked"
		if ag := age(p.At, now); ag != "" {
			when += " " + ag + " ago"
		}
		if p.At != "" {
			when += " (" + p.At + ")"
		}
		fmt.Fprintf(&b, "%s  %s  %s\n    %s\n", oneLine(p.ID), oneLine(p.Tool), oneLine(when), oneLine(m.parkedLine(ctx, line, p)))
	}
	res.Value = render.Value{Text: b.String(), Final: true}
	res.Notes = append(res.Notes, fmt.Sprintf("%d call(s) of session %s wait for approval: :approve <callId> or :deny <callId> [--reason <text>]",
		len(ps), ch.ID))
	return res, nil
}

func derefResult(r *MetaResult) MetaResult {
	if r == nil {
		return MetaResult{}
	}
	return *r
}

// how says how the session a console word acts on was chosen.
func (m *MetaRun) how(ch catalog.SessionChoice, operand string) string {
	switch {
	case operand != "":
		return "given"
	case ch.Latest:
		return "the latest (none was given or bound)"
	case m.InShell:
		return "this shell's session"
	}
	return "given at launch"
}

// runDecide is :approve and :deny. On a terminal (and without --yes) the
// call is shown whole, with where the decision lands, and agsh asks first.
func runDecide(ctx context.Context, m *MetaRun, args []string, approve bool) (MetaResult, error) {
	name := MetaDeny
	if approve {
		name = MetaApprove
	}
	a, help, err := readArgs(name, args)
	if help != nil || err != nil {
		return derefResult(help), err
	}
	callID, reason := a.operand(0), a.values["--reason"]
	ch, err := m.session(ctx, a.operand(1))
	if err != nil {
		return MetaResult{}, err
	}
	// A unique prefix of a parked call's id names it
	// (docs/console.md#ids-and-prefixes); the whole id is sent.
	if ps, _, err := console.ParkedCalls(ctx, m.Client, ch.ID, nil); err == nil {
		ids := make([]string, len(ps))
		for i, p := range ps {
			ids[i] = p.ID
		}
		full, err := catalog.PrefixMatch("call", callID, ids)
		if err != nil {
			return MetaResult{}, err
		}
		if full != "" {
			callID = full
		}
	}
	var tool string
	if m.asks() {
		var q Question
		q, tool = m.decisionQuestion(ctx, ch, a.operand(1), callID, approve, reason)
		if err := m.Confirm(ctx, m.Yes, q, "no decision was sent"); err != nil {
			return MetaResult{}, err
		}
	} else if ps, _, err := console.ParkedCalls(ctx, m.Client, ch.ID, nil); err == nil {
		// The tool, for the answer; a record that cannot be read changes
		// nothing (the deployment decides).
		for _, p := range ps {
			if p.ID == callID {
				tool = p.Tool
			}
		}
	}
	if err := m.Client.Decide(ctx, ch.ID, callID, approve, reason); err != nil {
		return MetaResult{}, err
	}
	decision := "deny"
	if approve {
		decision = "approve"
	}
	if m.Format.IsData() {
		data, _ := json.Marshal(struct {
			SessionID string `json:"sessionId"`
			CallID    string `json:"callId"`
			Decision  string `json:"decision"`
			Reason    string `json:"reason,omitempty"`
		}{ch.ID, callID, decision, reason})
		return MetaResult{Value: render.Value{JSON: data, IsJSON: true}}, nil
	}
	call := "call " + callID
	if tool != "" {
		call += " (" + tool + ")"
	}
	text := "Approved " + call + " of session " + ch.ID + ": the agent runs the call, and its turn goes on."
	if !approve {
		with := ""
		if reason != "" {
			with = " (with your reason)"
		}
		text = "Denied " + call + " of session " + ch.ID + ": the agent gets an error result saying the operator denied it" +
			with + ", and its turn goes on."
	}
	return MetaResult{Value: render.Value{Text: oneLine(text) + "\n", Final: true},
		Notes: []string{":tail " + ch.ID + " follows the turn"}}, nil
}

// decisionQuestion is the question before a decision: the call whole (from
// the record), when it asked, the session; and the call's tool when the
// record has it.
func (m *MetaRun) decisionQuestion(ctx context.Context, ch catalog.SessionChoice, operand, callID string, approve bool,
	reason string) (Question, string) {
	q := Question{Head: "agsh: approve call " + callID + " of session " + ch.ID + " (the agent then runs it)", Prompt: "Approve it?"}
	if !approve {
		q = Question{Head: "agsh: deny call " + callID + " of session " + ch.ID + " (the agent then gets an error result)",
			Prompt: "Deny it?"}
	}
	tool := ""
	ps, _, err := console.ParkedCalls(ctx, m.Client, ch.ID, nil)
	switch {
	case err != nil:
		q.Add("call", callID+": unknown (the record cannot be read: "+clip(err.Error(), 200)+")")
	default:
		found := false
		for _, p := range ps {
			if p.ID != callID {
				continue
			}
			found, tool = true, p.Tool
			q.Add("call", m.parkedLine(ctx, m.callLine(ctx), p))
			if ag := age(p.At, time.Now()); ag != "" {
				q.Add("asked", ag+" ago ("+p.At+")")
			} else if p.At != "" {
				q.Add("asked", p.At)
			}
		}
		if !found {
			q.Add("call", callID+": not among the calls the record shows waiting for approval")
		}
	}
	if !approve && reason != "" {
		q.Add("reason", reason)
	}
	call := callID
	if tool != "" {
		call += " (" + tool + ")"
	}
	verb := MetaDeny
	if approve {
		verb = MetaApprove
	}
	q.Act = verb + " call " + call + " of session " + ch.ID + ", " + m.how(ch, operand)
	q.Add("session", SessionFact(ctx, m.Client, ch.ID, m.how(ch, operand), time.Now()))
	return q, tool
}

// runStop is :stop: the running turn is interrupted.
func runStop(ctx context.Context, m *MetaRun, args []string) (MetaResult, error) {
	a, help, err := readArgs(MetaStop, args)
	if help != nil || err != nil {
		return derefResult(help), err
	}
	ch, err := m.session(ctx, a.operand(0))
	if err != nil {
		return MetaResult{}, err
	}
	ran, err := m.Client.Interrupt(ctx, ch.ID)
	if err != nil {
		return MetaResult{}, err
	}
	if m.Format.IsData() {
		data, _ := json.Marshal(struct {
			SessionID   string `json:"sessionId"`
			Interrupted bool   `json:"interrupted"`
		}{ch.ID, ran})
		return MetaResult{Value: render.Value{JSON: data, IsJSON: true}}, nil
	}
	text := "Interrupted the running turn of session " + ch.ID +
		": it ends with turn.failed (reason interrupted); a queued turn, if any, starts next."
	if !ran {
		text = "No turn was running in session " + ch.ID + "; nothing was interrupted."
	}
	return MetaResult{Value: render.Value{Text: oneLine(text) + "\n", Final: true}}, nil
}

// sayTarget is where :say sends its message: the bound session's current
// continuation token (the one the run keeps, the binding's, else the
// session's row in GET /v1/sessions), and its id when known.
func (m *MetaRun) sayTarget(ctx context.Context) (id, token string, err error) {
	b := m.Bound
	if b.ContinuationToken != "" {
		return "", b.ContinuationToken, nil
	}
	if b.SessionID == "" && m.InShell {
		return "", "", &catalog.Error{ErrCode: catalog.CodeNoSession,
			Message: "this shell runs unbound, so :say has no session to send to; :new starts one, agsh --session <id> binds one"}
	}
	if b.SessionID != "" && m.Token != nil {
		if t := m.Token(b.SessionID); t != "" {
			return b.SessionID, t, nil
		}
	}
	ss, err := m.Client.Sessions(ctx)
	if err != nil {
		return "", "", err
	}
	var row *catalog.Session
	if b.SessionID == "" {
		row = catalog.LatestSession(ss)
		if row == nil {
			return "", "", &catalog.Error{ErrCode: catalog.CodeNoSession,
				Message: "no session to send the message to: the deployment lists none; :new starts one"}
		}
	} else {
		for i := range ss {
			if ss[i].SessionID == b.SessionID {
				row = &ss[i]
			}
		}
		if row == nil {
			return "", "", &catalog.Error{ErrCode: catalog.CodeNoSession,
				Message: "session " + b.SessionID + " is not among the sessions GET /v1/sessions lists, so agsh has no continuation token " +
					"to send a message with; pass --continuation-token <token>"}
		}
	}
	if m.Token != nil && row.SessionID != "" {
		if t := m.Token(row.SessionID); t != "" {
			return row.SessionID, t, nil
		}
	}
	if _, ok := catalog.SessionIDOK(row.ContinuationToken); !ok {
		return "", "", &catalog.Error{ErrCode: catalog.CodeNoSession,
			Message: "GET /v1/sessions lists no usable continuation token for session " + row.SessionID +
				", so agsh cannot send it a message; pass --continuation-token <token>"}
	}
	return row.SessionID, row.ContinuationToken, nil
}

// runSay is :say: a follow-up message to the bound session. The run keeps
// the rotated token (the one sent is refused from then on); with --follow
// the turn it started is shown live until the session waits again.
func runSay(ctx context.Context, m *MetaRun, args []string) (MetaResult, error) {
	a, help, err := readArgs(MetaSay, args)
	if help != nil || err != nil {
		return derefResult(help), err
	}
	id, token, err := m.sayTarget(ctx)
	if err != nil {
		return MetaResult{}, err
	}
	follow := a.values["--follow"] != ""
	from := int64(0)
	if follow {
		if id == "" {
			ch, err := m.Client.ResolveSession(ctx, catalog.SessionOperand{Text: token})
			if err != nil {
				return MetaResult{}, err
			}
			id = ch.ID
		}
		if from, err = console.NextIndex(ctx, m.Client, id); err != nil {
			return MetaResult{}, err
		}
	}
	ans, err := m.Client.Message(ctx, catalog.MessageRequest{Message: a.operand(0), ContinuationToken: token})
	if err != nil {
		return MetaResult{}, err
	}
	if m.Rotated != nil {
		m.Rotated(ans.SessionID, token, ans.ContinuationToken)
	}
	if m.Format.IsData() {
		data, _ := json.Marshal(struct {
			SessionID         string `json:"sessionId"`
			ContinuationToken string `json:"continuationToken"`
			TurnID            string `json:"turnId,omitempty"`
			Queued            bool   `json:"queued,omitempty"`
			TraceURL          string `json:"traceUrl,omitempty"`
		}{ans.SessionID, ans.ContinuationToken, ans.TurnID, ans.Queued, ans.TraceURL})
		if _, err := m.Out.Write(append(data, '\n')); err != nil {
			return MetaResult{}, err
		}
	} else {
		turn := "a turn"
		if ans.TurnID != "" {
			turn = "turn " + ans.TurnID
		}
		text := "Sent to session " + ans.SessionID + ": " + turn + " started."
		if ans.Queued {
			text = "Sent to session " + ans.SessionID + ": " + turn + " is queued behind the running one: it runs when that ends (:stop ends it now)."
		}
		if _, err := fmt.Fprintln(m.Out, oneLine(text)); err != nil {
			return MetaResult{}, err
		}
	}
	m.note("session: " + ans.SessionID + ", continuation token " + ans.ContinuationToken +
		" (kept for the rest of this run; the token before it no longer works)")
	if follow {
		if ans.SessionID != "" {
			id = ans.SessionID
		}
		err := console.Tail(ctx, m.consoleEnv(ctx), id, console.TailOptions{Format: m.Format, Live: m.Live,
			From: from, FromSet: true, UntilWaits: true})
		return MetaResult{Written: true}, err
	}
	return MetaResult{Written: true}, nil
}

// runNew is :new: a new session with the message, printed with how to
// bind it; the run stays bound to its own session.
func runNew(ctx context.Context, m *MetaRun, args []string) (MetaResult, error) {
	a, help, err := readArgs(MetaNew, args)
	if help != nil || err != nil {
		return derefResult(help), err
	}
	dry := a.values["--dry-run"] != ""
	ans, err := m.Client.Message(ctx, catalog.MessageRequest{Message: a.operand(0), Title: a.values["--title"], DryRun: dry})
	if err != nil {
		return MetaResult{}, err
	}
	bind := "agsh --session " + ans.SessionID
	data, _ := json.Marshal(struct {
		SessionID         string `json:"sessionId"`
		ContinuationToken string `json:"continuationToken"`
		TraceURL          string `json:"traceUrl,omitempty"`
		PlaygroundURL     string `json:"playgroundUrl,omitempty"`
		TurnID            string `json:"turnId,omitempty"`
		DryRun            bool   `json:"dryRun,omitempty"`
		Bind              string `json:"bind"`
	}{ans.SessionID, ans.ContinuationToken, ans.TraceURL, ans.PlaygroundURL, ans.TurnID, dry, bind})
	note := "the new session runs its message's turn; to work in it: " + bind
	var notes []string
	if dry {
		notes = append(notes, "a dry run: its turns run read tools; write tools get stub results (call STUB in :trace), so nothing is written")
	}
	if m.InShell {
		own := m.Bound.SessionID
		if own == "" {
			own = m.Bound.ContinuationToken
		}
		if own == "" {
			own = "none: it runs unbound"
		}
		note = "this shell stays bound to its own session (" + own + "); to work in the new one: " + bind
	}
	return MetaResult{Value: render.Value{JSON: data, IsJSON: true}, Notes: append(notes, note)}, nil
}

// CompleteParkedIDs are the ids of the calls of the bound session waiting
// for approval, newest first, for Tab on :approve and :deny (at most max).
func CompleteParkedIDs(ctx context.Context, c *catalog.Client, b catalog.Binding, max int) []string {
	ch, err := c.BoundSession(ctx, b)
	if err != nil {
		return nil
	}
	ps, _, err := console.ParkedCalls(ctx, c, ch.ID, nil)
	if err != nil {
		return nil
	}
	var ids []string
	for i := len(ps) - 1; i >= 0 && len(ids) < max; i-- {
		ids = append(ids, ps[i].ID)
	}
	return ids
}
