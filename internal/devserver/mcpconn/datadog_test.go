package mcpconn

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/devserver/mcpconn/internal/datadog"
	"github.com/agsh-dev/agsh/internal/devserver/tool"
)

// monitorsOf decodes the JSON array of a list_monitors answer.
func monitorsOf(t *testing.T, r mcpResult) []datadog.Monitor {
	t.Helper()
	if r.IsError {
		t.Fatalf("list_monitors failed: %s", r.text())
	}
	if len(r.Content) != 1 || r.StructuredContent != nil {
		t.Fatalf("list_monitors answered %d parts and structured content %s; want one text part", len(r.Content), r.StructuredContent)
	}
	var ms []datadog.Monitor
	if err := json.Unmarshal([]byte(r.text()), &ms); err != nil {
		t.Fatalf("list_monitors text %q: %v", r.text(), err)
	}
	return ms
}

// nextCursor answers the _meta.nextCursor of a list_monitors answer.
func nextCursor(t *testing.T, r mcpResult) string {
	t.Helper()
	raw, ok := r.Meta["nextCursor"]
	if !ok {
		return ""
	}
	var c string
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatalf("nextCursor %s: %v", raw, err)
	}
	return c
}

// listAll pages through list_monitors with the given filter and page size.
func listAll(t *testing.T, list *tool.Tool, filter string, size int) (all []datadog.Monitor, pages int) {
	t.Helper()
	cursor := ""
	for pages < 100 {
		page := fmt.Sprintf(`{"size":%d}`, size)
		if cursor != "" {
			page = fmt.Sprintf(`{"size":%d,"cursor":%q}`, size, cursor)
		}
		in := `{"page":` + page + `}`
		if filter != "" {
			in = `{` + filter + `,"page":` + page + `}`
		}
		r, _ := callTool(t, list, in)
		ms := monitorsOf(t, r)
		pages++
		all = append(all, ms...)
		if len(ms) > size {
			t.Fatalf("page of %d monitors for size %d", len(ms), size)
		}
		if cursor = nextCursor(t, r); cursor == "" {
			return all, pages
		}
		if want := fmt.Sprint(ms[len(ms)-1].ID); cursor != want {
			t.Fatalf("nextCursor %s, want the last id %s", cursor, want)
		}
	}
	t.Fatal("list_monitors never ends")
	return nil, 0
}

func TestDatadogTools(t *testing.T) {
	s := startSet(t, Config{})
	tools := s.Tools("executor")
	if got := toolNames(tools); got != "datadog_get_monitor,datadog_list_monitors,datadog_mute_monitor" {
		t.Fatalf("executor tools = %s", got)
	}
	if got := toolNames(s.Tools("planner")); got != toolNames(tools) {
		t.Fatalf("planner tools = %s", got)
	}
	if s.Tools("other") != nil {
		t.Errorf("an unknown agent has tools")
	}
	tests := []struct {
		name, title string
		readOnly    bool
		properties  string
	}{
		{"datadog_list_monitors", "List monitors", true, "query,tags,status,page,page.size,page.cursor"},
		{"datadog_get_monitor", "Get monitor", true, "id"},
		{"datadog_mute_monitor", "Mute monitor", false, "id,end"},
	}
	for _, tt := range tests {
		tl := toolNamed(t, tools, tt.name)
		if tl.Title != tt.title || tl.ReadOnly() != tt.readOnly || tl.Effect != "" || tl.Validate {
			t.Errorf("%s: title %q read-only %v effect %q validate %v", tt.name, tl.Title, tl.ReadOnly(), tl.Effect, tl.Validate)
		}
		if tl.Source.Kind != "connection" || tl.Source.Connection != "datadog" || tl.Source.Connector != "datadog" {
			t.Errorf("%s: source %+v", tt.name, tl.Source)
		}
		if got := strings.Join(propertyPaths(t, tl.InputSchema, ""), ","); got != tt.properties {
			t.Errorf("%s: properties %s, want %s", tt.name, got, tt.properties)
		}
		if tl.Annotations == nil || tl.Annotations.Title != tt.title {
			t.Errorf("%s: annotations %+v", tt.name, tl.Annotations)
		}
	}
}

