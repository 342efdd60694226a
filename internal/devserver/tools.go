package devserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/agsh-dev/agsh/internal/devserver/tool"
	"github.com/agsh-dev/agsh/internal/wire"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// defaultSchema is served for a tool that declares no input schema.
var defaultSchema = []byte(`{"type":"object","properties":{}}`)

// agent is one mounted agent: its tools, sessions and armed faults.
type agent struct {
	slug, name, description string
	// set is the agent's tools, replaced whole when tools are added (a
	// --mcp server that became ready late): readers load it once.
	set      atomic.Pointer[toolSet]
	addMu    sync.Mutex // serializes addTools
	infoBody []byte     // precomputed: the authored tools never change
	sessions *sessionStore
	faults   *faultSet
	hub      *hub // the server's turns and streams
	logf     func(string, ...any)
}

// toolSet is an agent's tools with what is precomputed from them; never
// changed once published (addTools publishes a new one).
type toolSet struct {
	tools     []*entry
	byName    map[string]*entry
	available []string // tool names, sorted, for unknown_tool
	list      [][]byte // the listing's tool objects, in order
	starting  []string // the connections still starting (setStarting)
	listBody  []byte
}

// body makes the listing's body: the tools, and the connections still
// starting when there are any (docs/wire.md#the-tool-listing).
func (ts *toolSet) body() []byte {
	return object(val("ok", true), raw("tools", array(ts.list)), valIf(len(ts.starting) > 0, "starting", ts.starting))
}

// setStarting publishes the connections still starting: the listing says
// so, and a tool of theirs called meanwhile is an unknown tool that says
// why (docs/devserver.md#connection-tools-through-mcp).
func (a *agent) setStarting(names []string) {
	a.addMu.Lock()
	defer a.addMu.Unlock()
	old := a.set.Load()
	next := *old
	next.starting = append([]string(nil), names...)
	next.listBody = next.body()
	a.set.Store(&next)
}

// entry finds a tool by name, nil when the agent has none.
func (a *agent) entry(name string) *entry { return a.set.Load().byName[name] }

// addTools adds connection tools to the agent's listing after the start (a
// --mcp server that became ready late). A tool already there (the same
// tool) is skipped; another tool of a taken name is refused.
func (a *agent) addTools(ts []*tool.Tool) error {
	a.addMu.Lock()
	defer a.addMu.Unlock()
	old := a.set.Load()
	next := &toolSet{
		tools:     append([]*entry(nil), old.tools...),
		byName:    make(map[string]*entry, len(old.byName)+len(ts)),
		available: append([]string(nil), old.available...),
		list:      append([][]byte(nil), old.list...),
	}
	for k, v := range old.byName {
		next.byName[k] = v
	}
	var errs []error
	for _, t := range ts {
		if t == nil {
			continue
		}
		if have := next.byName[t.Name]; have != nil {
			if have.t != t {
				errs = append(errs, fmt.Errorf("devserver: agent %s: tool %q is already served", a.slug, t.Name))
			}
			continue
		}
		e, err := newEntry(t)
		if err != nil {
			errs = append(errs, fmt.Errorf("devserver: agent %s: %w", a.slug, err))
			continue
		}
		next.add(e)
	}
	sort.Strings(next.available)
	next.starting = old.starting
	next.listBody = next.body()
	a.set.Store(next)
	return errors.Join(errs...)
}

// add puts one tool in the set (not yet published).
func (ts *toolSet) add(e *entry) {
	t := e.t
	ts.tools = append(ts.tools, e)
	ts.byName[t.Name] = e
	ts.available = append(ts.available, t.Name)
	ts.list = append(ts.list, object(
		val("name", t.Name),
		valIf(t.Title != "", "title", t.Title),
		val("source", source(t)),
	))
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
		faults: &faultSet{ledger: h.faults},
		hub:    h,
		logf:   logf,
	}
	if a.name == "" {
		a.name = ac.Slug
	}
	set := &toolSet{byName: map[string]*entry{}}
	var infos [][]byte
	for _, t := range ac.Tools {
		e, err := newEntry(t)
		if err != nil {
			return nil, fmt.Errorf("devserver: agent %s: %w", ac.Slug, err)
		}
		if set.byName[t.Name] != nil {
			return nil, fmt.Errorf("devserver: agent %s: tool %q configured twice", ac.Slug, t.Name)
		}
		set.add(e)
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
	}
	sort.Strings(set.available)
	set.listBody = set.body()
	a.set.Store(set)
	a.infoBody = object(val("ok", true), val("name", a.name),
		valIf(a.description != "", "description", a.description), raw("tools", array(infos)))
	store, err := newSessionStore(stateDir, ac.Slug, h.kept, h.clock, logf)
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
	for what, b := range map[string]json.RawMessage{"icons": t.Icons, "_meta": t.Meta} {
		if len(b) > 0 && !json.Valid(b) {
			return nil, fmt.Errorf("tool %q: %s is not valid JSON", t.Name, what)
		}
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
		raw("icons", t.Icons),
		raw("_meta", t.Meta),
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
	set := a.set.Load()
	if e := set.byName[name]; e != nil {
		return e, nil
	}
	err := errorf(http.StatusNotFound, wire.CodeUnknownTool,
		fmt.Sprintf("no tool %q on agent %s", name, a.slug))
	err.body.Available = append([]string{}, set.available...)
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
	writeBody(c.w, http.StatusOK, a.set.Load().listBody)
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
