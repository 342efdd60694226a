package devserver

import (
	"testing"
	"time"
)

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

// SetKeptCaps makes the caps on the bytes the sessions keep small for a
// test (per principal, in all); they are restored when it ends.
func SetKeptCaps(t testing.TB, perPrincipal, total int64) {
	p, a := maxKeptPerPrincipal, maxKept
	maxKeptPerPrincipal, maxKept = perPrincipal, total
	t.Cleanup(func() { maxKeptPerPrincipal, maxKept = p, a })
}

// SetSessionCountCaps makes the caps on sessions small for a test.
func SetSessionCountCaps(t testing.TB, perPrincipal, total int) {
	p, a := maxSessionsPerPrincipal, maxSessions
	maxSessionsPerPrincipal, maxSessions = perPrincipal, total
	t.Cleanup(func() { maxSessionsPerPrincipal, maxSessions = p, a })
}

// SetFaultCaps makes the caps on armed faults small for a test: counts
// and body bytes, per principal and in all.
func SetFaultCaps(t testing.TB, perPrincipal, total int, bytesPerPrincipal, bytesTotal int64) {
	p, a, bp, ba := maxFaultsPerPrincipal, maxFaults, maxFaultBytesPerPrincipal, maxFaultBytes
	maxFaultsPerPrincipal, maxFaults, maxFaultBytesPerPrincipal, maxFaultBytes = perPrincipal, total, bytesPerPrincipal, bytesTotal
	t.Cleanup(func() { maxFaultsPerPrincipal, maxFaults, maxFaultBytesPerPrincipal, maxFaultBytes = p, a, bp, ba })
}

// Kept reports what the server's sessions keep, as its caps count it: in
// all and for one principal, and the number of sessions in all.
func Kept(s *Server, principal string) (total, own int64, sessions int) {
	l := s.hub.kept
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.totalBytes, l.bytes[principal], l.totalSessions
}

// Measured is what the sessions of s hold, summed over the sessions
// themselves (the ledger must agree with it).
func Measured(s *Server) (total int64) {
	for _, a := range s.agents {
		a.sessions.mu.Lock()
		for _, sess := range a.sessions.byID {
			total += sess.keptBytes()
		}
		a.sessions.mu.Unlock()
	}
	return total
}

// SetAnswerTimeout makes the bound on each write of an answer short for a
// test: d, and no allowance for its size.
func SetAnswerTimeout(t testing.TB, d time.Duration) {
	old, rate := answerTimeout, answerRate
	answerTimeout, answerRate = d, 1<<40
	t.Cleanup(func() { answerTimeout, answerRate = old, rate })
}

// SetStreamTiming makes the streams of a server started with cfg give up
// a write after writeTimeout, write a heartbeat after heartbeat of
// silence, and give their connections a send buffer of sendBuffer bytes.
func SetStreamTiming(cfg *Config, writeTimeout, heartbeat time.Duration, sendBuffer int) {
	cfg.streams = &streamTiming{writeTimeout, heartbeat, sendBuffer}
}
