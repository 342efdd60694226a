//go:build !race

package catalog

// raceEnabled: the test binary is built with -race.
const raceEnabled = false
