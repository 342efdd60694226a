// Command stdioserver is a small MCP server over stdio, built and run by
// package mcpconn's tests as an --mcp server. Its tools have schemas whose
// property order and number spelling a client must keep, it lists them two
// per page, and:
//
//	echo_raw  answers its arguments byte for byte (structured and as text)
//	fail      answers an MCP error result
//	whoami    answers the process's arguments as text (read-only)
//	note      is titled only through its annotations
//	wait      answers only when its call is cancelled (or after a minute)
//
// With -exit it writes a line to standard error and exits 3 before speaking
// MCP, for the start-failure test. With -gate FILE (first) it waits until
// FILE exists before anything else, for the tests of a server slower than
// the start timeout. Its whoami tool declares icons and a _meta. With -raw it is a hand-written server
// whose standard output the tests control (raw.go).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Schemas written out of alphabetical order, with a decimal default, a big
// integer bound and characters HTML escaping would touch.
const (
	echoSchema = `{"type":"object","properties":{"zeta":{"type":"string","description":"last <first>"},"alpha":{"type":"number","default":1.50},"big":{"type":"integer","maximum":12345678901234567890},"mid":{"type":"object","properties":{"y":{"type":"boolean"},"x":{"type":"string"}}}},"required":["zeta"]}`
	failSchema = `{"type":"object","properties":{"reason":{"type":"string"}}}`
	noteSchema = `{"type":"object","properties":{"text":{"type":"string"},"pinned":{"type":"boolean"}}}`
	whoSchema  = `{"type":"object"}`
	outSchema  = `{"type":"object","properties":{"zeta":{"type":"string"}}}`
)

func main() {
	if len(os.Args) > 2 && os.Args[1] == "-gate" {
		for {
			if _, err := os.Stat(os.Args[2]); err == nil {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		os.Args = append(os.Args[:1], os.Args[3:]...)
	}
	if len(os.Args) > 1 && os.Args[1] == "-raw" {
		runRaw(os.Args[2:])
		return
	}
	if len(os.Args) > 1 && os.Args[1] == "-exit" {
		fmt.Fprintln(os.Stderr, "stdioserver: told to exit before serving")
		os.Exit(3)
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "stdioserver", Version: "test"}, &mcp.ServerOptions{PageSize: 2})
	srv.AddTool(&mcp.Tool{Name: "echo_raw", Title: "Echo raw", Description: "Answers its arguments.", InputSchema: json.RawMessage(echoSchema), OutputSchema: json.RawMessage(outSchema)}, echo)
	srv.AddTool(&mcp.Tool{Name: "fail", Description: "Always fails.", InputSchema: json.RawMessage(failSchema)}, fail)
	srv.AddTool(&mcp.Tool{Name: "note", InputSchema: json.RawMessage(noteSchema), Annotations: &mcp.ToolAnnotations{Title: "Take a note"}}, echo)
	srv.AddTool(&mcp.Tool{Name: "wait", InputSchema: json.RawMessage(whoSchema)}, wait)
	srv.AddTool(&mcp.Tool{Name: "whoami", Title: "Who am I", InputSchema: json.RawMessage(whoSchema), Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
		Icons: []mcp.Icon{{Source: "https://example.com/whoami.png", MIMEType: "image/png", Sizes: []string{"48x48"}}},
		Meta:  mcp.Meta{"com.example/ui": map[string]any{"resourceUri": "ui://whoami/card"}}}, whoami)
	if err := srv.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "stdioserver:", err)
		os.Exit(1)
	}
}

func echo(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args := json.RawMessage(append([]byte(nil), req.Params.Arguments...))
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(args)}}, StructuredContent: args}, nil
}

func fail(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var in struct{ Reason string }
	_ = json.Unmarshal(req.Params.Arguments, &in)
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "failed: " + in.Reason}}}, nil
}

func wait(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	select {
	case <-ctx.Done():
	case <-time.After(time.Minute):
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "waited"}}}, nil
}

func whoami(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Join(os.Args[1:], " ")}}}, nil
}
