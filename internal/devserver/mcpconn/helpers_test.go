package mcpconn

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/agsh-dev/agsh/internal/devserver/tool"
)

// logSink collects Logf reports.
type logSink struct {
	mu    sync.Mutex
	lines []string
}

func (l *logSink) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func (l *logSink) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

// startSet starts a Set with cfg, closed when the test ends.
func startSet(t *testing.T, cfg Config) *Set {
	t.Helper()
	s, err := Start(context.Background(), cfg)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// toolNamed finds a tool by name, failing the test when it is absent.
func toolNamed(t *testing.T, tools []*tool.Tool, name string) *tool.Tool {
	t.Helper()
	for _, tl := range tools {
		if tl.Name == name {
			return tl
		}
	}
	t.Fatalf("no tool %s among %s", name, toolNames(tools))
	return nil
}

// toolNames lists the names of tools, comma-separated.
func toolNames(tools []*tool.Tool) string {
	names := make([]string, len(tools))
	for i, tl := range tools {
		names[i] = tl.Name
	}
	return strings.Join(names, ",")
}

// mcpResult is a decoded MCP tool result.
type mcpResult struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	StructuredContent json.RawMessage            `json:"structuredContent"`
	IsError           bool                       `json:"isError"`
	Meta              map[string]json.RawMessage `json:"_meta"`
}

// callTool calls tl with input and decodes the MCP result it answers.
func callTool(t *testing.T, tl *tool.Tool, input string) (mcpResult, tool.Result) {
	t.Helper()
	res, err := tl.Call(context.Background(), &tool.Call{Input: json.RawMessage(input)})
	if err != nil {
		t.Fatalf("%s %s: %v", tl.Name, input, err)
	}
	var r mcpResult
	if err := json.Unmarshal(res.Value, &r); err != nil {
		t.Fatalf("%s %s: result %s: %v", tl.Name, input, res.Value, err)
	}
	if r.IsError != res.IsError {
		t.Fatalf("%s %s: Result.IsError %v, result says %v", tl.Name, input, res.IsError, r.IsError)
	}
	return r, res
}

// text joins the text parts of r.
func (r mcpResult) text() string {
	var parts []string
	for _, c := range r.Content {
		if c.Type == "text" {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}

var (
	buildOnce   sync.Once
	builtServer string
	buildErr    error
	buildOut    []byte
)

// testServer builds internal/stdioserver once per test binary and answers
// the executable's path.
func testServer(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the stdio tests build their MCP server and need the go command: %v", err)
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "mcpconn-stdioserver-")
		if err != nil {
			buildErr = err
			return
		}
		builtServer = filepath.Join(dir, "stdioserver")
		cmd := exec.Command(goTool, "build", "-o", builtServer, "./internal/stdioserver")
		buildOut, buildErr = cmd.CombinedOutput()
	})
	if buildErr != nil {
		t.Fatalf("building the test MCP server: %v\n%s", buildErr, buildOut)
	}
	return builtServer
}

func TestMain(m *testing.M) {
	code := m.Run()
	if builtServer != "" {
		_ = os.RemoveAll(filepath.Dir(builtServer))
	}
	os.Exit(code)
}

// propertyPaths lists the property names of an object schema in the order
// the JSON holds them, nested ones as parent.child after their parent.
func propertyPaths(t *testing.T, schema json.RawMessage, prefix string) []string {
	t.Helper()
	var members orderedObject
	if err := json.Unmarshal(schema, &members); err != nil {
		t.Fatalf("schema %s: %v", schema, err)
	}
	var out []string
	for _, m := range members {
		if m.key != "properties" {
			continue
		}
		var props orderedObject
		if err := json.Unmarshal(m.value, &props); err != nil {
			return out
		}
		for _, p := range props {
			out = append(out, prefix+p.key)
			if len(p.value) > 0 && p.value[0] == '{' {
				out = append(out, propertyPaths(t, p.value, prefix+p.key+".")...)
			}
		}
	}
	return out
}

// orderedObject decodes a JSON object keeping its members in order; other
// values decode to nothing.
type orderedObject []member

type member struct {
	key   string
	value json.RawMessage
}

func (o *orderedObject) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		*o = append(*o, member{tok.(string), v})
	}
	return nil
}

// sameJSON reports whether a and b hold the same JSON value, numbers
// compared as written.
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	decode := func(x []byte) any {
		dec := json.NewDecoder(bytes.NewReader(x))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("%s: %v", x, err)
		}
		return v
	}
	return reflect.DeepEqual(decode(a), decode(b))
}
