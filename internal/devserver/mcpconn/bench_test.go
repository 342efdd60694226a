package mcpconn

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/agsh-dev/agsh/internal/devserver/tool"
)

// BenchmarkStart measures starting (and closing) the built-in connections:
// two in-process MCP sessions with their handshakes and listings.
func BenchmarkStart(b *testing.B) {
	for b.Loop() {
		s, err := Start(context.Background(), Config{})
		if err != nil {
			b.Fatal(err)
		}
		_ = s.Close()
	}
}

// BenchmarkCallDatadog measures one forwarded call through the in-memory
// transport, raw capture included.
func BenchmarkCallDatadog(b *testing.B) {
	s, err := Start(context.Background(), Config{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	get := s.Tools("executor")[0]
	call := &tool.Call{Input: json.RawMessage(`{"id":4101266}`)}
	for b.Loop() {
		if _, err := get.Call(context.Background(), call); err != nil {
			b.Fatal(err)
		}
	}
}
