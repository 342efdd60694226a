package devserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/agsh-dev/agsh/internal/devserver/tool"
)

// The scripted agent's calls go through the tools and the policy of a
// direct call, with four differences: in a dry-run session a tool that is
// not a clear read (effect "read" or readOnlyHint: true) does not run, and
// the model gets a stub result marked "stubbed" (it never parks either:
// nothing is done, so there is nothing to approve); the busy rule does not apply (the
// turn owns the session), a tool that runs in the agent (execution
// "agent") answers the error result agentToolText, and a tool that needs
// approval parks until the operator decides. What a direct call would
// refuse with 4xx (invalid input, an unavailable workspace) is the model's
// error result instead.
const (
	agentToolText = "agent tools are not simulated"
	deniedText    = "denied by the operator"
	// stubText is the stub result of a dry run's write, the tool named.
	stubText = "(dry run) %s was not run: a dry run runs read tools only"
)

// scriptedCall runs one call of turn t on the session id and records its
// result. It answers false when the turn was interrupted meanwhile (its
// result is then not recorded: the turn's end says what happened).
func (a *agent) scriptedCall(id string, t *turn, c requestedCall) bool {
	e := a.entry(c.toolName) // checked when the script was read; tools are only ever added
	var res tool.Result
	var dur time.Duration
	switch {
	case execution(e.t) == "agent":
		res, dur, _ = a.errorResult(id, t, c, agentToolText)
	case !e.t.ReadOnly() && a.dryRun(id):
		stub, _ := json.Marshal(fmt.Sprintf(stubText, c.toolName))
		a.sessions.emitTo(id, evActionResult, stubbedResultData(t.id, c.callID, c.toolName, stub), "")
		return true
	case e.t.NeedsApproval:
		d, ok := a.park(id, t, c)
		if !ok {
			return false
		}
		if !d.approve {
			res, dur, _ = a.errorResult(id, t, c, deniedText)
			break
		}
		if res, dur, ok = a.ownCall(id, t, e, c); !ok {
			return false
		}
	default:
		var ok bool
		if res, dur, ok = a.ownCall(id, t, e, c); !ok {
			return false
		}
	}
	a.sessions.emitTo(id, evActionResult, actionResultData(t.id, c.callID, c.toolName, res.IsError, res.Value, dur), "")
	return true
}

// dryRun reports a session created as a dry run.
func (a *agent) dryRun(id string) (dry bool) {
	a.sessions.with(id, func(s *session) bool {
		dry = s.DryRun
		return false
	})
	return dry
}

// ownCall runs a call of the turn's own through the policy and the tool
// body, as a direct call would. An outcome a direct call answers with an
// error envelope is recorded on the session as an error result. It answers
// false when the turn was interrupted before the body returned (the body
// then finishes on its own, and a direct call's records are kept).
func (a *agent) ownCall(id string, t *turn, e *entry, c requestedCall) (tool.Result, time.Duration, bool) {
	errResult := func(msg string) (tool.Result, time.Duration, bool) { return a.errorResult(id, t, c, msg) }
	if e.t.Validate {
		issues, err := e.validate(c.input)
		if err != nil {
			return errResult(err.Error())
		}
		if len(issues) > 0 {
			return errResult(issuesMessage(e.t.Name, issues))
		}
	}
	b, scratch, aerr := a.ownBinding(id, e.t)
	if aerr != nil {
		return errResult(aerr.body.Message)
	}
	done := make(chan outcome, 1)
	if !a.hub.begin() {
		return tool.Result{}, 0, false // the server stops
	}
	go func() {
		defer a.hub.work.Done()
		done <- a.execute(t.ctx, e, b, c.callID, t.id, c.input, scratch)
	}()
	select {
	case out := <-done:
		if out.fail != nil {
			return errResult(out.fail.body.Message)
		}
		return tool.Result{Value: out.value, IsError: out.isError}, out.dur, true
	case <-t.ctx.Done():
		return tool.Result{}, 0, false
	}
}

// errorResult records call c among the session's calls as an error and
// answers the error result msg.
func (a *agent) errorResult(id string, t *turn, c requestedCall, msg string) (tool.Result, time.Duration, bool) {
	a.record(id, callRecord{CallID: c.callID, ToolName: c.toolName, Input: append(jsonText(nil), c.input...),
		TurnID: t.id, IsError: true}, nil)
	return tool.ErrorText(msg), 0, true
}

// ownBinding is the binding of a turn's own call and the workspace rule
// applied to it (the busy rule is not: the turn owns the session).
func (a *agent) ownBinding(id string, t *tool.Tool) (b binding, scratch bool, err *apiError) {
	a.sessions.with(id, func(s *session) bool {
		b = binding{sessionID: s.ID, token: s.Token}
		switch {
		case s.Unavailable && !t.ReadOnly():
			err = workspaceUnavailable(s.ID, t.Name)
		case s.Unavailable:
			scratch = true
		}
		return false
	})
	return b, scratch, err
}

// park records that call c waits for the operator and waits for the
// decision. It answers false when the turn was interrupted first.
func (a *agent) park(id string, t *turn, c requestedCall) (decision, bool) {
	p := &parkedCall{turnID: t.id, decision: make(chan decision, 1)}
	a.sessions.with(id, func(s *session) bool {
		if s.rs.parked == nil {
			s.rs.parked = map[string]*parkedCall{}
		}
		s.rs.parked[c.callID] = p
		a.sessions.emit(s, evApprovalRequested, approvalRequestedData(t.id, c.callID, c.toolName, c.input), c.callID)
		s.Updated = a.sessions.stamp()
		return true
	})
	select {
	case d := <-p.decision:
		return d, true
	case <-t.ctx.Done():
		a.sessions.with(id, func(s *session) bool {
			delete(s.rs.parked, c.callID)
			return false
		})
		return decision{}, false
	}
}

// decide hands the operator's decision to a parked call and records it.
func (a *agent) decide(id, callID string, d decision) *apiError {
	var aerr *apiError
	a.sessions.with(id, func(s *session) bool {
		p := s.rs.parked[callID]
		if p == nil {
			if s.log().everParked(callID) {
				aerr = errorf(http.StatusConflict, codeNotParked, "call "+clip(callID, 100)+" of session "+id+" is not waiting for a decision: it was decided, or its turn ended")
			} else {
				aerr = errorf(http.StatusNotFound, codeUnknownCall, "session "+id+" has no call "+clip(callID, 100)+" waiting for approval")
			}
			return false
		}
		delete(s.rs.parked, callID)
		word := "deny"
		if d.approve {
			word = "approve"
		}
		a.sessions.emit(s, evApprovalResolved, approvalResolvedData(p.turnID, callID, word, d.reason), "")
		s.Updated = a.sessions.stamp()
		p.decision <- d
		return true
	})
	return aerr
}
