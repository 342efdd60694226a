package mcpconn

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agsh-dev/agsh/internal/devserver/tool"
	"github.com/agsh-dev/agsh/internal/wire"
)

// maxListPages bounds the tools/list pages read from one server, so a server
// that keeps answering a cursor cannot hold startup forever.
const maxListPages = 1000

// conn is one connection: an MCP client session and the tools it lists.
type conn struct {
	name    string // the connection name (Source.Connection)
	session *mcp.ClientSession
	// nameOf maps an MCP tool name to its connector ("" when none is
	// declared) and the tool name the advertised name is built from.
	nameOf func(mcpName string) (connector, toolName string)
	// schemasOf, when set, answers the schemas to serve instead of the
	// listed ones (nil keeps the listed one): the echo tools serve their
	// files' bytes.
	schemasOf func(mcpName string) (input, output json.RawMessage)
	// annotationsOf, when set, answers the annotations to serve instead of
	// the listed ones (nil keeps the listed ones): the SDK's server writes
	// readOnlyHint and idempotentHint even when false, so the echo tools
	// serve their files' annotations.
	annotationsOf func(mcpName string) json.RawMessage
	// approvalOf, when set, answers whether a tool needs approval (the
	// echo tools' files may say so; MCP has no such declaration).
	approvalOf func(mcpName string) bool
	// cleanup releases what the session runs on (an in-process server
	// session, a child process); it runs after the client session closes.
	cleanup func() error
	pid     int             // the server's process id, 0 when it runs in-process
	capture *captureConn    // the client's capturing connection
	stderr  *tailBuffer     // the tail of a stdio server's standard error
	exited  <-chan struct{} // closed when a stdio server's process is reaped

	// Restarting a connection that died (restart.go). mu guards session,
	// capture, pid, cleanup, stderr and the fields below.
	mu      sync.Mutex
	logf    func(string, ...any)
	restart func(ctx context.Context) (*conn, error) // nil: cannot be restarted
	dead    bool
	deadWhy string
	closed  bool
	nextTry time.Time
	backoff time.Duration // the wait after the next failed restart
	minWait time.Duration // backoff's first value
}

// clientImpl is how the development deployment introduces itself.
var clientImpl = &mcp.Implementation{Name: "agsh-devserver", Version: "dev"}

// dial makes an MCP client session over t, capturing raw results.
func dial(ctx context.Context, t mcp.Transport) (*mcp.ClientSession, *captureConn, error) {
	client := mcp.NewClient(clientImpl, nil)
	ct := &captureTransport{inner: t}
	cs, err := client.Connect(ctx, ct, nil)
	return cs, ct.conn, err
}

// listedTool is one tool of a tools/list answer, decoded from the raw bytes.
type listedTool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
	Annotations  json.RawMessage `json:"annotations"`
	Execution    json.RawMessage `json:"execution"` // read by needsTasks
	Icons        json.RawMessage `json:"icons"`     // passed through to the detail
	Meta         json.RawMessage `json:"_meta"`     // passed through to the detail
}

// needsTasks reports whether the tool declares execution.taskSupport
// "required" (a malformed execution object counts as no declaration).
func (lt listedTool) needsTasks() bool {
	var e struct {
		TaskSupport string `json:"taskSupport"`
	}
	return len(lt.Execution) > 0 && json.Unmarshal(lt.Execution, &e) == nil && e.TaskSupport == "required"
}

// listPage is a tools/list result with each tool kept raw.
type listPage struct {
	Tools      []json.RawMessage `json:"tools"`
	NextCursor string            `json:"nextCursor"`
}

// listTools reads every page of the server's tools/list, keeping each tool's
// schemas as the server sent them. Tools the SDK drops as invalid are
// dropped too.
func (c *conn) listTools(ctx context.Context) ([]listedTool, error) {
	var out []listedTool
	seen := map[string]bool{}
	cursor := ""
	for range maxListPages {
		slot := &rawSlot{}
		res, err := c.session.ListTools(withSlot(ctx, slot), &mcp.ListToolsParams{Cursor: cursor})
		slot.release()
		raw := slot.bytes()
		if err != nil && raw == nil {
			return nil, fmt.Errorf("listing tools: %w", err)
		}
		// valid holds the tools the SDK keeps; nil (the SDK could not
		// decode the page, a number beyond float64, say) keeps them all.
		var valid map[string]bool
		if err == nil {
			valid = make(map[string]bool, len(res.Tools))
			for _, t := range res.Tools {
				valid[t.Name] = true
			}
		}
		page, err := rawPage(raw, res)
		if err != nil {
			return nil, fmt.Errorf("listing tools: %w", err)
		}
		for _, raw := range page.Tools {
			var lt listedTool
			if err := json.Unmarshal(raw, &lt); err != nil || lt.Name == "" || (valid != nil && !valid[lt.Name]) || seen[lt.Name] {
				continue
			}
			seen[lt.Name] = true
			out = append(out, lt)
		}
		if page.NextCursor == "" || page.NextCursor == cursor {
			return out, nil
		}
		cursor = page.NextCursor
	}
	return nil, fmt.Errorf("listing tools: more than %d pages", maxListPages)
}