func TestDatadogListPaging(t *testing.T) {
	list := toolNamed(t, startSet(t, Config{}).Tools("planner"), "datadog_list_monitors")

	r, _ := callTool(t, list, `{}`)
	if ms := monitorsOf(t, r); len(ms) != datadog.DefaultPageSize || nextCursor(t, r) != fmt.Sprint(ms[19].ID) {
		t.Errorf("default page: %d monitors, next cursor %q", len(ms), nextCursor(t, r))
	}
	for _, tt := range []struct{ size, pages int }{{20, 2}, {7, 6}, {40, 1}, {100, 1}, {1, 40}} {
		all, pages := listAll(t, list, "", tt.size)
		if len(all) != 40 || pages != tt.pages {
			t.Errorf("size %d: %d monitors in %d pages, want 40 in %d", tt.size, len(all), pages, tt.pages)
		}
		for i := 1; i < len(all); i++ {
			if all[i].ID <= all[i-1].ID {
				t.Fatalf("size %d: ids out of order: %d after %d", tt.size, all[i].ID, all[i-1].ID)
			}
		}
	}
}

func TestDatadogListFilters(t *testing.T) {
	list := toolNamed(t, startSet(t, Config{}).Tools("planner"), "datadog_list_monitors")
	tests := []struct {
		filter string
		want   int
		check  func(datadog.Monitor) bool
	}{
		{`"query":"checkout"`, 4, func(m datadog.Monitor) bool { return strings.HasPrefix(m.Name, "checkout ") }},
		{`"query":"CHECKOUT"`, 4, func(m datadog.Monitor) bool { return strings.HasPrefix(m.Name, "checkout ") }},
		{`"query":"service:api"`, 3, func(m datadog.Monitor) bool { return strings.HasPrefix(m.Name, "api ") }},
		{`"query":"latency"`, 10, func(m datadog.Monitor) bool { return strings.Contains(m.Name, "latency") }},
		{`"tags":["team:commerce"]`, 12, func(m datadog.Monitor) bool { return m.Tags[2] == "team:commerce" }},
		{`"tags":["team:commerce","tier:critical"]`, 8, func(m datadog.Monitor) bool { return len(m.Tags) == 4 }},
		{`"tags":[]`, 40, func(datadog.Monitor) bool { return true }},
		{`"query":"pods","tags":["env:prod"]`, 10, func(m datadog.Monitor) bool { return m.Type == "metric alert" }},
		{`"query":"no such monitor"`, 0, nil},
	}
	for _, tt := range tests {
		all, _ := listAll(t, list, tt.filter, 5)
		if len(all) != tt.want {
			t.Errorf("%s: %d monitors, want %d", tt.filter, len(all), tt.want)
		}
		for _, m := range all {
			if !tt.check(m) {
				t.Errorf("%s: %+v does not belong", tt.filter, m)
			}
		}
	}
	// Every monitor has exactly one of the four states.
	total := 0
	for _, st := range datadog.Statuses {
		all, _ := listAll(t, list, fmt.Sprintf(`"status":%q`, st), 100)
		for _, m := range all {
			if m.Status != st {
				t.Errorf("status %s: got a monitor in %s", st, m.Status)
			}
		}
		total += len(all)
	}
	if total != 40 {
		t.Errorf("the four states hold %d monitors, want 40", total)
	}
	// An empty page is an empty array.
	r, _ := callTool(t, list, `{"query":"no such monitor"}`)
	if r.text() != "[]" || nextCursor(t, r) != "" {
		t.Errorf("no match answered %q, cursor %q", r.text(), nextCursor(t, r))
	}
}

func TestDatadogBadInput(t *testing.T) {
	tools := startSet(t, Config{}).Tools("planner")
	tests := []struct{ tool, input, want string }{
		{"datadog_list_monitors", `{"status":"Bad"}`, `status: "Bad" is not one of OK, Alert, Warn, No Data`},
		{"datadog_list_monitors", `{"page":{"size":0}}`, `page.size: 0 is out of range 1..100`},
		{"datadog_list_monitors", `{"page":{"size":2.5}}`, `page.size: expected an integer, got 2.5`},
		{"datadog_list_monitors", `{"page":{"cursor":"abc"}}`, `page.cursor: "abc" is not a cursor of list_monitors (the id of the last monitor of a page)`},
		{"datadog_list_monitors", `{"page":{"limit":3}}`, `unknown property "page.limit" (known: size, cursor)`},
		{"datadog_list_monitors", `{"limit":10}`, `unknown property "limit" (known: query, tags, status, page)`},
		{"datadog_list_monitors", `{"tags":"env:prod"}`, `tags: expected an array of strings, got "env:prod"`},
		{"datadog_list_monitors", `{"query":7}`, `query: expected a string, got 7`},
		{"datadog_get_monitor", `{}`, `id is required`},
		{"datadog_get_monitor", `{"id":"7"}`, `id: expected an integer, got "7"`},
		{"datadog_get_monitor", `{"id":1}`, `no monitor with id 1`},
		{"datadog_get_monitor", `{"id":123456789012345678901234567890}`, `id: expected an integer, got 123456789012345678901234567890`},
		{"datadog_mute_monitor", `{"id":1}`, `no monitor with id 1`},
		{"datadog_mute_monitor", `{"id":4101266,"end":"tomorrow"}`, `end: "tomorrow" is not an RFC 3339 time such as 2026-12-01T09:00:00Z`},
		{"datadog_mute_monitor", `{"id":4101266,"end":"2001-01-01T00:00:00Z"}`, `end 2001-01-01T00:00:00Z is not in the future`},
	}
	for _, tt := range tests {
		r, res := callTool(t, toolNamed(t, tools, tt.tool), tt.input)
		if !res.IsError || r.text() != tt.want {
			t.Errorf("%s %s: isError %v, %q; want %q", tt.tool, tt.input, res.IsError, r.text(), tt.want)
		}
	}
}

