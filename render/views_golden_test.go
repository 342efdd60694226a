package render

import (
	"bytes"
	"strings"
	"testing"
)

// tableFixture is a synthetic table wider than 80 columns with CJK and
// emoji cells, missing keys, nested values and numbers to keep as received.
const tableFixture = `[
 {"id": 1, "city": "東京", "name": "Tokyo Tower observation deck", "visitors": 2.50e6, "open": true, "tags": ["tower", "view"], "note": "Closes early\non holidays"},
 {"id": 2, "city": "서울", "name": "N Seoul Tower", "visitors": 1200000, "open": false, "owner": {"kind": "company", "id": 7}},
 {"id": 3, "city": "北京市朝阳区", "name": "中央电视台总部大楼 (CCTV Headquarters)", "visitors": null, "tags": []},
 {"id": 4, "city": "Zürich", "name": "Prime Tower 🏙️", "visitors": 0.0, "open": true, "note": "tab\there"},
 {"id": 10000, "city": "Reykjavík", "name": "Hallgrímskirkja", "visitors": 500000, "open": true}
]`

func TestGoldenTable(t *testing.T) {
	bothColors(t, "table_cjk_80", func(o Options) string {
		var out, notes bytes.Buffer
		if err := Write(&out, &notes, FromResult([]byte(tableFixture)), o); err != nil {
			t.Fatal(err)
		}
		if notes.Len() > 0 {
			t.Errorf("notes = %q", notes.String())
		}
		return out.String()
	}, structure{width: 80})
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
	if notes.String() != "(7 more columns; use --output json)\n" {
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
