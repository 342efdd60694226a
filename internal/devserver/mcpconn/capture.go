package mcpconn

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The SDK's client decodes every result into Go values (schemas into maps,
// losing property order; numbers into float64). To serve schemas and results
// byte for byte, the client's transport is wrapped: a request made with a
// context carrying a *rawSlot registers its JSON-RPC id when it is written,
// and the matching response's raw result bytes are put into the slot when it
// is read, before the SDK decodes them. The read happens before the SDK
// returns to the caller, so the slot is filled when ListTools or CallTool
// returns.

// rawSlot receives the raw result of the request made with its context.
type rawSlot struct {
	mu   sync.Mutex
	raw  []byte
	conn *captureConn // where its requests are registered
	ids  []jsonrpc.ID // the ids registered for it
}

// set stores a copy of the result bytes; the last response wins (a call the
// SDK repeats within one request keeps its final answer).
func (s *rawSlot) set(b []byte) {
	s.mu.Lock()
	s.raw = append([]byte(nil), b...)
	s.mu.Unlock()
}

// bytes returns the captured result, nil when none arrived.
func (s *rawSlot) bytes() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.raw
}

type slotKey struct{}

// release forgets the slot's requests still awaiting an answer (a call
// cancelled before its response arrived), so that they do not pile up.
func (s *rawSlot) release() {
	s.mu.Lock()
	c, ids := s.conn, s.ids
	s.conn, s.ids = nil, nil
	s.mu.Unlock()
	if c == nil {
		return
	}
	c.mu.Lock()
	for _, id := range ids {
		if c.pending[id] == s {
			delete(c.pending, id)
		}
	}
	c.mu.Unlock()
}

// withSlot returns a context whose requests deliver their raw result to s.
func withSlot(ctx context.Context, s *rawSlot) context.Context {
	return context.WithValue(ctx, slotKey{}, s)
}

// captureTransport wraps a transport so that its connection records raw
// results for requests made with withSlot.
type captureTransport struct {
	inner mcp.Transport
	conn  *captureConn // set by Connect
}

// Connect implements mcp.Transport.
func (t *captureTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	t.conn = &captureConn{Connection: c, pending: make(map[jsonrpc.ID]*rawSlot)}
	return t.conn, nil
}

// captureConn is the connection of a captureTransport.
type captureConn struct {
	// pending maps the id of a call awaiting its response to its slot.
	mcp.Connection
	mu      sync.Mutex
	pending map[jsonrpc.ID]*rawSlot
}

// Write registers the slot of an outgoing call, then writes it.
func (c *captureConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
		if s, ok := ctx.Value(slotKey{}).(*rawSlot); ok && s != nil {
			s.mu.Lock()
			s.conn, s.ids = c, append(s.ids, req.ID)
			s.mu.Unlock()
			c.mu.Lock()
			c.pending[req.ID] = s
			c.mu.Unlock()
		}
	}
	err := c.Connection.Write(ctx, msg)
	if err != nil {
		if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
			c.mu.Lock()
			delete(c.pending, req.ID)
			c.mu.Unlock()
		}
	}
	return err
}

// Read reads the next message and fills the slot of a response it answers.
func (c *captureConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if resp, ok := msg.(*jsonrpc.Response); ok && err == nil {
		c.mu.Lock()
		s := c.pending[resp.ID]
		delete(c.pending, resp.ID)
		c.mu.Unlock()
		if s != nil && resp.Error == nil {
			s.set(resp.Result)
		}
	}
	return msg, err
}
