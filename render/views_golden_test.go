package render

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/testcorpus"
)

// monitorsFixture is a synthetic datadog_list_monitors answer: numeric
// ids, enum-like states, long queries and names, tags, an all-null column
// and RFC 3339 timestamps.
const monitorsFixture = `[
 {"id": 4101243, "name": "api error rate is high", "status": "OK", "type": "query alert", "query": "sum(last_5m):sum:trace.http.request.errors{service:api,env:prod}.as_count() / sum:trace.http.request.hits{service:api,env:prod}.as_count() > 0.05", "tags": ["service:api", "env:prod", "team:platform", "tier:critical"], "muted": false, "mutedUntil": null, "updatedAt": "2026-11-27T14:02:00Z"},
 {"id": 4101290, "name": "api p99 latency above 800ms", "status": "Alert", "type": "metric alert", "query": "avg(last_10m):p99:trace.http.request.duration{service:api,env:prod} > 0.8", "tags": ["service:api", "env:prod", "team:platform", "tier:critical"], "muted": false, "mutedUntil": null, "updatedAt": "2026-11-20T08:41:00Z"},
 {"id": 4101377, "name": "checkout pods restarting", "status": "No Data", "type": "metric alert", "query": "max(last_15m):sum:kubernetes.containers.restarts{kube_deployment:checkout,env:prod} > 3", "tags": ["service:checkout", "env:prod", "team:commerce"], "muted": true, "mutedUntil": null, "updatedAt": "2026-11-18T23:15:00Z"},
 {"id": 4101402, "name": "notifications health check failing on every host of the fleet", "status": "Warn", "type": "service check", "query": "\"http.can_connect\".over(\"service:notifications\").by(\"host\").last(3).count_by_status()", "tags": ["service:notifications", "env:prod", "team:engagement"], "muted": true, "mutedUntil": null, "updatedAt": "2026-11-28T09:00:00Z"}
]`

// changesFixture is a synthetic list_changes answer: 40-hex shas, authors,
// timestamps with offsets, subjects and file lists.
const changesFixture = `[
 {"sha": "6544a0a3f1e2d4c5b6a7980123456789abcdef01", "author": "Ada Lovelace", "date": "2026-11-30T17:45:12+01:00", "subject": "cmd/agsh: gofmt", "files": ["cmd/agsh/app.go"]},
 {"sha": "18a427a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6", "author": "Grace Hopper", "date": "2026-11-30T16:02:55+01:00", "subject": "cmd/agsh: the HTTP policy (redirects, downgrade refusal, answer redaction) in its own file, verbatim, before it moves to catalog", "files": ["cmd/agsh/app.go", "cmd/agsh/httpclient.go"]},
 {"sha": "630704fe9d8c7b6a5f4e3d2c1b0a998877665544", "author": "Linus Torvalds", "date": "2026-11-29T11:30:00Z", "subject": "one interruptible() for one-shot and script runs", "files": []},
 {"sha": "f257c1f00112233445566778899aabbccddeeff0", "author": "Ken Thompson", "date": "2026-11-28T08:00:00-05:00", "subject": "help: the Output note of an array of objects lists the element's fields", "files": ["render/help.go", "render/help_test.go", "render/testdata/help_generated.golden"]}
]`

// tableFixture is a synthetic table wider than 80 columns with CJK and
// emoji cells, missing keys, nested values and numbers to keep as received.
const tableFixture = `[
 {"id": 1, "city": "東京", "name": "Tokyo Tower observation deck", "visitors": 2.50e6, "open": true, "tags": ["tower", "view"], "note": "Closes early\non holidays"},
 {"id": 2, "city": "서울", "name": "N Seoul Tower", "visitors": 1200000, "open": false, "owner": {"kind": "company", "id": 7}},
 {"id": 3, "city": "北京市朝阳区", "name": "中央电视台总部大楼 (CCTV Headquarters) 🏢 はとても大きな建物です", "visitors": null, "tags": []},
 {"id": 4, "city": "Zürich", "name": "Prime Tower 🏙️", "visitors": 0.0, "open": true, "note": "tab\there"},
 {"id": 10000, "city": "Reykjavík", "name": "Hallgrímskirkja", "visitors": 500000, "open": true}
]`

