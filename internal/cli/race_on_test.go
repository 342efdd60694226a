//go:build race

package cli

// raceEnabled: the test binary is built with -race (its memory is not agsh's).
const raceEnabled = true
