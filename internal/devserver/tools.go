package devserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"sync"

	"github.com/agsh-dev/agsh/internal/devserver/tool"
	"github.com/agsh-dev/agsh/internal/wire"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// defaultSchema is served for a tool that declares no input schema.
var defaultSchema = []byte(`{"type":"object","properties":{}}`)

// agent is one mounted agent: its tools, sessions and armed faults.
type agent struct {
	slug, name, description string
	tools                   []*entry
	byName                  map[string]*entry
	available               []string // tool names, sorted, for unknown_tool
	infoBody, listBody      []byte   // precomputed: the tools never change
	sessions                *sessionStore
	faults                  *faultSet
	hub                     *hub // the server's turns and streams
	logf                    func(string, ...any)
}

// entry is one tool with what the server derives from it.
type entry struct {
	t      *tool.Tool
	schema []byte // the input schema as served
	detail []byte // the tool object of GET /v1/tools/{name}

	compileOnce sync.Once
	compiled    *jsonschema.Schema
	compileErr  error
}

func newAgent(ac AgentConfig, stateDir string, h *hub, logf func(string, ...any)) (*agent, error) {
	a := &agent{
		slug: ac.Slug, name: ac.Name, description: ac.Description,
		byName: map[string]*entry{},
		faults: &faultSet{},
		hub:    h,
		logf:   logf,
	}
	if a.name == "" {
		a.name = ac.Slug
	}
	var infos, list [][]byte
	for _, t := range ac.Tools {
		e, err := newEntry(t)
		if err != nil {
			return nil, fmt.Errorf("devserver: agent %s: %w", ac.Slug, err)
		}
		if a.byName[t.Name] != nil {
			return nil, fmt.Errorf("devserver: agent %s: tool %q configured twice", ac.Slug, t.Name)
		}
		a.tools = append(a.tools, e)
		a.byName[t.Name] = e
		a.available = append(a.available, t.Name)
		// The info document is the static authored manifest; connection
		// tools are only in the live listing (seed: "the info document
		// stays the static authored manifest").
		if source(t).Kind != "connection" {
			infos = append(infos, object(
				val("name", t.Name),
				valIf(t.Description != "", "description", t.Description),
				raw("inputSchema", e.schema),
				valIf(t.Effect != "", "effect", t.Effect),
				val("needsApproval", t.NeedsApproval),
				val("execution", execution(t)),
			))
		}
		list = append(list, object(
			val("name", t.Name),
			valIf(t.Title != "", "title", t.Title),
			val("source", source(t)),
		))
	}
	sort.Strings(a.available)
	a.infoBody = object(val("ok", true), val("name", a.name),
		valIf(a.description != "", "description", a.description), raw("tools", array(infos)))
	a.listBody = object(val("ok", true), raw("tools", array(list)))
	store, err := newSessionStore(stateDir, ac.Slug, logf)
	if err != nil {
		return nil, err
	}
	a.sessions = store
	return a, nil
}

// newEntry checks a tool and precomputes its detail object, the schemas
// written byte for byte as declared.
func newEntry(t *tool.Tool) (*entry, error) {
	if t == nil || t.Name == "" {
		return nil, fmt.Errorf("a tool has no name")
	}
	if execution(t) != "agent" && t.Call == nil {
		return nil, fmt.Errorf("tool %q has no Call", t.Name)
	}
	e := &entry{t: t, schema: t.InputSchema}
	if len(e.schema) == 0 {
		e.schema = defaultSchema
	}
	if !json.Valid(e.schema) {
		return nil, fmt.Errorf("tool %q: input schema is not valid JSON", t.Name)
	}
	if len(t.OutputSchema) > 0 && !json.Valid(t.OutputSchema) {
		return nil, fmt.Errorf("tool %q: output schema is not valid JSON", t.Name)
	}
	e.detail = object(
		val("name", t.Name),
		valIf(t.Title != "", "title", t.Title),
		valIf(t.Description != "", "description", t.Description),
		raw("inputSchema", e.schema),
		raw("outputSchema", t.OutputSchema),
		valIf(t.Effect != "", "effect", t.Effect),
		val("needsApproval", t.NeedsApproval),
		val("execution", execution(t)),
		valIf(t.Annotations != nil, "annotations", t.Annotations),
		val("source", source(t)),
	)
	return e, nil
}

// execution is the tool's execution, "server" when undeclared.
func execution(t *tool.Tool) string {
	if t.Execution == "" {
		return "server"
	}
	return t.Execution
}

// source is the tool's source, "authored" when undeclared.
func source(t *tool.Tool) wire.Source {
	s := t.Source
	s.DefaultKind()
	return s
}

// lookup finds a tool or builds the 404 unknown_tool envelope.
func (a *agent) lookup(name string) (*entry, *apiError) {
	if e := a.byName[name]; e != nil {
		return e, nil
	}
	err := errorf(http.StatusNotFound, wire.CodeUnknownTool,
		fmt.Sprintf("no tool %q on agent %s", name, a.slug))
	err.body.Available = append([]string{}, a.available...)
	return nil, err
}

// serveInfo answers GET /v1/info.
func (a *agent) serveInfo(c *reqCtx) { writeBody(c.w, http.StatusOK, a.infoBody) }

// serveTools answers GET /v1/tools; a session binding in the query is
// checked like a call's.
func (a *agent) serveTools(c *reqCtx) {
	if _, err := a.queryBinding(c); err != nil {
		writeError(c.w, err)
		return
	}
	writeBody(c.w, http.StatusOK, a.listBody)
}

// serveTool answers GET (the detail) and POST (a call) of /v1/tools/{name}.
func (a *agent) serveTool(c *reqCtx) {
	if c.r.Method == http.MethodPost {
		a.serveCall(c)
		return
	}
	if _, err := a.queryBinding(c); err != nil {
		writeError(c.w, err)
		return
	}
	e, err := a.lookup(c.segs[0])
	if err != nil {
		writeError(c.w, err)
		return
	}
	writeBody(c.w, http.StatusOK, object(val("ok", true), raw("tool", e.detail)))
}
