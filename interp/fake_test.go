package interp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/agsh-dev/agsh/internal/names"
	"github.com/agsh-dev/agsh/interp/syntax"
)

// fakeHandler is a catalog of test tools. Tools named in statuses print their
// name and return that status; tools named in values return that value.
type fakeHandler struct {
	statuses map[string]int
	values   map[string]Value
	calls    []string
	// renderSelf makes a last tool render its value itself ("self: …").
	renderSelf bool
}

func newFake() *fakeHandler {
	return &fakeHandler{
		statuses: map[string]int{"true": 0, "false": 1, "fail2": 2, "fail3": 3, "fail4": 4, "fail5": 5, "interrupted": 130},
		values: map[string]Value{
			"lines":                 {Text: "alpha\nbeta\ngamma\ndelta\n"},
			"nolf":                  {Text: "one\ntwo"},
			"empty":                 {},
			"jsontext":              {Text: " [1, 2, 3]\n"},
			"arr":                   {JSON: json.RawMessage(`[ {"name": "a", "n": 1}, {"name":"b","n":2} ,{"name":"c","n":3}]`), IsJSON: true},
			"obj":                   {JSON: json.RawMessage(`{"status":"ok","count":2}`), IsJSON: true},
			"read":                  {Text: `{"version": "1.2.3", "deps": ["x", "y"]}`, Final: true},
			"datadog_list_monitors": {JSON: json.RawMessage(`[]`), IsJSON: true},
		},
	}
}

func (h *fakeHandler) IsTool(name string) bool {
	_, a := h.statuses[name]
	_, b := h.values[name]
	return a || b
}

func (h *fakeHandler) Suggest(name string) []string {
	var tools []string
	for n := range h.statuses {
		tools = append(tools, n)
	}
	for n := range h.values {
		tools = append(tools, n)
	}
	slices.Sort(tools)
	return names.Suggest(name, append(tools, append(ShellWords(), FilterNames()...)...))
}

func (h *fakeHandler) Call(ctx context.Context, argv []string, last bool, stdout, stderr io.Writer) (Value, Result) {
	h.calls = append(h.calls, strings.Join(argv, " "))
	if st, ok := h.statuses[argv[0]]; ok {
		fmt.Fprintln(stdout, argv[0])
		if st != 0 {
			fmt.Fprintf(stderr, "%sError: %s failed\n", MessagePrefix(ctx), argv[0])
		}
		return Value{}, Result{Status: st}
	}
	v := h.values[argv[0]]
	if last && h.renderSelf {
		fmt.Fprintf(stdout, "self: %s%s\n", v.Text, v.JSON)
		return Value{}, Result{Rendered: true}
	}
	return v, Result{}
}

func (h *fakeHandler) Help(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && !h.IsTool(args[0]) {
		fmt.Fprintf(stderr, "%sno tool %s\n", MessagePrefix(ctx), args[0])
		return 2
	}
	fmt.Fprintf(stdout, "HELP %s\ncommands: true false\n", strings.Join(args, " "))
	return 0
}

// fakeRenderer renders text as is (newline added) and JSON as "json: <compact>".
type fakeRenderer struct{}

func (fakeRenderer) Render(stdout, stderr io.Writer, v Value) error {
	if !v.IsJSON {
		if v.Text != "" {
			fmt.Fprint(stdout, strings.TrimSuffix(v.Text, "\n")+"\n")
		}
		return nil
	}
	var b bytes.Buffer
	if err := json.Compact(&b, v.JSON); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "json: %s\n", b.String())
	return nil
}

func (fakeRenderer) PropertyLines(obj json.RawMessage) ([]string, error) {
	var m map[string]any
	if err := json.Unmarshal(obj, &m); err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	lines := make([]string, len(keys))
	for i, k := range keys {
		lines[i] = fmt.Sprintf("%s: %v", k, m[k])
	}
	return lines, nil
}

// runScript runs src with a fresh fake handler and returns stdout, stderr, status.
func runScript(src string) (string, string, int, *fakeHandler) {
	h := newFake()
	var out, errb bytes.Buffer
	r := &Runner{Handler: h, Renderer: fakeRenderer{}, Stdout: &out, Stderr: &errb, Prefix: "agsh: "}
	st := r.RunScript(context.Background(), src)
	return out.String(), errb.String(), st, h
}

// parseOne parses a single-list line for RunList tests.
func parseOne(line string) (*syntax.List, error) {
	s, err := syntax.Parse(line)
	if err != nil {
		return nil, err
	}
	return s.Lists[0], nil
}