// tableView renders a fixture and gives standard output, then standard
// error after a "-- stderr --" line when there are notes.
func tableView(t *testing.T, fixture string, o Options) string {
	t.Helper()
	var out, notes bytes.Buffer
	if err := Write(&out, &notes, FromResult([]byte(fixture)), o); err != nil {
		t.Fatal(err)
	}
	checkStructure(t, out.String(), structure{width: o.Width, color: o.Color})
	if strings.Count(notes.String(), "\n") > 1 {
		t.Errorf("notes take more than one line: %q", notes.String())
	}
	if notes.Len() == 0 {
		return out.String()
	}
	return out.String() + "-- stderr --\n" + notes.String()
}

// devserverMonitors is the development deployment's answer to
// datadog_list_monitors (testdata/results/table_devserver_monitors.json,
// its first page as the deployment sends it).
func devserverMonitors(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(testcorpus.Testdata(t, "results", "table_devserver_monitors.json"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// goldenTables are the tables of the golden files and of the width sweep.
func goldenTables(t *testing.T) []struct{ name, json string } {
	return []struct{ name, json string }{
		{"monitors", monitorsFixture}, {"devserver_monitors", devserverMonitors(t)},
		{"changes", changesFixture}, {"cjk", tableFixture},
	}
}

func TestGoldenTables(t *testing.T) {
	for _, f := range goldenTables(t) {
		for _, width := range []int{40, 80, 120, 200} {
			name := fmt.Sprintf("table_%s_%d", f.name, width)
			t.Run(name, func(t *testing.T) {
				checkGolden(t, name, []byte(tableView(t, f.json, Options{TTY: true, Width: width})))
			})
		}
	}
	t.Run("color", func(t *testing.T) {
		checkGolden(t, "table_cjk_80.color", []byte(tableView(t, tableFixture, Options{TTY: true, Color: true, Width: 80})))
	})
}

// TestTableLayoutRules checks the rules the goldens show, so regenerating
// them cannot hide a break: ids and timestamps whole, the first column
// shown, every column left out named (the empty ones too), empty columns
// kept.
func TestTableLayoutRules(t *testing.T) {
	for _, width := range []int{40, 80, 120} {
		out := tableView(t, monitorsFixture, Options{Width: width})
		for _, whole := range []string{"4101243", "4101402"} {
			if !strings.Contains(out, whole) {
				t.Errorf("width %d: id %s cut or missing:\n%s", width, whole, out)
			}
		}
		table, note, _ := strings.Cut(out, "-- stderr --\n")
		if !strings.Contains(table, "MUTEDUNTIL") && !strings.Contains(note, "mutedUntil") {
			t.Errorf("width %d: the all-null column is neither shown nor named:\n%s", width, out)
		}
		// The note names every column not shown, the empty one too.
		if strings.Contains(note, "muted,") && !strings.Contains(note, "mutedUntil, updatedAt;") {
			t.Errorf("width %d: the note does not name every column left out:\n%s", width, out)
		}
		if !strings.HasPrefix(out, "ID ") {
			t.Errorf("width %d: first column not first:\n%s", width, out)
		}
		if strings.Contains(out, "UPDATEDAT") && !strings.Contains(out, "2026-11-28T09:00:00Z") {
			t.Errorf("width %d: a timestamp is cut:\n%s", width, out)
		}
		// A sha is its first 12 characters while the table does not fit.
		changes := tableView(t, changesFixture, Options{Width: width})
		if !strings.Contains(changes, "\n6544a0a3f1e2  ") || strings.Contains(changes, "6544a0a3f1e2d") {
			t.Errorf("width %d: sha not abbreviated:\n%s", width, changes)
		}
	}
	if changes := tableView(t, changesFixture, Options{Width: 300}); !strings.Contains(changes, "6544a0a3f1e2d4c5b6a7980123456789abcdef01") {
		t.Errorf("the sha is cut in a table that fits:\n%s", changes)
	}
	out := tableView(t, monitorsFixture, Options{Width: 80})
	if !strings.HasSuffix(out, "-- stderr --\n(5 more columns: query, tags, muted, mutedUntil, updatedAt; use --output json or | jq)\n") {
		t.Errorf("note at 80 columns:\n%s", out)
	}
}

// TestTableWiderNeverLess lays out every golden table at every width from
// 40 to 240 columns: one column more never shows fewer columns, nor any
// column narrower (an abbreviated id is narrower than a whole one), and
// the column that names the rows is shown at every width.
func TestTableWiderNeverLess(t *testing.T) {
	for _, f := range goldenTables(t) {
		td := scanTable([]byte(f.json), Safe)
		if td == nil {
			t.Fatalf("%s: not a table", f.name)
		}
		rows := td.index.Len()
		shown := func(lay tableLayout) map[int]int {
			m := map[int]int{}
			for i, c := range lay.cols {
				m[c] = lay.caps[i]
			}
			return m
		}
		prev := shown(layoutTable(td.stats, rows, 40))
		for width := 41; width <= 240; width++ {
			lay := layoutTable(td.stats, rows, width)
			now := shown(lay)
			for c, w := range prev {
				if now[c] < w {
					t.Errorf("%s: column %s is %d cells at %d columns, %d at %d", f.name, td.cols[c], w, width-1, now[c], width)
				}
			}
			used := 2 * (len(lay.cols) - 1)
			for _, w := range lay.caps {
				used += w
			}
			if used > width {
				t.Errorf("%s: %d cells used at %d columns", f.name, used, width)
			}
			prev = now
		}
	}
	// The name column is kept: monitors' NAME, changes' SUBJECT.
	for name, fixture := range map[string]string{"NAME": monitorsFixture, "SUBJECT": changesFixture} {
		for _, width := range []int{40, 60, 80, 120, 200} {
			if out := tableView(t, fixture, Options{Width: width}); !strings.Contains(strings.SplitN(out, "\n", 2)[0], name) {
				t.Errorf("width %d: no %s column:\n%s", width, name, out)
			}
		}
	}
}

func TestGoldenTableDropsColumns(t *testing.T) {
	var cols []string
	for i := 0; i < 20; i++ {
		cols = append(cols, `"column_`+string(rune('a'+i))+`": "value number `+string(rune('a'+i))+`"`)
	}
	in := "[{" + strings.Join(cols, ",") + "}]"
	var out, notes bytes.Buffer
	if err := Write(&out, &notes, FromResult([]byte(in)), Options{Width: 80}); err != nil {
		t.Fatal(err)
	}
	checkStructure(t, out.String(), structure{width: 80})
	checkGolden(t, "table_drop_80", out.Bytes())
	if want := "(15 more columns: column_f, column_g, column_h, column_i, column_j, column_k, column_l, column_m, column_n, column_o, column_p, column_q, column_r, column_s, column_t; use --output json or | jq)\n"; notes.String() != want {
		t.Errorf("notes = %q", notes.String())
	}
}

// propertyFixture is a synthetic object with nesting at several levels.
const propertyFixture = `{
 "id": "mon_42", "name": "API latency \u001b[31mhigh\u001b[0m", "threshold": 0.250, "muted": false, "owner": null,
 "tags": ["team:core", "env:prod", 3],
 "query": {"metric": "latency.p99", "window": "5m", "filters": {"service": "api", "region": ["eu-west-1", "us-east-1"]}},
 "notify": [{"channel": "slack", "target": "#oncall"}, {"channel": "email", "target": "ops@example.com", "delay": 300}],
 "history": [], "extra": {}, "description": "Fires when p99 latency\nstays above the threshold.",
 "matrix": [[1, 2], [3, 4]]
}`

func TestGoldenProperty(t *testing.T) {
	view := func(o Options) string {
		var out bytes.Buffer
		if err := Write(&out, nil, FromResult([]byte(propertyFixture)), o); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	out := view(Options{TTY: true, Width: 80})
	checkStructure(t, out, structure{width: 80})
	checkGolden(t, "property_nested", []byte(out))
	// The property view has no color of its own.
	if colored := view(Options{TTY: true, Color: true, Width: 80}); colored != out {
		t.Errorf("color changed the property view:\n%s", colored)
	}
}

// TestTableShortensAgentIDs: the agent-sdk's session, call and turn ids
// (ses_…, call_…, turn_…) are long ids: their first 12 characters while
// the table does not fit, whole once it does.
func TestTableShortensAgentIDs(t *testing.T) {
	fixture := `[{"session":"ses_a99d1b69c329eb75","call":"call_e5ad1abdfb76afc8","turn":"turn_0f3c2b1a9d8e7f60","title":"` +
		strings.Repeat("a long title ", 8) + `"}]`
	out := tableView(t, fixture, Options{Width: 100})
	for _, id := range []string{"ses_a99d1b69", "call_e5ad1ab", "turn_0f3c2b1"} {
		if !strings.Contains(out, id+"  ") {
			t.Errorf("%s… is not shortened to 12 characters:\n%s", id, out)
		}
	}
	if out := tableView(t, fixture, Options{Width: 300}); !strings.Contains(out, "turn_0f3c2b1a9d8e7f60") || !strings.Contains(out, "ses_a99d1b69c329eb75") {
		t.Errorf("an id is cut in a table that fits:\n%s", out)
	}
}
