package devserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Each session keeps its last maxSessionCalls calls and maxSessionRecords
// records, at most maxSessionBytes of them; older ones are dropped, and
// GET /v1/dev/sessions/{id}/calls says how many.
// (Variables so that tests can make them small.)
var (
	maxSessionCalls   = 1000
	maxSessionRecords = 1000
	maxSessionBytes   = 64 << 20
)

// entryOverhead is what a call or record costs beyond its JSON text.
const entryOverhead = 256

func (cr *callRecord) size() int { return len(cr.Input) + entryOverhead }
func (r *record) size() int      { return len(r.Value) + entryOverhead }

// addCall appends a call and what it recorded to the session, then drops
// the oldest entries beyond the caps (never the call just added).
func (s *session) addCall(cr callRecord, records []record) {
	s.Calls = append(s.Calls, cr)
	s.bytes += cr.size()
	for i := range records {
		s.Records = append(s.Records, records[i])
		s.bytes += records[i].size()
	}
	s.trim()
}

// trim drops the oldest calls and records beyond the caps; the newest
// call always stays.
func (s *session) trim() {
	for len(s.Calls) > maxSessionCalls {
		s.dropCall()
	}
	for len(s.Records) > maxSessionRecords {
		s.dropRecord()
	}
	for s.bytes > maxSessionBytes {
		switch {
		case len(s.Calls) > 1:
			// The oldest call goes with the records made before or by it.
			at := s.Calls[0].At
			s.dropCall()
			for len(s.Records) > 0 && s.Records[0].At <= at {
				s.dropRecord()
			}
		case len(s.Records) > 0:
			s.dropRecord()
		default:
			return
		}
	}
}

func (s *session) dropCall() {
	s.bytes -= s.Calls[0].size()
	s.Calls[0] = callRecord{}
	s.Calls = s.Calls[1:]
	s.DroppedCalls++
}

func (s *session) dropRecord() {
	s.bytes -= s.Records[0].size()
	s.Records[0] = record{}
	s.Records = s.Records[1:]
	s.DroppedRecords++
}

// logLine is one line of a session's call log (<id>.calls.jsonl): a call, a
// record, or the counts dropped before a compaction.
type logLine struct {
	Call    *callRecord `json:"call,omitempty"`
	Record  *record     `json:"record,omitempty"`
	Dropped *[2]int     `json:"dropped,omitempty"` // calls, records
}

// writeLogLine appends one line of a call log to buf (a line that does not
// encode is left out).
func writeLogLine(buf *bytes.Buffer, l logLine) {
	if b, err := json.Marshal(l); err == nil {
		buf.Write(b)
		buf.WriteByte('\n')
	}
}

// logPath is the call log of a session.
func (st *sessionStore) logPath(id string) string { return filepath.Join(st.dir, id+".calls.jsonl") }

// appendLog appends a call and its records to the session's call log, so
// a call costs one append, not a rewrite of the session. When the log has
// grown to twice what the session keeps, it is compacted. Callers hold mu.
func (st *sessionStore) appendLog(s *session, cr callRecord, records []record) {
	if st.dir == "" {
		return
	}
	var buf bytes.Buffer
	writeLogLine(&buf, logLine{Call: &cr})
	for i := range records {
		writeLogLine(&buf, logLine{Record: &records[i]})
	}
	f, err := os.OpenFile(st.logPath(s.ID), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		st.logf("devserver: saving a call of session %s: %v", s.ID, err)
		return
	}
	_, werr := f.Write(buf.Bytes())
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		st.logf("devserver: saving a call of session %s: %v", s.ID, werr)
		return
	}
	s.logBytes += int64(buf.Len())
	if s.logBytes > 2*int64(s.bytes)+1<<20 {
		st.compactLog(s)
	}
}

// compactLog rewrites the session's call log with what the session keeps.
func (st *sessionStore) compactLog(s *session) {
	var buf bytes.Buffer
	line := func(l logLine) { writeLogLine(&buf, l) }
	if s.DroppedCalls > 0 || s.DroppedRecords > 0 {
		line(logLine{Dropped: &[2]int{s.DroppedCalls, s.DroppedRecords}})
	}
	// Calls and their records interleaved in time order.
	ri := 0
	for i := range s.Calls {
		for ri < len(s.Records) && s.Records[ri].At < s.Calls[i].At {
			line(logLine{Record: &s.Records[ri]})
			ri++
		}
		line(logLine{Call: &s.Calls[i]})
		for ri < len(s.Records) && s.Records[ri].CallID == s.Calls[i].CallID {
			line(logLine{Record: &s.Records[ri]})
			ri++
		}
	}
	for ; ri < len(s.Records); ri++ {
		line(logLine{Record: &s.Records[ri]})
	}
	if err := writeAtomic(st.dir, s.ID+".calls.jsonl", buf.Bytes()); err != nil {
		st.logf("devserver: compacting the calls of session %s: %v", s.ID, err)
		return
	}
	s.logBytes = int64(buf.Len())
}

// loadLog replays a session's call log, applying the caps as it goes. A
// line that does not parse (the end of a write cut short) is reported and
// skipped.
func (st *sessionStore) loadLog(s *session) {
	f, err := os.Open(st.logPath(s.ID))
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		st.logf("devserver: reading the calls of session %s: %v", s.ID, err)
		return
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil {
		s.logBytes = fi.Size()
	}
	rd := bufio.NewReaderSize(f, 64<<10)
	bad := 0
	for n := 1; ; n++ {
		line, err := rd.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var l logLine
			switch {
			case json.Unmarshal(line, &l) != nil:
				bad++
			case l.Dropped != nil:
				s.DroppedCalls += l.Dropped[0]
				s.DroppedRecords += l.Dropped[1]
			case l.Call != nil:
				s.addCall(*l.Call, nil)
				if l.Call.At > s.Updated {
					s.Updated = l.Call.At
				}
			case l.Record != nil:
				s.Records = append(s.Records, *l.Record)
				s.bytes += l.Record.size()
				s.trim()
			}
		}
		if err != nil {
			break
		}
	}
	if bad > 0 {
		st.logf("devserver: session %s: skipped %d unreadable line(s) of its call log", s.ID, bad)
	}
}

// writeAtomic writes dir/name through a temporary file and a rename, so a
// crash never leaves half a file.
func writeAtomic(dir, name string, data []byte) error {
	tmp, err := os.CreateTemp(dir, ".tmp-"+name+"-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), filepath.Join(dir, name))
	}
	if werr != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("%w", werr)
	}
	return nil
}
