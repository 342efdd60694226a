// Package archtest holds the tests that keep ../shared/STYLE.md's layout true:
// which agsh packages each package may import (the leaf packages being open
// to all), that nothing imports cmd/..., that render and interp know nothing
// of HTTP, and that cmd/agsh stays the composition root — at most 1,000 lines
// of non-test code and no function over 60 lines.
package archtest
