package mcpconn

import (
	"strings"
	"sync"

	"github.com/agsh-dev/agsh/internal/devserver/tool"
)

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

// nameSet hands out advertised names: the first tool to claim a name keeps
// it, and a later one is reported and left out (two connections whose
// prefixes meet, or names equal once cut to 64 characters).
type nameSet struct {
	mu    sync.Mutex // a server ready late claims its names after the start
	owner map[string]string
	logf  func(format string, args ...any)
}

func newNameSet(logf func(string, ...any)) *nameSet {
	return &nameSet{owner: map[string]string{}, logf: logf}
}

// claim reports whether t may use its name.
func (n *nameSet) claim(t *tool.Tool, mcpName string) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	who := "connection " + t.Source.Connection + ", MCP tool " + mcpName
	if prev, ok := n.owner[t.Name]; ok {
		n.logf("mcp %s: tool %q is left out: its name %s is already taken by %s", t.Source.Connection, mcpName, t.Name, prev)
		return false
	}
	n.owner[t.Name] = who
	return true
}
