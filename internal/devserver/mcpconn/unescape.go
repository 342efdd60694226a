package mcpconn

import (
	"bytes"
	"context"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The SDK's server encodes tool results with encoding/json's default HTML
// escaping, so an echo of "<a & b>" would come back as "\u003ca \u0026
// b\u003e": the same JSON value in other bytes. The in-process servers'
// transport undoes that escaping in the results they write, so that an
// echo answers the very bytes it received.

// plainTransport wraps the server end of an in-process connection.
type plainTransport struct {
	inner mcp.Transport
}

// Connect implements mcp.Transport.
func (t *plainTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &plainConn{Connection: c}, nil
}

// plainConn unescapes the results of the responses it writes.
type plainConn struct {
	mcp.Connection
}

// Write implements mcp.Connection.
func (c *plainConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if resp, ok := msg.(*jsonrpc.Response); ok && resp.Error == nil && bytes.Contains(resp.Result, []byte(`\u`)) {
		plain := *resp
		plain.Result = unescapeHTML(resp.Result)
		msg = &plain
	}
	return c.Connection.Write(ctx, msg)
}

// unescapeHTML turns the escapes \u003c, \u003e, \u0026, \u2028 and \u2029
// inside the JSON strings of b back into the characters, leaving every
// other byte as it is. b must be valid JSON; the value is unchanged.
func unescapeHTML(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '\\' || i+1 >= len(b) {
			out = append(out, c)
			continue
		}
		if b[i+1] != 'u' || i+6 > len(b) {
			out = append(out, c, b[i+1]) // a two-byte escape, \\ included
			i++
			continue
		}
		switch string(bytes.ToLower(b[i+2 : i+6])) {
		case "003c":
			out = append(out, '<')
		case "003e":
			out = append(out, '>')
		case "0026":
			out = append(out, '&')
		case "2028":
			out = append(out, "\u2028"...)
		case "2029":
			out = append(out, "\u2029"...)
		default:
			out = append(out, b[i:i+6]...)
		}
		i += 5
	}
	return out
}
