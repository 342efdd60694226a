package catalog

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/agsh-dev/agsh/internal/jsontext"
)

// A session's record (docs/wire.md#session-records-and-console-routes): an
// append-only list of events {"index", "type", "data", "at"}, indexes from
// 0 up by one. Everything in an event comes from the deployment and is
// untrusted: decoding is tolerant (an unknown type or field is kept, a
// field of the wrong type reads as absent), and an event keeps its bytes as
// received so that --output json can print exactly those.

// Event types agsh reads data from. Others are kept and shown as they are
// (the runtime has more types than are public).
const (
	EventTurnStarted       = "turn.started"       // turnId, source
	EventTurnQueued        = "turn.queued"        // turnId, position
	EventTurnCompleted     = "turn.completed"     // turnId
	EventTurnFailed        = "turn.failed"        // turnId, reason, message
	EventActionsRequested  = "actions.requested"  // turnId, calls [{callId, toolName, input}]
	EventActionResult      = "action.result"      // callId, toolName, isError, result, durationMs
	EventMessageCompleted  = "message.completed"  // text, finishReason, parentCallId
	EventApprovalRequested = "approval.requested" // callId, toolName, input
	EventApprovalResolved  = "approval.resolved"  // callId, decision, reason
	EventSessionWaiting    = "session.waiting"    // (nothing)
	// EventRecordTruncated stands for events the deployment dropped from
	// the front of a bounded record (the development deployment's; assumed
	// for others): dropped, firstIndex, note.
	EventRecordTruncated = "record.truncated"
)

// Event is one event of a record.
type Event struct {
	// Index is the event's index; HasIndex is false when the event has no
	// index that is a whole number (such an event is never handed out by
	// the readers, which need the order).
	Index    int64
	HasIndex bool
	Type     string
	// At is the event's time as sent ("" when absent or not a string).
	At string
	// Data is the event's data object as received ("" when absent or not
	// an object).
	Data json.RawMessage
	// Raw is the whole event as received, white space around it trimmed:
	// what --output json prints.
	Raw []byte
	// More: the next event had arrived when this one was handed out (a
	// replay in progress): in NDJSON its whole line, in an envelope's
	// array the bytes after this event's separator. A writer may wait
	// for it before flushing.
	More bool
}

// eventDepth bounds the nesting of an event agsh reads.
const eventDepth = 128

// ParseEvent decodes one event from its JSON text (kept as Raw, not
// copied). It reports false when raw is not one JSON object; any member of
// an unexpected type reads as absent.
func ParseEvent(raw []byte) (*Event, bool) {
	ev := &Event{}
	if !parseEventInto(ev, raw) {
		return nil, false
	}
	return ev, true
}

// parseEventInto is ParseEvent into ev, zero but for its Type: the type of
// the event read before, whose string is kept when the type is the same
// (most events share a few types).
func parseEventInto(ev *Event, raw []byte) bool {
	raw = bytes.TrimSpace(raw)
	ev.Raw = raw
	prevType := ev.Type
	ev.Type = ""
	end, ok := jsontext.Members(raw, 0, func(key []byte, vs int) (int, bool) {
		ve, ok := jsontext.ValueEnd(raw, vs, eventDepth-1)
		if !ok {
			return 0, false
		}
		v := raw[vs:ve]
		switch string(key) {
		case `"index"`:
			if n, err := strconv.ParseInt(string(v), 10, 64); err == nil && n >= 0 {
				ev.Index, ev.HasIndex = n, true
			}
		case `"type"`:
			if len(v) == len(prevType)+2 && v[0] == '"' && string(v[1:len(v)-1]) == prevType {
				ev.Type = prevType
			} else {
				ev.Type = stringValue(v)
			}
		case `"at"`:
			ev.At = stringValue(v)
		case `"data"`:
			if v[0] == '{' {
				ev.Data = v
			}
		}
		return ve, true
	})
	return ok && jsontext.SkipSpace(raw, end) == len(raw)
}

// stringValue is a JSON string token's value, "" for any other value.
func stringValue(v []byte) string {
	if len(v) == 0 || v[0] != '"' {
		return ""
	}
	return jsontext.UnquoteValid(v)
}

// EventData is what agsh reads from an event's data, for every known type
// at once: a field that is absent or of another type is zero.
type EventData struct {
	TurnID, Source, CallID, ToolName, Decision, Reason string
	Text, FinishReason, ParentCallID, Message, Note    string
	IsError                                            bool
	// Position (turn.queued), DurationMs (action.result) and Dropped
	// (record.truncated) as sent; "" when absent or not numbers.
	Position, DurationMs, Dropped json.Number
	// Input and Result are the JSON values as received (nil when absent).
	Input, Result json.RawMessage
	// InputTruncated and ResultTruncated: the deployment cut the value to
	// bound the event (the development deployment's fields).
	InputTruncated, ResultTruncated bool
	// Stubbed (action.result): a dry run's stub result, the tool did not
	// run (docs/wire.md#events: the member's name is assumed).
	Stubbed bool
	// TraceID is the OpenTelemetry trace of the event's turn, where the
	// record carries one (assumed: traceId, W3C trace-context's 32
	// lowercase hex digits, not all zero; anything else reads as absent),
	// so that an operator can look the turn up in the collector
	// (docs/wire.md#events).
	TraceID string
	// DecidedBy (approval.resolved) names who decided, where the record
	// says (assumed: decidedBy, a string).
	DecidedBy string
	Calls     []EventCall
}

