package devserver

import (
	"strconv"
	"time"
)

// The event types of a session's record and the data each carries
// (docs/wire.md#session-records-and-console-routes). Every event of a turn
// also names its turnId, so a reader can pair a call with its turn.
const (
	evTurnStarted       = "turn.started"
	evTurnQueued        = "turn.queued"
	evTurnCompleted     = "turn.completed"
	evTurnFailed        = "turn.failed"
	evActionsRequested  = "actions.requested"
	evActionResult      = "action.result"
	evMessageCompleted  = "message.completed"
	evApprovalRequested = "approval.requested"
	evApprovalResolved  = "approval.resolved"
	evSessionWaiting    = "session.waiting"
)

// Turn sources and end reasons.
const (
	sourceMessage  = "message"
	sourceFollowUp = "follow-up"
	sourceDirect   = "direct"

	reasonInterrupted = "interrupted"
	reasonError       = "error"
)

// requestedCall is one call of an actions.requested event.
type requestedCall struct {
	callID, toolName string
	input            []byte
}

// inputFields are a call's input inside an event: the JSON object, or, past
// maxEventValue, null with inputTruncated and the input's size.
func inputFields(input []byte) []field {
	v, cut := boundValue(input)
	if cut {
		return []field{raw("input", []byte("null")), val("inputTruncated", true), val("inputBytes", len(input))}
	}
	return []field{raw("input", v)}
}

func turnStartedData(turnID, source, message string) []byte {
	return object(val("turnId", turnID), val("source", source), valIf(source != sourceDirect, "message", message))
}

func turnQueuedData(turnID string, position int) []byte {
	return object(val("turnId", turnID), val("position", position))
}

func turnEndData(turnID, reason, message string) []byte {
	return object(val("turnId", turnID), valIf(reason != "", "reason", reason), valIf(message != "", "message", message))
}

func actionsRequestedData(turnID string, calls []requestedCall) []byte {
	items := make([][]byte, len(calls))
	for i, c := range calls {
		items[i] = object(append([]field{val("callId", c.callID), val("toolName", c.toolName)}, inputFields(c.input)...)...)
	}
	return object(val("turnId", turnID), raw("calls", array(items)))
}

// actionResultData is an action.result: the result as the model saw it
// (past maxEventValue, the text of its first part, with resultTruncated and
// the result's size).
func actionResultData(turnID, callID, toolName string, isError bool, result []byte, dur time.Duration) []byte {
	v, cut := boundValue(result)
	return object(val("callId", callID), val("toolName", toolName), val("isError", isError), raw("result", v),
		valIf(cut, "resultTruncated", true), valIf(cut, "resultBytes", len(result)),
		field{key: "durationMs", raw: strconv.AppendInt(nil, dur.Milliseconds(), 10)},
		val("turnId", turnID))
}

// stubbedResultData is the action.result of a dry run's call that did not
// run: a stub result, "stubbed": true.
func stubbedResultData(turnID, callID, toolName string, result []byte) []byte {
	return object(val("callId", callID), val("toolName", toolName), val("isError", false), raw("result", result),
		val("stubbed", true), field{key: "durationMs", raw: []byte("0")}, val("turnId", turnID))
}

func messageCompletedData(turnID, text string) []byte {
	return object(val("text", text), val("finishReason", "stop"), val("turnId", turnID))
}

func approvalRequestedData(turnID, callID, toolName string, input []byte) []byte {
	return object(append(append([]field{val("callId", callID), val("toolName", toolName)}, inputFields(input)...),
		val("turnId", turnID))...)
}

func approvalResolvedData(turnID, callID, decision, reason string) []byte {
	return object(val("callId", callID), val("decision", decision), valIf(reason != "", "reason", reason), val("turnId", turnID))
}

// emptyData is the data of an event that carries nothing.
var emptyData = []byte("{}")
