//go:build race

package catalog

// raceEnabled: the test binary is built with -race, whose memory is not
// agsh's: memory assertions are skipped.
const raceEnabled = true
