package devserver

import (
	"fmt"

	"github.com/agsh-dev/agsh/internal/termsafe"
)

// SafeLogf wraps logf so that every line it receives is safe on a
// terminal: control characters (C0, DEL, C1), invalid UTF-8, bidi controls,
// zero-width characters and line breaks in the formatted line are escaped
// (\x1b, \u009b, \u202e, \n) by the escaping every path to a terminal uses
// (docs/rendering.md#terminal-safety), so neither a request path nor a
// tool's output can retitle the operator's terminal, reorder a line or
// forge one. A nil logf discards.
func SafeLogf(logf func(string, ...any)) func(string, ...any) {
	if logf == nil {
		return func(string, ...any) {}
	}
	return func(format string, args ...any) {
		logf("%s", EscapeLog(fmt.Sprintf(format, args...)))
	}
}

// EscapeLog escapes s for one line of the log (tabs stay).
func EscapeLog(s string) string { return termsafe.Line(s) }
