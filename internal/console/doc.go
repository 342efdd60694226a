// Package console is the operator's console over a session's record
// (docs/console.md): :trace (the record as a timeline table, or its events
// as received), :tail (the same, live, resuming a dropped connection
// where it stopped) and :replay's search of a call. It reads the record
// through catalog and writes through render; how a call is written as a
// command line is passed in (Env.CallLine), so it knows no command table.
package console