// EventCall is one call of an actions.requested event.
type EventCall struct {
	CallID, ToolName string
	Input            json.RawMessage
	InputTruncated   bool
}

// Fields decodes the data of ev tolerantly.
func (ev *Event) Fields() EventData {
	var d EventData
	walkObject(ev.Data, func(key string, v []byte) {
		switch key {
		case "turnId":
			d.TurnID = stringValue(v)
		case "source":
			d.Source = stringValue(v)
		case "callId":
			d.CallID = stringValue(v)
		case "toolName":
			d.ToolName = stringValue(v)
		case "decision":
			d.Decision = stringValue(v)
		case "reason":
			d.Reason = stringValue(v)
		case "text":
			d.Text = stringValue(v)
		case "finishReason":
			d.FinishReason = stringValue(v)
		case "parentCallId":
			d.ParentCallID = stringValue(v)
		case "message":
			d.Message = stringValue(v)
		case "note":
			d.Note = stringValue(v)
		case "isError":
			d.IsError = string(v) == "true"
		case "position":
			d.Position = numberValue(v)
		case "durationMs":
			d.DurationMs = numberValue(v)
		case "dropped":
			d.Dropped = numberValue(v)
		case "input":
			d.Input = v
		case "result":
			d.Result = v
		case "inputTruncated":
			d.InputTruncated = string(v) == "true"
		case "resultTruncated":
			d.ResultTruncated = string(v) == "true"
		case "stubbed":
			d.Stubbed = string(v) == "true"
		case "traceId":
			d.TraceID = traceID(stringValue(v))
		case "decidedBy":
			d.DecidedBy = stringValue(v)
		case "calls":
			if v[0] == '[' {
				d.Calls = eventCalls(v)
			}
		}
	})
	return d
}

// traceID is s when it is a W3C trace id (32 lowercase hex digits, not
// all zero), else "".
func traceID(s string) string {
	if len(s) != 32 || s == "00000000000000000000000000000000" {
		return ""
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return ""
		}
	}
	return s
}

// maxEventCalls bounds the calls read from one actions.requested event.
const maxEventCalls = 10000

// eventCalls reads the calls of an actions.requested event; an element
// that is not an object is left out.
func eventCalls(v []byte) []EventCall {
	var calls []EventCall
	jsontext.Elements(v, 0, func(s int) (int, bool) {
		e, ok := jsontext.ValueEnd(v, s, eventDepth)
		if ok && v[s] == '{' && len(calls) < maxEventCalls {
			var c EventCall
			walkObject(v[s:e], func(key string, x []byte) {
				switch key {
				case "callId":
					c.CallID = stringValue(x)
				case "toolName":
					c.ToolName = stringValue(x)
				case "input":
					c.Input = x
				case "inputTruncated":
					c.InputTruncated = string(x) == "true"
				}
			})
			calls = append(calls, c)
		}
		return e, ok
	})
	return calls
}

// numberValue is a JSON number token as a json.Number, "" for any other
// value.
func numberValue(v []byte) json.Number {
	if len(v) == 0 || jsontext.NumberEnd(v, 0) != len(v) {
		return ""
	}
	return json.Number(v)
}

// walkObject calls member for each member of the JSON object obj (checked
// JSON, as ParseEvent keeps it) with its key decoded and its value's bytes.
// Nothing happens when obj is not an object.
func walkObject(obj []byte, member func(key string, v []byte)) {
	if len(obj) == 0 || obj[0] != '{' {
		return
	}
	jsontext.Members(obj, 0, func(key []byte, vs int) (int, bool) {
		ve, ok := jsontext.SpanEnd(obj, vs)
		if ok && ve > vs {
			member(memberKey(key), obj[vs:ve])
		}
		return ve, ok
	})
}

// memberKey is a member's key token decoded: a key agsh reads without a
// copy (every event has several), any other by decoding it.
func memberKey(key []byte) string {
	switch string(key) {
	case `"turnId"`:
		return "turnId"
	case `"source"`:
		return "source"
	case `"callId"`:
		return "callId"
	case `"toolName"`:
		return "toolName"
	case `"decision"`:
		return "decision"
	case `"reason"`:
		return "reason"
	case `"text"`:
		return "text"
	case `"finishReason"`:
		return "finishReason"
	case `"parentCallId"`:
		return "parentCallId"
	case `"message"`:
		return "message"
	case `"note"`:
		return "note"
	case `"isError"`:
		return "isError"
	case `"position"`:
		return "position"
	case `"durationMs"`:
		return "durationMs"
	case `"dropped"`:
		return "dropped"
	case `"input"`:
		return "input"
	case `"result"`:
		return "result"
	case `"inputTruncated"`:
		return "inputTruncated"
	case `"resultTruncated"`:
		return "resultTruncated"
	case `"stubbed"`:
		return "stubbed"
	case `"traceId"`:
		return "traceId"
	case `"decidedBy"`:
		return "decidedBy"
	case `"calls"`:
		return "calls"
	}
	return jsontext.UnquoteValid(key)
}

// Int is n as an int64 when it is a whole number, else false.
func Int(n json.Number) (int64, bool) {
	i, err := strconv.ParseInt(string(n), 10, 64)
	return i, err == nil
}
