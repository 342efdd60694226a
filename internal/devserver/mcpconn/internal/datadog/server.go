package datadog

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agsh-dev/agsh/internal/jsontext"
)

// DefaultPageSize is list_monitors' page size when none is given.
const DefaultPageSize = 20

// NewServer returns an MCP server whose tools work on store:
// list_monitors and get_monitor (read-only) and mute_monitor (a write).
func NewServer(store *Store) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "datadog", Title: "Datadog (development)", Version: "dev"}, nil)
	h := handlers{store: store}
	no := false
	srv.AddTool(&mcp.Tool{
		Name:        "list_monitors",
		Title:       "List monitors",
		Description: "List Datadog monitors in id order, filtered by text, tags and state. Answers a JSON array of monitors; when more match, the result's _meta.nextCursor (the last id shown) passed as page.cursor gives the next page.",
		InputSchema: json.RawMessage(listMonitorsSchema),
		Annotations: &mcp.ToolAnnotations{Title: "List monitors", ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &no},
	}, h.list)
	srv.AddTool(&mcp.Tool{
		Name:         "get_monitor",
		Title:        "Get monitor",
		Description:  "Get one Datadog monitor by id: its state, query, tags and mute.",
		InputSchema:  json.RawMessage(getMonitorSchema),
		OutputSchema: json.RawMessage(monitorSchema),
		Annotations:  &mcp.ToolAnnotations{Title: "Get monitor", ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &no},
	}, h.get)
	srv.AddTool(&mcp.Tool{
		Name:         "mute_monitor",
		Title:        "Mute monitor",
		Description:  "Mute a Datadog monitor until an end time (or with no end), silencing its notifications. Answers the monitor as it now is.",
		InputSchema:  json.RawMessage(muteMonitorSchema),
		OutputSchema: json.RawMessage(monitorSchema),
		Annotations:  &mcp.ToolAnnotations{Title: "Mute monitor", DestructiveHint: &no, IdempotentHint: true, OpenWorldHint: &no},
	}, h.mute)
	return srv
}

// handlers are the tool bodies.
type handlers struct {
	store *Store
}

func (h handlers) list(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a, err := parseArgs(req.Params.Arguments, "query", "tags", "status", "page")
	if err != nil {
		return errorResult(err), nil
	}
	var f Filter
	var page args
	var cursor string
	size := int64(DefaultPageSize)
	if f.Query, _, err = a.str("query"); err == nil {
		if f.Tags, _, err = a.strs("tags"); err == nil {
			if f.Status, _, err = a.str("status"); err == nil {
				page, _, err = a.object("page", "size", "cursor")
			}
		}
	}
	if err == nil && f.Status != "" && !validStatus(f.Status) {
		err = fmt.Errorf("status: %q is not one of OK, Alert, Warn, No Data", f.Status)
	}
	if err == nil && page != nil {
		var ok bool
		if size, ok, err = page.integer("page.size", "size"); err == nil && !ok {
			size = DefaultPageSize
		}
		if err == nil && (size < 1 || size > 100) {
			err = fmt.Errorf("page.size: %d is out of range 1..100", size)
		}
		if err == nil {
			cursor, _, err = page.str("cursor")
		}
	}
	if err != nil {
		return errorResult(err), nil
	}
	var after int64
	if cursor != "" {
		after, err = strconv.ParseInt(cursor, 10, 64)
		if err != nil || after < 0 {
			return errorResult(fmt.Errorf("page.cursor: %q is not a cursor of list_monitors (the id of the last monitor of a page)", cursor)), nil
		}
	}
	monitors, next := h.store.List(f, after, int(size))
	text, err := marshal(monitors)
	if err != nil {
		return nil, err
	}
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(text)}}}
	if next != "" {
		res.Meta = mcp.Meta{"nextCursor": next}
	}
	return res, nil
}

func (h handlers) get(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a, err := parseArgs(req.Params.Arguments, "id")
	if err != nil {
		return errorResult(err), nil
	}
	id, err := a.required("id")
	if err != nil {
		return errorResult(err), nil
	}
	m, err := h.store.Get(id)
	if err != nil {
		return errorResult(err), nil
	}
	return monitorResult(m)
}

func (h handlers) mute(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a, err := parseArgs(req.Params.Arguments, "id", "end")
	if err != nil {
		return errorResult(err), nil
	}
	id, err := a.required("id")
	if err != nil {
		return errorResult(err), nil
	}
	endText, _, err := a.str("end")
	if err != nil {
		return errorResult(err), nil
	}
	var end time.Time
	if endText != "" {
		if end, err = time.Parse(time.RFC3339, endText); err != nil {
			return errorResult(fmt.Errorf("end: %q is not an RFC 3339 time such as 2026-12-01T09:00:00Z", endText)), nil
		}
	}
	m, err := h.store.Mute(id, end)
	if err != nil {
		return errorResult(err), nil
	}
	return monitorResult(m)
}

// monitorResult answers a monitor as structured content and as JSON text.
func monitorResult(m Monitor) (*mcp.CallToolResult, error) {
	b, err := marshal(m)
	if err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(b)}},
		StructuredContent: json.RawMessage(b),
	}, nil
}

// errorResult is a tool error the caller sees (isError: true).
func errorResult(err error) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}
}

// marshal encodes v as compact JSON without escaping <, > and &, so that
// the text parts read as plainly as the queries they quote.
func marshal(v any) ([]byte, error) {
	return jsontext.Marshal(v)
}

func validStatus(s string) bool {
	for _, v := range Statuses {
		if v == s {
			return true
		}
	}
	return false
}
