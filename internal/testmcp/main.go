// Command testmcp is a small stdio MCP server for agsh's end-to-end tests:
// its tools answer every kind of MCP content (text, image, audio, embedded
// text and blob resources, a resource link), a structuredContent that merely
// wraps the text, a next-page cursor, several text parts that make one JSON
// value, an isError result with an image; they declare an indented
// (template-literal) description, a `target` property (and session, team and
// continuation_token ones), a union property, a long enum, a JSON-valued
// array of objects and the destructive, idempotent and open-world
// annotations, and a JSON-RPC error for a call. Tests build it with `go build` and serve it through
// agsh-devserver --mcp.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"log"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	if len(os.Args) > 2 && os.Args[1] == "-gate" {
		for {
			if _, err := os.Stat(os.Args[2]); err == nil {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	srv := newServer()
	if err := srv.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}

// Items is what list_items pages through, two at a time.
var items = []map[string]any{
	{"id": 1, "name": "alpha"}, {"id": 2, "name": "beta"}, {"id": 3, "name": "gamma"},
	{"id": 4, "name": "delta"}, {"id": 5, "name": "epsilon"},
}

// PNG is a 2×2 image, AudioBytes a few bytes of a WAV header, BlobBytes
// binary content.
var (
	pngBytes   = makePNG()
	audioBytes = []byte("RIFF\x24\x00\x00\x00WAVEfmt ")
	blobBytes  = []byte{0, 1, 2, 3, 0xff, 0xfe}
)

func makePNG() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.RGBA{255, 0, 0, 255})
	img.Set(1, 1, color.RGBA{0, 0, 255, 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// createDirectoryDescription is an indented template with a notice
// interpolated at the left margin, as desktop-commander's inside a
// container.
const createDirectoryDescription = `
                        Create a new directory or ensure a directory exists.

                        IMPORTANT: Always use absolute paths for reliability. Paths are automatically normalized regardless of slash direction.

CONTAINER: Prefer paths within mounted directories: /mnt/data, /home/user.
When users ask about file locations, check these mounted paths first.
                        This command can be referenced as "DC: ..." in your instructions.`

// lintReport is one file's report, as a linter answers it.
const lintReport = `{"filePath":"/repo/%s","messages":[{"ruleId":"semi","severity":2,"message":"Missing semicolon.","line":%d}],"errorCount":1}`

// startProcessDescription is indented like a JavaScript template literal.
const startProcessDescription = `
                        Start a new process with a command. Prompt ids such as onboarding_prompt_id_0123456789abcdef stay whole on one line.

                        Use it for:
                        - long-running servers
                        - interactive shells

                        The answer is the process id.
                        `

func newServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "testmcp", Version: "1"}, nil)
	yes, no := true, false
	add := func(t *mcp.Tool, h func(args map[string]any) *mcp.CallToolResult) {
		if t.InputSchema == nil {
			t.InputSchema = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		srv.AddTool(t, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			args := map[string]any{}
			if len(req.Params.Arguments) > 0 {
				if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
					return errorText("arguments: " + err.Error()), nil
				}
			}
			return h(args), nil
		})
	}
	add(&mcp.Tool{Name: "kinds", Title: "Every content kind", Description: "Answers one part of every MCP content kind.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
		Icons:       []mcp.Icon{{Source: "https://example.com/kinds.png", MIMEType: "image/png", Sizes: []string{"48x48"}}},
		Meta:        mcp.Meta{"com.example/ui": map[string]any{"resourceUri": "ui://kinds/card"}}},
		func(map[string]any) *mcp.CallToolResult {
			size := int64(2048)
			return &mcp.CallToolResult{
				Content: []mcp.Content{
					&mcp.TextContent{Text: "Here is everything:"},
					&mcp.ImageContent{Data: pngBytes, MIMEType: "image/png"},
					&mcp.AudioContent{Data: audioBytes, MIMEType: "audio/wav"},
					&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///notes.txt", MIMEType: "text/plain", Text: "first note line\nsecond note line"}},
					&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///blob.bin", MIMEType: "application/octet-stream", Blob: blobBytes}},
					&mcp.ResourceLink{URI: "file:///build.log", Name: "build.log", Description: "The build log", MIMEType: "text/plain", Size: &size},
				},
				Meta: mcp.Meta{"served": "testmcp"},
			}
		})
	add(&mcp.Tool{Name: "read_text_file", Description: "Reads a text file (answers the text, wrapped again in structuredContent as server-filesystem does).",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(args map[string]any) *mcp.CallToolResult {
			text := fmt.Sprintf("contents of %v\nsecond line", args["path"])
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, StructuredContent: map[string]any{"content": text}}
		})
	add(&mcp.Tool{Name: "list_directory", Description: "Lists a directory as JSON text, wrapped again in structuredContent.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(map[string]any) *mcp.CallToolResult {
			text := `[{"name":"a.txt","size":12},{"name":"b.txt","size":34}]`
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, StructuredContent: map[string]any{"content": text}}
		})
	add(&mcp.Tool{Name: "read_media_file", Description: "Reads an image file: the image part, and the same part again in structuredContent.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(map[string]any) *mcp.CallToolResult {
			part := &mcp.ImageContent{Data: pngBytes, MIMEType: "image/png"}
			return &mcp.CallToolResult{Content: []mcp.Content{part}, StructuredContent: map[string]any{"content": []any{part}}}
		})
	add(&mcp.Tool{Name: "list_items", Description: "Lists items two at a time; _meta.nextCursor gives the next page to --cursor.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"filter":{"type":"string","description":"Only names containing this."},"cursor":{"type":"string","description":"Where the page starts."}}}`),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(args map[string]any) *mcp.CallToolResult {
			start := 0
			if c, _ := args["cursor"].(string); c != "" {
				n, err := strconv.Atoi(c)
				if err != nil {
					return errorText("bad cursor " + strconv.Quote(c))
				}
				start = n
			}
			end := min(start+2, len(items))
			page := items[min(start, len(items)):end]
			text, _ := json.Marshal(page)
			res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(text)}}}
			if end < len(items) {
				res.Meta = mcp.Meta{"nextCursor": strconv.Itoa(end)}
			}
			return res
		})
	add(&mcp.Tool{Name: "search", Description: "Searches; the answer holds the rows and next_cursor next to them. It takes no cursor flag.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"}}}`),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(map[string]any) *mcp.CallToolResult {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"rows":[{"id":1}],"next_cursor":"opaque token/2"}`}}}
		})
	add(&mcp.Tool{Name: "split_json", Description: "Answers one JSON array split across two text parts.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(map[string]any) *mcp.CallToolResult {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `[{"id":1,"name":"one"},`}, &mcp.TextContent{Text: `{"id":2,"name":"two"}]`}}}
		})
	add(&mcp.Tool{Name: "broken_image", Description: "Fails, with an image of the failure.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(map[string]any) *mcp.CallToolResult {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "rendering failed"}, &mcp.ImageContent{Data: pngBytes, MIMEType: "image/png"}}}
		})
	add(&mcp.Tool{Name: "start_process", Description: startProcessDescription,
		InputSchema: json.RawMessage(`{"type":"object","properties":{
			"command":{"type":"string","description":"\n      The command line to run.\n      "},
			"entities":{"type":"array","description":"Entities to create.","items":{"type":"object","required":["name","entityType","observations"],"properties":{"name":{"type":"string"},"entityType":{"type":"string"},"observations":{"type":"array","items":{"type":"string"}}}}},
			"region":{"type":"string","enum":["us-east-1","us-east-2","us-west-1","us-west-2","eu-west-1","eu-central-1","ap-south-1"]}
		},"required":["command"]}`)},
		func(args map[string]any) *mcp.CallToolResult { return echo(args) })
	add(&mcp.Tool{Name: "checkout", Description: "Checks out a branch, a tag or a commit.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"target":{"type":"string","description":"Branch, tag or commit to check out."},"force":{"type":"boolean"}},"required":["target"]}`)},
		func(args map[string]any) *mcp.CallToolResult { return echo(args) })
	add(&mcp.Tool{Name: "attach", Description: "Attaches a terminal to a session of a team.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"session":{"type":"string"},"team":{"type":"string"},"continuation_token":{"type":"string"}}}`)},
		func(args map[string]any) *mcp.CallToolResult { return echo(args) })
	add(&mcp.Tool{Name: "wipe", Description: "Deletes everything under a path.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`),
		Annotations: &mcp.ToolAnnotations{DestructiveHint: &yes, IdempotentHint: true, OpenWorldHint: &no}},
		func(args map[string]any) *mcp.CallToolResult { return echo(args) })
	add(&mcp.Tool{Name: "manage_repository_notification_subscription", Title: "Manage repository notification subscriptions",
		Description: "A long name with a title, for agsh help's name column.", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(args map[string]any) *mcp.CallToolResult { return echo(args) })
	add(&mcp.Tool{Name: "echo", Description: "Answers its arguments as JSON text.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"content":{"anyOf":[{"type":"string"},{"type":"array","items":{"type":"string"}}]},"count":{"type":"integer"}}}`),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(args map[string]any) *mcp.CallToolResult { return echo(args) })
	add(&mcp.Tool{Name: "lint", Description: "Lints files: a sentence, one JSON report per file, a sentence.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(map[string]any) *mcp.CallToolResult {
			return &mcp.CallToolResult{Content: []mcp.Content{
				&mcp.TextContent{Text: "Here are the results of the linter:"},
				&mcp.TextContent{Text: fmt.Sprintf(lintReport, "a.js", 1)},
				&mcp.TextContent{Text: fmt.Sprintf(lintReport, "b.js", 7)},
				&mcp.TextContent{Text: "Ask before fixing them."},
			}}
		})
	add(&mcp.Tool{Name: "quota", Description: "Fails with a text and a structured account of the failure.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(map[string]any) *mcp.CallToolResult {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "quota exceeded"}},
				StructuredContent: map[string]any{"used": 120, "limit": 100}}
		})
	add(&mcp.Tool{Name: "status", Description: "Fails with a text that already begins with Error:.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(map[string]any) *mcp.CallToolResult {
			return errorText("Error: Working directory does not exist: /nowhere")
		})
	add(&mcp.Tool{Name: "annotated", Description: "Answers a text for the user, with annotations and a _meta.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(map[string]any) *mcp.CallToolResult {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Operation failed",
				Annotations: &mcp.Annotations{Audience: []mcp.Role{"user"}, Priority: 1}}},
				Meta: mcp.Meta{"com.example/trace": "t-1"}}
		})
	add(&mcp.Tool{Name: "query", Description: "Runs a statement with parameters; answers them as received.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"sql":{"type":"string"},"values":{"type":"array","items":{"type":["string","number","boolean","null"]}}},"required":["sql"]}`),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(args map[string]any) *mcp.CallToolResult { return echo(args) })
	add(&mcp.Tool{Name: "write_cells", Description: "Writes cells of a sheet.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{
			"newSheet":{"type":"boolean","description":"Create a new sheet if true, otherwise write to the existing sheet"},
			"format":{"type":"string","enum":["h:mm A","YYYY-MM-DD HH:mm:ss","YYYY-MM-DD"],"default":"YYYY-MM-DD HH:mm:ss"},
			"mode":{"type":"string","oneOf":[{"const":"replace","title":"Replace the cells"},{"const":"append","title":"Append rows"}]}
		},"required":["newSheet"]}`),
		Annotations: &mcp.ToolAnnotations{DestructiveHint: &yes}},
		func(args map[string]any) *mcp.CallToolResult { return echo(args) })
	add(&mcp.Tool{Name: "create_directory", Description: createDirectoryDescription,
		InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)},
		func(args map[string]any) *mcp.CallToolResult { return echo(args) })
	add(&mcp.Tool{Name: "wrapup", Description: "Answers instructions whose lines are long.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(map[string]any) *mcp.CallToolResult {
			long := strings.Repeat("Before touching git, read the project and its conventions. ", 6)
			b, _ := json.Marshal(map[string]any{"instructions": "# Wrap-up\n\n" + strings.TrimSpace(long) + "\nDone."})
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}
		})
	// A knowledge-graph server's refusal: a JSON-RPC error, not a result.
	srv.AddTool(&mcp.Tool{Name: "open_relation", Description: "Fails with a JSON-RPC error, as a knowledge-graph server refuses an unknown relation.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{}}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Relation not found"}
		})
	return srv
}

// echo answers the arguments as one JSON text part.
func echo(args map[string]any) *mcp.CallToolResult {
	b, _ := json.Marshal(args)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}
}

func errorText(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}}}
}
