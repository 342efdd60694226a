package devserver

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// SafeLogf wraps logf so that every line it receives is safe on a
// terminal: control characters (C0, DEL, C1), invalid UTF-8 and line breaks
// in the formatted line are escaped (\x1b, \u009b, \n), so neither a request
// path nor a tool's output can retitle the operator's terminal or forge a
// log line. A nil logf discards.
func SafeLogf(logf func(string, ...any)) func(string, ...any) {
	if logf == nil {
		return func(string, ...any) {}
	}
	return func(format string, args ...any) {
		logf("%s", EscapeLog(fmt.Sprintf(format, args...)))
	}
}

// EscapeLog escapes the control characters and invalid UTF-8 of s (tabs
// stay).
func EscapeLog(s string) string {
	clean := true
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if needsEscape(r, n) {
			clean = false
			break
		}
		i += n
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 && r != '\t', r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r <= 0x9f:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func needsEscape(r rune, n int) bool {
	return r == utf8.RuneError && n == 1 || r < 0x20 && r != '\t' || r == 0x7f || r >= 0x80 && r <= 0x9f
}