func TestDatadogMute(t *testing.T) {
	s := startSet(t, Config{})
	executor, planner := s.Tools("executor"), s.Tools("planner")
	list := toolNamed(t, planner, "datadog_list_monitors")
	first := monitorsOf(t, mustCall(t, list, `{"page":{"size":1}}`))[0]
	if first.Muted || first.MutedUntil != nil {
		t.Fatalf("monitor %d starts muted", first.ID)
	}
	get := toolNamed(t, executor, "datadog_get_monitor")
	before := getMonitor(t, get, first.ID)

	mute := toolNamed(t, executor, "datadog_mute_monitor")
	muted := getMonitor(t, mute, first.ID, `"end":"2099-01-01T09:30:00+01:00"`)
	if !muted.Muted || muted.MutedUntil == nil || *muted.MutedUntil != "2099-01-01T08:30:00Z" || muted.UpdatedAt == before.UpdatedAt {
		t.Errorf("mute answered %+v", muted)
	}
	// What the other tools show changed, on both agents (one store).
	if after := getMonitor(t, toolNamed(t, planner, "datadog_get_monitor"), first.ID); !after.Muted || *after.MutedUntil != "2099-01-01T08:30:00Z" {
		t.Errorf("get after mute: %+v", after)
	}
	if ms := monitorsOf(t, mustCall(t, list, `{"page":{"size":1}}`)); !ms[0].Muted {
		t.Errorf("list after mute: %+v", ms[0])
	}
	// Without an end the mute has none.
	second := monitorsOf(t, mustCall(t, list, fmt.Sprintf(`{"page":{"size":1,"cursor":"%d"}}`, first.ID)))[0]
	if m := getMonitor(t, mute, second.ID); !m.Muted || m.MutedUntil != nil {
		t.Errorf("mute with no end: %+v", m)
	}
	// A fresh set starts from the seed again.
	if m := getMonitor(t, toolNamed(t, startSet(t, Config{}).Tools("executor"), "datadog_get_monitor"), first.ID); m.Muted {
		t.Errorf("a new set sees the mute of another: %+v", m)
	}
}

// mustCall calls tl and fails the test on an error result.
func mustCall(t *testing.T, tl *tool.Tool, input string) mcpResult {
	t.Helper()
	r, _ := callTool(t, tl, input)
	if r.IsError {
		t.Fatalf("%s %s: %s", tl.Name, input, r.text())
	}
	return r
}

// getMonitor calls get_monitor or mute_monitor for id, with more members,
// and checks the monitor comes both as structured content and as text.
func getMonitor(t *testing.T, tl *tool.Tool, id int64, more ...string) datadog.Monitor {
	t.Helper()
	in := fmt.Sprintf(`{"id":%d`, id)
	for _, m := range more {
		in += "," + m
	}
	r := mustCall(t, tl, in+"}")
	// Both hold the same bytes, the query's ">" unescaped.
	if string(r.StructuredContent) != r.text() || strings.Contains(r.text(), `\u003e`) {
		t.Errorf("%s: structured %s differs from text %s", tl.Name, r.StructuredContent, r.text())
	}
	var m datadog.Monitor
	if err := json.Unmarshal(r.StructuredContent, &m); err != nil || m.ID != id {
		t.Fatalf("%s: %s: %v", tl.Name, r.StructuredContent, err)
	}
	return m
}
