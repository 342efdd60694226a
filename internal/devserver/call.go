package devserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agsh-dev/agsh/internal/devserver/tool"
	"github.com/agsh-dev/agsh/internal/wire"
)

// callBody is the body of POST /v1/tools/{name}; pointers tell a field sent
// empty from one not sent.
type callBody struct {
	Input             json.RawMessage `json:"input"`
	SessionID         *string         `json:"sessionId"`
	ContinuationToken *string         `json:"continuationToken"`
}

// serveCall answers POST /v1/tools/{name}: decode, bind, look up, check,
// admit by effect, run, record.
func (a *agent) serveCall(c *reqCtx) {
	var body callBody
	if err := decodeBody(c, maxCallBody, &body, true); err != nil {
		writeError(c.w, err)
		return
	}
	input := bytes.TrimSpace(body.Input)
	if len(input) == 0 || bytes.Equal(input, []byte("null")) {
		input = []byte("{}")
	} else if input[0] != '{' {
		e := errorf(http.StatusBadRequest, wire.CodeInvalidInput, "input must be a JSON object")
		e.body.Issues = []wire.Issue{{Path: []any{}, Message: "expected object"}}
		writeError(c.w, e)
		return
	}
	b, aerr := a.resolve(c.principal, body.SessionID, body.ContinuationToken)
	if aerr != nil {
		writeError(c.w, aerr)
		return
	}
	e, aerr := a.lookup(c.segs[0])
	if aerr != nil {
		writeError(c.w, aerr)
		return
	}
	if execution(e.t) == "agent" {
		writeError(c.w, errorf(http.StatusBadRequest, wire.CodeAgentTool,
			fmt.Sprintf("%s is an agent-execution tool; it runs only inside a model turn and cannot be called on the host", e.t.Name)))
		return
	}
	if e.t.Validate {
		issues, err := e.validate(input)
		if err != nil {
			a.logf("devserver: %v", err)
			writeError(c.w, errorf(http.StatusInternalServerError, codeInternal, err.Error()))
			return
		}
		if len(issues) > 0 {
			writeError(c.w, invalidInput(e.t.Name, issues))
			return
		}
	}
	scratch, aerr := a.admit(b, e.t)
	if aerr != nil {
		writeError(c.w, aerr)
		return
	}
	a.run(c, e, b, input, scratch)
}

// invalidInput is the 400 invalid_input envelope of a tool's issues.
func invalidInput(tool string, issues []wire.Issue) *apiError {
	e := errorf(http.StatusBadRequest, wire.CodeInvalidInput, issuesMessage(tool, issues))
	e.body.Issues = issues
	return e
}

// admit applies the busy and workspace rules to a session-bound call and
// reports whether it runs in a scratch workspace. A turn of the scripted
// agent counts as busy like one marked through /v1/dev/turn.
func (a *agent) admit(b binding, t *tool.Tool) (scratch bool, err *apiError) {
	if !b.bound() {
		return false, nil
	}
	a.sessions.with(b.sessionID, func(s *session) bool {
		switch {
		case s.busy() && !t.ReadOnly():
			state := "running"
			if !s.running() {
				state = "queued"
			}
			err = errorf(http.StatusConflict, wire.CodeSessionBusy, fmt.Sprintf(
				"session %s has a model turn %s and %s is a write; wait for the turn to finish, or call without a session",
				s.ID, state, t.Name))
		case s.Unavailable && !t.ReadOnly():
			err = workspaceUnavailable(s.ID, t.Name)
		case s.Unavailable:
			scratch = true
		}
		return false
	})
	return scratch, err
}

// workspaceUnavailable is the 409 of a write whose session's workspace is
// unavailable.
func workspaceUnavailable(id, tool string) *apiError {
	return errorf(http.StatusConflict, wire.CodeWorkspaceUnavailable, fmt.Sprintf(
		"the workspace of session %s is unavailable; %s is a write and cannot run in a scratch workspace", id, tool))
}

// run calls the tool body for a direct call and answers. A session-bound
// call is recorded on the session: in its calls, and on its record as a
// turn of its own (source direct).
func (a *agent) run(c *reqCtx, e *entry, b binding, input []byte, scratch bool) {
	callID, turnID := "call_"+randomHex(8), "turn_"+randomHex(8)
	if b.bound() {
		a.directStarted(b.sessionID, turnID, callID, e.t.Name, input)
	}
	out := a.execute(c.r.Context(), e, b, callID, turnID, input, scratch)
	if b.bound() {
		a.directEnded(b.sessionID, turnID, callID, e.t.Name, out)
	}
	if out.fail != nil {
		writeError(c.w, out.fail)
		return
	}
	writeBody(c.w, http.StatusOK, object(
		val("ok", true),
		val("toolName", e.t.Name),
		val("callId", callID),
		val("isError", out.isError),
		raw("result", out.value),
		field{key: "durationMs", raw: strconv.AppendInt(nil, out.dur.Milliseconds(), 10)},
		valIf(b.bound(), "sessionId", b.sessionID),
		val("scratchWorkspace", scratch),
	))
}