// rawPage decodes the captured tools/list bytes; when nothing was captured
// (a result served from the SDK's cache) it falls back to re-encoding the
// decoded result, which keeps everything but property order.
func rawPage(raw []byte, res *mcp.ListToolsResult) (listPage, error) {
	var page listPage
	if raw == nil {
		var err error
		if raw, err = json.Marshal(res); err != nil {
			return page, err
		}
	}
	if err := json.Unmarshal(raw, &page); err != nil {
		return page, fmt.Errorf("malformed tools/list result: %w", err)
	}
	return page, nil
}

// makeTool turns a listed MCP tool into the deployment's tool.
func (c *conn) makeTool(lt listedTool) *tool.Tool {
	connector, toolName := "", lt.Name
	if c.nameOf != nil {
		connector, toolName = c.nameOf(lt.Name)
	}
	t := &tool.Tool{
		Name:         AdvertisedName(c.name, connector, toolName),
		Title:        lt.Title,
		Description:  lt.Description,
		InputSchema:  nonNull(lt.InputSchema),
		OutputSchema: nonNull(lt.OutputSchema),
		Icons:        nonNull(lt.Icons),
		Meta:         nonNull(lt.Meta),
		Source:       wire.Source{Kind: "connection", Connection: c.name, Connector: connector},
		Call:         c.caller(lt.Name),
	}
	if c.schemasOf != nil {
		in, out := c.schemasOf(lt.Name)
		if in != nil {
			t.InputSchema = in
		}
		if out != nil {
			t.OutputSchema = out
		}
	}
	annotations := nonNull(lt.Annotations)
	if c.annotationsOf != nil {
		if a := c.annotationsOf(lt.Name); a != nil {
			annotations = a
		}
	}
	if len(annotations) > 0 {
		var a wire.Annotations
		if json.Unmarshal(annotations, &a) == nil {
			t.Annotations = &a
		}
	}
	if t.Title == "" && t.Annotations != nil {
		t.Title = t.Annotations.Title
	}
	if c.approvalOf != nil {
		t.NeedsApproval = c.approvalOf(lt.Name)
	}
	return t
}

// tools lists the connection's tools and makes the deployment's tools of
// them.
func (c *conn) tools(ctx context.Context, names *nameSet) ([]*tool.Tool, error) {
	listed, err := c.listTools(ctx)
	if err != nil {
		return nil, err
	}
	return c.makeTools(listed, names), nil
}

// makeTools makes the deployment's tools of listed MCP tools, in the order
// the server listed them, leaving out names already taken.
func (c *conn) makeTools(listed []listedTool, names *nameSet) []*tool.Tool {
	out := make([]*tool.Tool, 0, len(listed))
	for _, lt := range listed {
		if lt.needsTasks() {
			// Such a tool can only be called as an MCP task, which this
			// client does not speak: advertised, every call would fail
			// with -32601.
			names.logf("mcp %s: tool %q is left out: it requires MCP tasks (execution.taskSupport \"required\"), which agsh-devserver does not run", c.name, lt.Name)
			continue
		}
		t := c.makeTool(lt)
		if t.Name == "" || !names.claim(t, lt.Name) {
			continue
		}
		out = append(out, t)
	}
	return out
}

// nonNull returns nil for an absent or null JSON value, else b.
func nonNull(b json.RawMessage) json.RawMessage {
	if t := bytes.TrimSpace(b); len(t) == 0 || bytes.Equal(t, []byte("null")) {
		return nil
	}
	return b
}

