package generated

import (
	"strings"

	"github.com/agsh-dev/agsh/internal/names"
)

// connectionOptions are the reserved options that choose the deployment,
// the credential or the session, and what each is, for messages.
var connectionOptions = map[string]string{
	"--target":             "deployment option",
	"--team":               "team option",
	"--bearer-token":       "credential option",
	"--session":            "session option",
	"--continuation-token": "session option",
}

// Kebab turns a property name into the kebab-case used for flags (see
// names.Kebab, the one kebab-caser).
func Kebab(name string) string { return names.Kebab(name) }

func isUpper(c rune) bool { return c >= 'A' && c <= 'Z' }
func isLower(c rune) bool { return c >= 'a' && c <= 'z' }
func isDigit(c rune) bool { return c >= '0' && c <= '9' }

// literalFlag reports whether a top-level property name is already shaped
// like a flag and keeps its spelling: "-X" (one letter or digit) or "--x…"
// (a-z or 0-9, then a-z, 0-9 and '-').
func literalFlag(name string) bool {
	if len(name) == 2 && name[0] == '-' {
		c := rune(name[1])
		return isLower(c) || isUpper(c) || isDigit(c)
	}
	if len(name) < 3 || !strings.HasPrefix(name, "--") {
		return false
	}
	if c := rune(name[2]); !isLower(c) && !isDigit(c) {
		return false
	}
	for _, c := range name[3:] {
		if !isLower(c) && !isDigit(c) && c != '-' {
			return false
		}
	}
	return true
}
