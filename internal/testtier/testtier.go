// Package testtier holds what decides which tier of the test suite runs a
// test (docs/testing.md#tiers): whether the test binary was built with the
// race detector, and the big tests that run without it.
//
// Tests only: no package of agsh imports it outside its tests.
package testtier

import (
	"strings"
	"testing"
)

// Race reports a test binary built with -race.
const Race = race

// BigSuffix ends the name of every big test: make test's non-race stage
// selects them with go test -run 'Big$'.
const BigSuffix = "Big"

// Big marks a big test: one whose cost is the volume of data it pushes
// through code that runs on one goroutine, or whose assertions are about
// memory (peak RSS, bytes allocated). The race detector has nothing to find
// in it, multiplies its time by ten or more, and its runtime's memory is not
// agsh's; so a big test is skipped in a -race build and runs in make test's
// non-race stage, which picks it by its name (ending in BigSuffix; a big
// test named otherwise fails, so that no big test is left out of make test).
// Call it first in the test.
func Big(t testing.TB) {
	t.Helper()
	top, _, _ := strings.Cut(t.Name(), "/")
	if !strings.HasSuffix(top, BigSuffix) {
		t.Fatalf("%s calls testtier.Big: its name must end in %q (make test's non-race stage runs go test -run '%s$')", top, BigSuffix, BigSuffix)
	}
	if Race {
		t.Skip("a big test: it runs without -race (make test's non-race stage; docs/testing.md#tiers)")
	}
}
