package mcpconn

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// startEcho loads the --echo-tools definitions and serves them from one
// in-process MCP server under the connection "echo". The MCP name of a tool
// is "<connector>.<name>"; its advertised name is built from the connector
// and the file's name, and it serves the file's schemas byte for byte.
func startEcho(ctx context.Context, paths []string, logf func(string, ...any)) (*conn, error) {
	defs := loadEcho(paths, logf)
	srv := mcp.NewServer(&mcp.Implementation{Name: "echo", Title: "Echo tools (development)", Version: "dev"}, nil)
	byMCPName := make(map[string]*echoDef, len(defs))
	for i := range defs {
		d := &defs[i]
		mcpName := d.connector + "." + d.name
		if prev, ok := byMCPName[mcpName]; ok {
			logf("mcp echo: %s: tool %q of connector %s is already defined by %s; skipped", d.file, d.name, d.connector, prev.file)
			continue
		}
		if err := addEchoTool(srv, mcpName, d); err != nil {
			logf("mcp echo: %s: tool %q: %v; skipped", d.file, d.name, err)
			continue
		}
		byMCPName[mcpName] = d
	}
	c, err := inProcess(ctx, echoConnection, srv)
	if err != nil {
		return nil, err
	}
	c.nameOf = func(mcpName string) (string, string) {
		if d, ok := byMCPName[mcpName]; ok {
			return d.connector, d.name
		}
		return "", mcpName
	}
	c.schemasOf = func(mcpName string) (json.RawMessage, json.RawMessage) {
		if d, ok := byMCPName[mcpName]; ok {
			return d.inputSchema, d.outputSchema
		}
		return nil, nil
	}
	c.approvalOf = func(mcpName string) bool {
		d, ok := byMCPName[mcpName]
		return ok && d.needsApproval
	}
	c.annotationsOf = func(mcpName string) json.RawMessage {
		if d, ok := byMCPName[mcpName]; ok {
			return d.annotations
		}
		return nil
	}
	return c, nil
}

// addEchoTool registers one echo tool, turning the SDK's panics on a
// definition it refuses into an error.
func addEchoTool(srv *mcp.Server, mcpName string, d *echoDef) (err error) {
	t := &mcp.Tool{
		Name:        mcpName,
		Title:       d.title,
		Description: d.description,
		InputSchema: d.sdkSchema,
	}
	if d.outputSchema != nil {
		t.OutputSchema = d.outputSchema
	}
	if d.annotations != nil {
		var a mcp.ToolAnnotations
		if json.Unmarshal(d.annotations, &a) != nil {
			return fmt.Errorf("annotations are malformed")
		}
		t.Annotations = &a
	}
	if d.meta != nil {
		var m mcp.Meta
		if json.Unmarshal(d.meta, &m) == nil {
			t.Meta = m
		}
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("refused by the MCP SDK: %v", r)
		}
	}()
	srv.AddTool(t, echoHandler)
	return nil
}

// echoHandler answers the arguments it received, byte for byte, as
// structured content and as the text of a text part.
func echoHandler(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args := bytes.TrimSpace(req.Params.Arguments)
	if len(args) == 0 || bytes.Equal(args, []byte("null")) {
		args = []byte("{}")
	}
	if args[0] != '{' {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "the arguments must be a JSON object"}}}, nil
	}
	args = bytes.Clone(args)
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(args)}},
		StructuredContent: json.RawMessage(args),
	}, nil
}
