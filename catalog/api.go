package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// Info fetches the agent document (GET /v1/info): name, description and
// the tools' effects.
func (c *Client) Info(ctx context.Context) (*Info, error) {
	var a infoAnswer
	if err := c.do(ctx, &request{method: http.MethodGet, root: c.base, path: pathInfo, probe: true}, &a); err != nil {
		return nil, err
	}
	a.Info.OK = true
	return &a.Info, nil
}

// Tools fetches the live tool listing (GET /v1/tools) under binding b.
func (c *Client) Tools(ctx context.Context, b Binding) ([]ToolEntry, error) {
	l, err := c.Listing(ctx, b)
	return l.Tools, err
}

// Listing fetches the listing (GET /v1/tools) under binding b: the tools,
// as Tools answers them, and the connections still starting (Starting,
// nil when none: docs/wire.md#the-tool-listing).
func (c *Client) Listing(ctx context.Context, b Binding) (ToolsResponse, error) {
	r := &request{method: http.MethodGet, root: c.base, path: pathTools, query: b.query(),
		session: b.SessionID, probe: true}
	var a toolsAnswer
	if err := c.do(ctx, r, &a, essentialTools); err != nil {
		return ToolsResponse{}, err
	}
	if a.Tools == nil {
		return ToolsResponse{}, c.missing(r, essentialTools)
	}
	// An entry without a name names no command (agsh never makes one up):
	// it is left out rather than listed as a blank row.
	// In place: the answer's slice is not shared.
	a.Tools = slices.DeleteFunc(a.Tools, func(t ToolEntry) bool { return t.Name == "" })
	a.Starting = slices.DeleteFunc(a.Starting, func(s string) bool { return s == "" })
	return a.ToolsResponse, nil
}

// Tool fetches one tool's full description (GET /v1/tools/{name}) under
// binding b; name is path-escaped.
func (c *Client) Tool(ctx context.Context, name string, b Binding) (*ToolDetail, error) {
	if name == "" {
		return nil, usageError("no tool name given")
	}
	r := &request{method: http.MethodGet, root: c.base, path: toolPath(name), query: b.query(),
		tool: name, session: b.SessionID, probe: true}
	var a toolAnswer
	if err := c.do(ctx, r, &a, essentialTool, essentialToolName); err != nil {
		return nil, err
	}
	if a.Tool.Name == "" {
		return nil, c.missing(r, essentialTool)
	}
	return &a.Tool, nil
}

// Sessions lists the caller's sessions (GET /v1/sessions). A deployment
// without the route answers an *Error with code no_sessions_route (exit 5).
func (c *Client) Sessions(ctx context.Context) ([]Session, error) {
	r := &request{method: http.MethodGet, root: c.base, path: pathSessions, sessions: true}
	var a sessionsAnswer
	if err := c.do(ctx, r, &a, essentialSessions); err != nil {
		return nil, err
	}
	if a.Sessions == nil {
		return nil, c.missing(r, essentialSessions)
	}
	return a.Sessions, nil
}

// Call invokes a tool (POST /v1/tools/{name}) with input (nil: {}) under
// binding b. It is never retried and has no time limit; cancelling ctx
// aborts it at once (exit 130, "may still complete on the deployment").
// A tool that ran and reported an error is a result with IsError, not an
// error.
func (c *Client) Call(ctx context.Context, name string, input json.RawMessage, b Binding) (*CallResult, error) {
	return c.CallStream(ctx, name, input, b, nil)
}

// CallStream is Call, with the result streamed to the writer stream gives
// when the answer allows it (see StreamFunc): "ok": true and "isError":
// false arrive before a "result" that is a JSON string. The result is then
// marked Streamed, and an error after the stream began still returns one.
// stream nil never streams.
func (c *Client) CallStream(ctx context.Context, name string, input json.RawMessage, b Binding, stream StreamFunc) (*CallResult, error) {
	if name == "" {
		return nil, usageError("no tool name given")
	}
	if err := b.check(); err != nil {
		return nil, err
	}
	r, err := c.callRequest(name, input, b)
	if err != nil {
		return nil, err
	}
	r.stream = stream
	r.rows = ctx.Value(rowsKey{}) != nil
	var a callAnswer
	if err := c.do(ctx, r, &a, essentialIsError); err != nil {
		if a.Streamed {
			return &a.CallResult, err
		}
		return nil, err
	}
	a.CallResult.OK = true
	return &a.CallResult, nil
}

