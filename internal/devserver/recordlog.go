package devserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// With --state, a session's record is also kept in <id>.events.jsonl, one
// event a line exactly as served, so an event costs one append. When the
// file has grown to twice what the record keeps, it is rewritten with what
// the record keeps, the record.truncated stand-in first.

// maxRecordLine bounds one line read back from a record's file: an event
// holds at most a message, or an input or result of maxEventValue, each
// escaped.
const maxRecordLine = 8 * maxEventValue

// recordPath is the file of a session's record.
func (st *sessionStore) recordPath(id string) string {
	return filepath.Join(st.dir, id+".events.jsonl")
}

// appendEvent appends an event to the session's record file. Callers hold
// mu. A failure is logged: the record lives on in memory.
func (st *sessionStore) appendEvent(s *session, ev event) {
	if st.dir == "" {
		return
	}
	line := make([]byte, 0, len(ev.line)+1)
	line = append(append(line, ev.line...), '\n')
	f, err := os.OpenFile(st.recordPath(s.ID), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		st.logf("devserver: saving an event of session %s: %v", s.ID, err)
		return
	}
	_, werr := f.Write(line)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		st.logf("devserver: saving an event of session %s: %v", s.ID, werr)
		return
	}
	rec := s.log()
	rec.fileBytes += int64(len(line))
	if rec.fileBytes > 2*int64(rec.bytes)+1<<20 {
		st.compactRecord(s)
	}
}

// compactRecord rewrites the session's record file with what the record
// keeps.
func (st *sessionStore) compactRecord(s *session) {
	rec := s.log()
	var buf bytes.Buffer
	if note := rec.standIn(-1); note != nil {
		buf.Write(note)
		buf.WriteByte('\n')
	}
	for i := range rec.events {
		buf.Write(rec.events[i].line)
		buf.WriteByte('\n')
	}
	if err := writeAtomic(st.dir, s.ID+".events.jsonl", buf.Bytes()); err != nil {
		st.logf("devserver: compacting the record of session %s: %v", s.ID, err)
		return
	}
	rec.fileBytes = int64(buf.Len())
}

// savedEvent is what loading reads of a saved event.
type savedEvent struct {
	Index *int64 `json:"index"`
	Type  string `json:"type"`
	At    string `json:"at"`
	Data  struct {
		TurnID string `json:"turnId"`
		CallID string `json:"callId"`
	} `json:"data"`
}

// loadRecord reads a session's record file back, applying the caps as it
// goes. A line that does not parse, or whose index goes backwards, is
// skipped; after a gap the record starts again at the gap (what came
// before counts as dropped). A turn left running or queued when the server
// stopped without recording its end is recorded as interrupted; loadRecord
// then answers true (the session changed).
func (st *sessionStore) loadRecord(s *session) bool {
	f, err := os.Open(st.recordPath(s.ID))
	if errors.Is(err, fs.ErrNotExist) {
		return false
	}
	if err != nil {
		st.logf("devserver: reading the record of session %s: %v", s.ID, err)
		return false
	}
	defer f.Close()
	rec := s.log()
	if fi, err := f.Stat(); err == nil {
		rec.fileBytes = fi.Size()
	}
	var open []string
	isOpen := map[string]bool{}
	bad, gaps := 0, 0
	readLines(f, maxRecordLine, func(line []byte) {
		var se savedEvent
		if line == nil || json.Unmarshal(line, &se) != nil || se.Index == nil || *se.Index < 0 || se.Type == "" {
			bad++
			return
		}
		idx := *se.Index
		if se.Type == typeTruncated {
			if len(rec.events) == 0 && idx+1 > rec.next {
				rec.first, rec.next, rec.droppedAt = idx+1, idx+1, se.At
			}
			return
		}
		switch {
		case idx < rec.next:
			bad++
			return
		case idx > rec.next && len(rec.events) > 0:
			gaps++
			rec.droppedAt = eventAt(rec.events[len(rec.events)-1].line)
			rec.events, rec.bytes = nil, 0
		}
		ev := event{index: idx, typ: se.Type, line: bytes.Clone(line)}
		if se.Type == evApprovalRequested {
			ev.callID = se.Data.CallID
		}
		rec.push(ev)
		if t, err := time.Parse(time.RFC3339Nano, se.At); err == nil && t.After(rec.lastAt) {
			rec.lastAt = t.UTC()
		}
		switch se.Type {
		case evTurnStarted, evTurnQueued:
			if id := se.Data.TurnID; id != "" && !isOpen[id] {
				isOpen[id] = true
				open = append(open, id)
			}
		case evTurnCompleted, evTurnFailed:
			delete(isOpen, se.Data.TurnID)
		}
	})
	if bad > 0 || gaps > 0 {
		st.logf("devserver: session %s: skipped %d unreadable or out-of-order line(s) of its record, %d gap(s)", s.ID, bad, gaps)
	}
	ended := false
	for _, id := range open {
		if isOpen[id] {
			st.emit(s, evTurnFailed, turnEndData(id, reasonInterrupted, "the development deployment stopped before the turn ended"), "")
			ended = true
		}
	}
	if ended {
		if s.Mode == modeTask {
			s.Ended = "failed"
		} else {
			st.emit(s, evSessionWaiting, emptyData, "")
		}
	}
	return ended
}

// readLines calls fn with each line of r (without its newline); a line
// longer than max is passed as nil and skipped, never held whole.
func readLines(r io.Reader, max int, fn func(line []byte)) {
	rd := bufio.NewReaderSize(r, 64<<10)
	var cur []byte
	tooLong := false
	for {
		chunk, err := rd.ReadSlice('\n')
		if !tooLong {
			if len(cur)+len(chunk) > max+1 {
				tooLong, cur = true, cur[:0]
			} else {
				cur = append(cur, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if tooLong {
			fn(nil)
		} else if l := bytes.TrimSpace(cur); len(l) > 0 {
			fn(l)
		}
		cur, tooLong = cur[:0], false
		if err != nil {
			return
		}
	}
}
