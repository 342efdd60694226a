package devserver

import "testing"

// SetSessionCaps makes the per-session caps of calls, records and bytes
// small for a test; they are restored when it ends.
func SetSessionCaps(t testing.TB, calls, records, bytes int) {
	c, r, b := maxSessionCalls, maxSessionRecords, maxSessionBytes
	maxSessionCalls, maxSessionRecords, maxSessionBytes = calls, records, bytes
	t.Cleanup(func() { maxSessionCalls, maxSessionRecords, maxSessionBytes = c, r, b })
}