// callRequest is the request of a call of name with input under b.
func (c *Client) callRequest(name string, input json.RawMessage, b Binding) (*request, error) {
	if len(bytes.TrimSpace(input)) == 0 {
		input = json.RawMessage("{}")
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	req := CallRequest{Input: input, SessionID: b.SessionID, ContinuationToken: b.ContinuationToken}
	if err := enc.Encode(req); err != nil {
		return nil, c.fail(&Error{ErrCode: CodeUsage, Tool: name, Err: err,
			Message: "the input of " + name + " is not valid JSON: " + causeText(err)})
	}
	body := bytes.TrimSuffix(buf.Bytes(), []byte("\n")) // the encoder's newline
	return &request{method: http.MethodPost, root: c.base, path: toolPath(name), body: body,
		tool: name, session: b.SessionID, probe: true}, nil
}

// PreparedCall is a call's request exactly as the client sends it, for a
// command that shows it (agsh's :curl): method, URL, the headers but the
// credential's, and the body.
type PreparedCall struct {
	Method, URL string
	// Header holds every header sent but Authorization.
	Header http.Header
	// Bearer: an Authorization: Bearer header with the client's token is
	// sent (its value is never here).
	Bearer bool
	// BasicUser is the user of the target URL's userinfo, sent as basic
	// authentication ("" when none; its password is never here).
	BasicUser string
	Body      []byte
}

// PrepareCall is the request Call would send for name, input and b,
// without sending it.
func (c *Client) PrepareCall(name string, input json.RawMessage, b Binding) (*PreparedCall, error) {
	if err := b.check(); err != nil {
		return nil, err
	}
	r, err := c.callRequest(name, input, b)
	if err != nil {
		return nil, err
	}
	u := c.endpoint(r.root, r.path, r.query)
	pc := &PreparedCall{Method: r.method, Header: http.Header{}, Body: r.body, Bearer: c.opts.BearerToken != ""}
	if u.User != nil {
		pc.BasicUser = u.User.Username()
		u.User = nil
	}
	pc.URL = u.String()
	c.setHeaders(pc.Header, r)
	pc.Header.Del("Authorization")
	return pc, nil
}

// Agents lists the agents mounted on the target's host (GET {host}/v1/agents).
func (c *Client) Agents(ctx context.Context) ([]Agent, error) {
	r := &request{method: http.MethodGet, root: c.host, path: pathAgents}
	var a agentsAnswer
	if err := c.do(ctx, r, &a, essentialAgents); err != nil {
		return nil, err
	}
	if a.Agents == nil {
		return nil, c.missing(r, essentialAgents)
	}
	for i := range a.Agents {
		a.Agents[i].URL = c.agentURL(a.Agents[i])
	}
	return a.Agents, nil
}

// agentURL is an agent's URL without userinfo: the one listed, else the
// host and the slug.
func (c *Client) agentURL(a Agent) string {
	if a.URL != "" {
		if u, err := url.Parse(a.URL); err == nil && u.Host != "" {
			return displayURL(u)
		}
		return stripUserinfo(a.URL)
	}
	return displayURL(c.host) + "/" + url.PathEscape(a.Slug)
}

// missing is the error of a 2xx answer without its payload field.
func (c *Client) missing(r *request, field string) *Error {
	return c.fail(&Error{ErrCode: CodeBadResponse, Status: http.StatusOK, Route: r.route(), Tool: r.tool,
		Message: "deployment answered " + r.route() + " without the \"" + field + "\" field; is " + SettingTarget.mark() + " an agent-sdk deployment?"})
}

// notAnAgent is the error of a target that answers a plain 404: the agents
// mounted on its host are probed and listed (exit 2).
func (c *Client) notAnAgent(ctx context.Context) *Error {
	e := &Error{ErrCode: CodeNotAnAgent, Status: http.StatusNotFound, Message: "no agent at " + c.display}
	agents, err := c.Agents(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return c.interrupted(ctx, &request{method: http.MethodGet, path: pathAgents}, false)
		}
		return c.fail(e)
	}
	if len(agents) == 0 {
		e.Message += "; no agents are mounted there"
		return c.fail(e)
	}
	urls := make([]string, len(agents))
	for i, a := range agents {
		if a.URL == c.display {
			return c.fail(&Error{ErrCode: CodeBadResponse, Status: http.StatusNotFound, Exit: ExitUnreachable,
				Message: "the agent at " + c.display + " answers 404 to a route agsh needs; its agent-sdk may be too old for agsh"})
		}
		urls[i] = a.URL
	}
	e.Message += "; mounted agents: " + strings.Join(urls, ", ")
	return c.fail(e)
}
