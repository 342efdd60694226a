// Package archtest holds the test that keeps the import directions of
// ../shared/STYLE.md true: which agsh packages each package may import, that
// nothing imports cmd/..., and that render and interp know nothing of HTTP.
package archtest