// caller forwards a call of the MCP tool mcpName and answers the raw MCP
// result (content, structuredContent, isError).
func (c *conn) caller(mcpName string) func(context.Context, *tool.Call) (tool.Result, error) {
	return func(ctx context.Context, call *tool.Call) (tool.Result, error) {
		input := bytes.TrimSpace(call.Input)
		if len(input) == 0 || bytes.Equal(input, []byte("null")) {
			input = []byte("{}")
		}
		if !json.Valid(input) {
			return tool.Result{}, &tool.InputError{Issues: []wire.Issue{{Path: []any{}, Message: "input is not valid JSON"}}}
		}
		if input[0] != '{' {
			return tool.Result{}, &tool.InputError{Issues: []wire.Issue{{Path: []any{}, Message: "input must be a JSON object"}}}
		}
		session, err := c.live(ctx)
		if err != nil {
			return tool.Result{}, err
		}
		slot := &rawSlot{}
		res, err := session.CallTool(withSlot(ctx, slot), &mcp.CallToolParams{Name: mcpName, Arguments: json.RawMessage(input)})
		slot.release()
		if raw := slot.bytes(); raw != nil && (err == nil || ctx.Err() == nil) {
			// The server answered a result. It is served as sent even when
			// the SDK could not decode it (a number beyond float64, say),
			// but not to a caller that gave up: a result that raced the
			// cancellation in is dropped with the call.
			var flag struct {
				IsError bool `json:"isError"`
			}
			_ = json.Unmarshal(raw, &flag)
			return tool.Result{Value: raw, IsError: flag.IsError}, nil
		}
		if err != nil {
			if ctx.Err() == nil && c.ended(session, err) {
				return tool.Result{}, c.failedDuringCall(session, err)
			}
			if errors.Is(err, mcp.ErrConnectionClosed) {
				return tool.Result{}, fmt.Errorf("connection %s is closed: %v", c.name, err)
			}
			var we *jsonrpc.Error
			if errors.As(err, &we) {
				return c.serverError(mcpName, we), nil
			}
			return tool.Result{}, fmt.Errorf("connection %s: %v", c.name, err)
		}
		raw, err := json.Marshal(res)
		if err != nil {
			return tool.Result{}, fmt.Errorf("connection %s: encoding the result: %v", c.name, err)
		}
		return tool.Result{Value: raw, IsError: res.IsError}, nil
	}
}

// serverError is the result of a call the MCP server refused with a
// JSON-RPC error (docs/devserver.md#connection-tools-through-mcp): its own message alone as
// the text, as the user should read it ("Relation not found"), and the
// plumbing (the connection, the MCP tool, the JSON-RPC code and data) in
// the result's structuredContent and in the log.
func (c *conn) serverError(mcpName string, we *jsonrpc.Error) tool.Result {
	msg := strings.TrimSpace(we.Message)
	if msg == "" {
		msg = fmt.Sprintf("the MCP server refused the call (JSON-RPC error %d) without a message", we.Code)
	}
	if c.logf != nil {
		c.logf("mcp %s: tool %q answered JSON-RPC error %d: %s", c.name, mcpName, we.Code, msg)
	}
	type detail struct {
		Connection  string          `json:"connection"`
		Tool        string          `json:"tool"`
		JSONRPCCode int64           `json:"jsonrpcCode"`
		Data        json.RawMessage `json:"data,omitempty"`
	}
	type part struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	d := detail{Connection: c.name, Tool: mcpName, JSONRPCCode: we.Code}
	if data := nonNull(we.Data); data != nil && json.Valid(data) {
		d.Data = data
	}
	raw, err := json.Marshal(struct {
		Content           []part `json:"content"`
		StructuredContent detail `json:"structuredContent"`
		IsError           bool   `json:"isError"`
	}{[]part{{"text", msg}}, d, true})
	if err != nil {
		return tool.ErrorText(msg)
	}
	return tool.Result{Value: raw, IsError: true}
}

// closeGrace is how long close lets calls in flight finish before it ends
// what the session runs on (which fails them).
const closeGrace = 2 * time.Second

// close ends the client session, then releases what it ran on. The SDK's
// session close waits for calls in flight; when they outlast closeGrace (a
// server that never answers), the process is killed or the in-process
// server closed first, which fails them and lets the session close.
func (c *conn) close() error {
	c.mu.Lock()
	c.closed = true
	session, cleanup := c.session, c.cleanup
	c.mu.Unlock()
	done := make(chan error, 1)
	go func() { done <- session.Close() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(closeGrace):
		if cleanup != nil {
			_ = cleanup()
		}
		select {
		case err = <-done:
		case <-time.After(closeGrace):
			err = fmt.Errorf("connection %s: the session did not close", c.name)
		}
	}
	if cleanup != nil {
		err = errors.Join(err, cleanup())
	}
	return err
}
