package devserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/agsh-dev/agsh/internal/jsontext"
)

// A session's record (docs/wire.md#session-records-and-console-routes) is
// its append-only list of events, {"index","type","data","at"}, indexes from
// 0 up by one. Each event is encoded once, when it happens, and served as
// those bytes by GET …/events and …/stream.
//
// A record keeps its last maxSessionEvents events, at most maxRecordBytes of
// them; older ones are dropped, never silently: what is served starts with
// a stand-in event of type record.truncated at the index just before the
// first one kept, saying how many were dropped. Indexes never go backwards
// or repeat, the stand-in's included. (Variables so that tests can make
// them small.)
var (
	maxSessionEvents = 100000
	maxRecordBytes   = 64 << 20
)

const (
	// maxEventValue bounds one input or result inside an event; a larger
	// one is cut (see boundValue).
	maxEventValue = 1 << 20
	// eventOverhead is what an event costs beyond its JSON text.
	eventOverhead = 96
	// typeTruncated is the stand-in for the events dropped.
	typeTruncated = "record.truncated"
)

// event is one event of a record.
type event struct {
	index  int64
	typ    string
	callID string // the call of an approval.requested, else ""
	line   []byte // the event's JSON text, without a newline
}

// eventLog is a session's record in memory. Events are appended and dropped
// from the front; an element once appended is never written again, so a
// reader may keep a slice of events past the lock.
type eventLog struct {
	events    []event // indexes first, first+1, …
	first     int64   // the index of events[0]: the number dropped
	next      int64   // the index the next event takes
	bytes     int
	droppedAt string        // the time of the last event dropped
	lastAt    time.Time     // the latest event time handed out
	notify    chan struct{} // closed and replaced on every append
	fileBytes int64         // the size of the record's file (--state)
	// shedByCaps is set once the server's caps on kept bytes dropped
	// events (kept.go).
	shedByCaps bool
	clk        clock // the deployment's clock (--clock-offset)
}

func newEventLog(clk clock) *eventLog { return &eventLog{notify: make(chan struct{}), clk: clk} }

// now is an event time: the clock in UTC, milliseconds, never before the
// record's last event.
func (l *eventLog) now() string {
	t := l.clk.now().UTC().Truncate(time.Millisecond)
	if t.Before(l.lastAt) {
		t = l.lastAt
	}
	l.lastAt = t
	return t.Format(stampLayout)
}

// add appends an event of type typ with data (a JSON object) and wakes the
// streams waiting for it. It returns the event.
func (l *eventLog) add(typ string, data []byte, callID string) event {
	ev := event{index: l.next, typ: typ, callID: callID, line: eventLine(l.next, typ, data, l.now())}
	l.push(ev)
	return ev
}

// push appends an encoded event, then drops the oldest beyond the caps
// (never the event just added).
func (l *eventLog) push(ev event) {
	if len(l.events) == 0 {
		l.first = ev.index
	}
	l.events = append(l.events, ev)
	l.next = ev.index + 1
	l.bytes += len(ev.line) + eventOverhead
	for len(l.events) > 1 && (len(l.events) > maxSessionEvents || l.bytes > maxRecordBytes) {
		old := l.events[0]
		l.bytes -= len(old.line) + eventOverhead
		l.droppedAt = eventAt(old.line)
		l.events = l.events[1:]
		l.first = l.events[0].index
	}
	close(l.notify)
	l.notify = make(chan struct{})
}

// eventLine encodes one event.
func eventLine(index int64, typ string, data []byte, at string) []byte {
	return object(
		field{key: "index", raw: strconv.AppendInt(nil, index, 10)},
		val("type", typ),
		raw("data", data),
		val("at", at),
	)
}

// eventAt reads the "at" of an encoded event (its last member).
func eventAt(line []byte) string {
	i := bytes.LastIndex(line, []byte(`"at":"`))
	if i < 0 {
		return ""
	}
	rest := line[i+6:]
	j := bytes.IndexByte(rest, '"')
	if j < 0 {
		return ""
	}
	return string(rest[:j])
}

// standIn is the record.truncated event served in place of the dropped
// events, or nil when none were dropped. requested, when ≥ 0, is the
// startIndex a stream asked for.
func (l *eventLog) standIn(requested int64) []byte {
	if l.first == 0 {
		return nil
	}
	note := fmt.Sprintf("events 0 to %d were dropped: a session keeps its last %d events, %d MiB in all", l.first-1, maxSessionEvents, maxRecordBytes>>20)
	if l.shedByCaps {
		note += keptNote()
	}
	data := object(val("dropped", l.first), val("firstIndex", l.first),
		valIf(requested >= 0, "startIndex", requested), val("note", note))
	return eventLine(l.first-1, typeTruncated, data, l.droppedAt)
}

// from answers up to max events from index start on, the stand-in when
// start is below the first event kept (start then moves there), and the
// channel closed by the next append.
func (l *eventLog) from(start int64, max int) (evs []event, note []byte, next int64, notify <-chan struct{}) {
	if start < l.first {
		note = l.standIn(start)
		start = l.first
	}
	if start >= l.next || len(l.events) == 0 {
		return nil, note, start, l.notify
	}
	i := start - l.first
	j := min(int64(len(l.events)), i+int64(max))
	return l.events[i:j], note, l.events[j-1].index + 1, l.notify
}

// everParked reports whether the kept record asked for an approval of
// callID.
func (l *eventLog) everParked(callID string) bool {
	for i := range l.events {
		if l.events[i].callID == callID && l.events[i].typ == "approval.requested" {
			return true
		}
	}
	return false
}

// boundValue makes raw JSON fit an event: compacted (an event is one
// line), and past maxEventValue cut to the text of its first part (a JSON
// string) with truncated set, so no event holds an endless result. A value
// larger than that is checked, then compacted only as far as the cut.
func boundValue(v []byte) (out []byte, truncated bool) {
	if len(v) <= maxEventValue {
		var buf bytes.Buffer
		if err := json.Compact(&buf, v); err != nil {
			return []byte("null"), false
		}
		return buf.Bytes(), false
	}
	if !jsontext.Valid(v, maxResultDepth) {
		return []byte("null"), false
	}
	head, whole := compactPrefix(v, maxEventValue+1)
	if whole && len(head) <= maxEventValue {
		return head, false
	}
	// A rune cut in two at the end is left out.
	return marshal(strings.ToValidUTF8(string(head[:maxEventValue]), "")), true
}

// compactPrefix compacts valid JSON as json.Compact does, stopping once n
// bytes are out; whole reports whether all of raw was compacted.
func compactPrefix(raw []byte, n int) (out []byte, whole bool) {
	out = make([]byte, 0, n)
	inString, escaped := false, false
	for i, c := range raw {
		if len(out) >= n {
			return out, jsontext.SkipSpace(raw, i) == len(raw)
		}
		if inString {
			out = append(out, c)
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case '"':
			inString = true
		}
		out = append(out, c)
	}
	return out, true
}
