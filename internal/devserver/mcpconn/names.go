package mcpconn

import "strings"

// maxNameLen is the longest advertised tool name.
const maxNameLen = 64

// AdvertisedName is the model-facing name of a connection tool:
// "<prefix>_<tool>", lower-cased, every character outside [a-z0-9_-] turned
// into '_', cut to 64 bytes. The prefix is the connector when one is declared,
// else the connection name.
func AdvertisedName(connection, connector, toolName string) string {
	prefix := connector
	if prefix == "" {
		prefix = connection
	}
	return sanitizeName(prefix + "_" + toolName)
}

// sanitizeName lower-cases s, replaces characters outside [a-z0-9_-] (each
// rune, so a multi-byte character becomes one '_') and cuts to maxNameLen.
func sanitizeName(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range strings.ToLower(s) {
		if b.Len() == maxNameLen {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}
