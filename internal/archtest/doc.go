// Package archtest holds the tests that keep the layout of
// docs/architecture.md true: which agsh packages each package may import
// and why (the leaf packages being open to all but the few that import
// nothing of agsh), which packages even their tests may not import, that
// nothing imports cmd/..., that render and interp know nothing of HTTP,
// and that cmd/agsh is main and the process environment only.
package archtest