// outcome is what one run of a tool body came to: a result, or fail, the
// envelope a direct call answers instead (invalid input, a status error).
type outcome struct {
	value   []byte
	isError bool
	dur     time.Duration
	fail    *apiError
}

// execute runs the tool body with input and, for a session-bound call that
// gave a result, records it on the session's calls under turnID.
func (a *agent) execute(ctx context.Context, e *entry, b binding, callID, turnID string, input []byte, scratch bool) outcome {
	call := &tool.Call{
		Input:   input,
		Session: tool.Session{ID: b.sessionID, ContinuationToken: b.token, Scratch: scratch},
		Record:  func(string, any) {},
	}
	var (
		recMu   sync.Mutex
		records []record
	)
	if b.bound() {
		call.Record = func(kind string, v any) {
			recMu.Lock()
			defer recMu.Unlock()
			records = append(records, record{Kind: kind, CallID: callID, Value: marshal(v)})
		}
	}
	start := time.Now()
	res, err := invoke(ctx, e.t, call, a.logf)
	dur := time.Since(start)
	var inErr *tool.InputError
	if errors.As(err, &inErr) {
		return outcome{dur: dur, fail: invalidInput(e.t.Name, inErr.Issues)}
	}
	var stErr *tool.StatusError
	if errors.As(err, &stErr) {
		return outcome{dur: dur, fail: errorf(stErr.Status, stErr.Code, stErr.Message)}
	}
	if err != nil {
		res = tool.ErrorText(err.Error())
	}
	value := bytes.TrimSpace(res.Value)
	if len(value) == 0 {
		value = []byte("null")
	} else if !json.Valid(value) {
		res = tool.ErrorText(e.t.Name + " returned a result that is not valid JSON")
		value = res.Value
	}
	if b.bound() {
		recMu.Lock()
		defer recMu.Unlock()
		a.record(b.sessionID, callRecord{
			CallID: callID, ToolName: e.t.Name, Input: append(jsonText(nil), input...),
			TurnID: turnID, IsError: res.IsError, Scratch: scratch,
		}, records)
	}
	return outcome{value: value, isError: res.IsError, dur: dur}
}

// directStarted records the start of a direct call's turn.
func (a *agent) directStarted(id, turnID, callID, toolName string, input []byte) {
	a.sessions.with(id, func(s *session) bool {
		a.sessions.emit(s, evTurnStarted, turnStartedData(turnID, sourceDirect, ""), "")
		a.sessions.emit(s, evActionsRequested, actionsRequestedData(turnID, []requestedCall{{callID, toolName, input}}), "")
		return false
	})
}

// directEnded records a direct call's result and the end of its turn: a
// call refused by its body (an error envelope) fails the turn.
func (a *agent) directEnded(id, turnID, callID, toolName string, out outcome) {
	a.sessions.with(id, func(s *session) bool {
		if out.fail != nil {
			a.sessions.emit(s, evActionResult, actionResultData(turnID, callID, toolName, true, marshal(out.fail.body.Message), out.dur), "")
			a.sessions.emit(s, evTurnFailed, turnEndData(turnID, reasonError, out.fail.body.Message), "")
			return false
		}
		a.sessions.emit(s, evActionResult, actionResultData(turnID, callID, toolName, out.isError, out.value, out.dur), "")
		a.sessions.emit(s, evTurnCompleted, turnEndData(turnID, "", ""), "")
		return false
	})
}

// record appends a call and what it recorded to the session, bumping its
// activity time.
func (a *agent) record(id string, cr callRecord, records []record) {
	a.sessions.addCall(id, cr, records)
}

// invoke runs the tool body; a panic becomes an error result.
func invoke(ctx context.Context, t *tool.Tool, call *tool.Call, logf func(string, ...any)) (res tool.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			logf("devserver: tool %s panicked: %v", t.Name, p)
			for _, line := range strings.Split(strings.TrimSpace(string(debug.Stack())), "\n") {
				logf("devserver:   %s", line)
			}
			res, err = tool.Result{}, fmt.Errorf("%s failed: internal error (%v)", t.Name, p)
		}
	}()
	return t.Call(ctx, call)
}
