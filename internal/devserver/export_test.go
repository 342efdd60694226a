package devserver

import "testing"

// SetSessionCaps makes the per-session caps of calls, records and bytes
// small for a test; they are restored when it ends.
func SetSessionCaps(t testing.TB, calls, records, bytes int) {
	c, r, b := maxSessionCalls, maxSessionRecords, maxSessionBytes
	maxSessionCalls, maxSessionRecords, maxSessionBytes = calls, records, bytes
	t.Cleanup(func() { maxSessionCalls, maxSessionRecords, maxSessionBytes = c, r, b })
}

// SetRecordCaps makes the caps of a session's record small for a test;
// they are restored when it ends.
func SetRecordCaps(t testing.TB, events, bytes int) {
	e, b := maxSessionEvents, maxRecordBytes
	maxSessionEvents, maxRecordBytes = events, bytes
	t.Cleanup(func() { maxSessionEvents, maxRecordBytes = e, b })
}

// AppendEvents appends n message.completed events, each saying text, to
// the record of session id on the agent slug (benchmarks build large
// records with it).
func AppendEvents(s *Server, slug, id string, n int, text string) {
	st := s.bySlug[slug].sessions
	st.mu.Lock()
	defer st.mu.Unlock()
	sess := st.byID[id]
	for range n {
		st.emit(sess, evMessageCompleted, messageCompletedData("turn_bench", text), "")
	}
}
