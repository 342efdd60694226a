//go:build !race

package console

// raceEnabled: built with -race.
const raceEnabled = false
