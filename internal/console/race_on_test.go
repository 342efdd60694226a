//go:build race

package console

// raceEnabled: built with -race, whose memory is not agsh's.
const raceEnabled = true
