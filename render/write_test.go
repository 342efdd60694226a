package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func jsonValue(s string) Value { return Value{JSON: json.RawMessage(s), IsJSON: true} }

func render(t *testing.T, v Value, o Options) (string, string) {
	t.Helper()
	var out, notes bytes.Buffer
	if err := Write(&out, &notes, v, o); err != nil {
		t.Fatalf("Write: %v", err)
	}
	return out.String(), notes.String()
}

func TestWriteViews(t *testing.T) {
	tests := []struct {
		name string
		v    Value
		o    Options
		want string
	}{
		{"text gets a newline", TextValue("hello"), Options{}, "hello\n"},
		{"text keeps its newline", TextValue("hello\n\n"), Options{}, "hello\n\n"},
		{"empty text prints nothing", TextValue(""), Options{}, ""},
		{"text piped is unchanged", TextValue("a\x1b[2Jb\r\n"), Options{}, "a\x1b[2Jb\r\n"},
		{"text on a terminal is safe", TextValue("a\x1b[2Jb\r\n"), Options{TTY: true}, "a\\x1b[2Jb\n"},
		{"final is byte for byte", FinalValue("no newline"), Options{}, "no newline"},
		{"final json text is not parsed", FinalValue(`{"a":1}`), Options{}, `{"a":1}`},
		{"final empty", FinalValue(""), Options{}, ""},
		{"final on a terminal is safe", FinalValue("x\x07"), Options{TTY: true}, `x\x07`},
		{"empty array prints nothing", jsonValue(`[]`), Options{}, ""},
		{"list of scalars", jsonValue(`["a", 1.50, true, null, {"k": [1, 2]}, [3]]`), Options{}, "a\n1.50\ntrue\nnull\n{\"k\":[1,2]}\n[3]\n"},
		{"array of empty objects is a list", jsonValue(`[{}, {}]`), Options{}, "{}\n{}\n"},
		{"number", jsonValue(`1.000`), Options{}, "1.000\n"},
		{"boolean", jsonValue(`false`), Options{}, "false\n"},
		{"json string value is text", jsonValue(`"hi"`), Options{}, "hi\n"},
		{"json string holding an object", jsonValue(`"{\"a\":1}"`), Options{}, "a: 1\n"},
		{"invalid json shows as text", jsonValue(`{oops`), Options{}, "{oops\n"},
		{"empty object", jsonValue(`{}`), Options{}, "{}\n"},
		{"table", jsonValue(`[{"id":1,"name":"a b"},{"id":10.5,"extra":true}]`), Options{},
			"ID    NAME  EXTRA\n1     a b\n10.5        true\n"},
		{"table cells", jsonValue(`[{"s":"x\ny\tz","n":null,"o":{"b":[1, 2]},"f":false}]`), Options{},
			"S      N  O            F\nx⏎y z     {\"b\":[1,2]}  false\n"},
		{"table header bold with color", jsonValue(`[{"a":1}]`), Options{Color: true}, "\x1b[1mA\x1b[0m\n1\n"},
		{"table cell on a terminal is safe", jsonValue(`[{"a":"\u001b[31m"}]`), Options{TTY: true}, "A\n\\x1b[31m\n"},
		// Several text parts of an MCP result: each part in turn, by its view.
		{"mcp text parts in turn", FromResult(json.RawMessage(`{"content":[{"type":"text","text":"Results:"},{"type":"text","text":"{\"file\":\"a.js\",\"errors\":2}"},{"type":"text","text":"[{\"line\":1},{\"line\":4}]"},{"type":"text","text":"Fix them."}]}`)), Options{},
			"Results:\n\nfile:   a.js\nerrors: 2\n\nLINE\n1\n4\n\nFix them.\n"},
		// Kept whole for annotations or _meta: the text view is its text's.
		{"mcp annotated text", FromResult(json.RawMessage(`{"content":[{"type":"text","text":"{\"a\":1}","annotations":{"priority":1}}],"_meta":{"trace":"t"}}`)), Options{}, "a: 1\n"},
		{"mcp annotated parts", FromResult(json.RawMessage(`{"content":[{"type":"text","text":"one","annotations":{"audience":["user"]}},{"type":"text","text":"two"}]}`)), Options{}, "one\ntwo\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, notes := render(t, tt.v, tt.o)
			if got != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
			if notes != "" {
				t.Errorf("notes = %q", notes)
			}
		})
	}
}

func TestTableFitting(t *testing.T) {
	row := `{"a":"aaaaaaaaaaaaaaaaaaaa","b":"bbbbbbbbbbbbbbb","c":"cc"}`
	long := strings.Repeat("word ", 12) // 60 cells with the trailing space
	tests := []struct {
		name      string
		in        string
		width     int
		want      string
		wantNotes string
	}{
		{"fits", `[` + row + `]`, 80,
			"A                     B                C\naaaaaaaaaaaaaaaaaaaa  bbbbbbbbbbbbbbb  cc\n", ""},
		{"short columns are never cut: the last is dropped", `[` + row + `]`, 37,
			"A                     B\naaaaaaaaaaaaaaaaaaaa  bbbbbbbbbbbbbbb\n", "(1 more column: c; use --output json or | jq)\n"},
		{"first column alone is cut", `[` + row + `]`, 9,
			"A\naaaaaaaa…\n", "(2 more columns: b, c; use --output json or | jq)\n"},
		{"first column narrower than the floor", `[` + row + `]`, 3,
			"A\naa…\n", "(2 more columns: b, c; use --output json or | jq)\n"},
		{"an all-empty column is kept, its cells blank", `[{"id":1,"gone":null,"name":"x"},{"id":2,"gone":"","name":"y"}]`, 80,
			"ID  GONE  NAME\n1         x\n2         y\n", ""},
		{"a query's all-null column is kept", `[{"id":1,"name":"Ada","note":null},{"id":2,"name":"Grace","note":null}]`, 80,
			"ID  NAME   NOTE\n1   Ada\n2   Grace\n", ""},
		{"a key of one row only, null there, is kept", `[{"id":1},{"id":2,"note":null}]`, 80,
			"ID  NOTE\n1\n2\n", ""},
		{"only blanks: every column, the row a blank line", `[{"a":null,"b":""}]`, 80,
			"A  B\n\n", ""},
		{"an empty column forced out by the width is named", `[{"a":"aaaaaaaaaaaaaaaaaaaa","e":null,"b":"bbbbbbbbbbbbbbb","c":"cc"}]`, 37,
			"A                     E\naaaaaaaaaaaaaaaaaaaa\n", "(2 more columns: b, c; use --output json or | jq)\n"},
		{"an empty column past the width is named", `[{"a":"aaaaaaaaaaaaaaaaaaaa","b":"bbbbbbbbbbbbbbb","e":null}]`, 37,
			"A                     B\naaaaaaaaaaaaaaaaaaaa  bbbbbbbbbbbbbbb\n", "(1 more column: e; use --output json or | jq)\n"},
		{"the name column keeps its width before the next column is shown", `[{"id":123,"msg":"` + long + `","ok":true}]`, 40,
			"ID   MSG\n123  word word word word word word word…\n", "(1 more column: ok; use --output json or | jq)\n"},
		{"free column takes the rest", `[{"id":123,"msg":"` + long + `","ok":true}]`, 60,
			"ID   MSG                                                OK\n123  word word word word word word word word word wor…  true\n", ""},
		{"the name whole, the other column widens", `[{"n":"` + long[:30] + `","d":"` + long + long + `"}]`, 62,
			"N                               D\nword word word word word word   word word word word word word…\n", ""},
		{"a free column of ten cells fits beside the name", `[{"n":"` + long[:30] + `","d":"` + long + long + `"}]`, 42,
			"N                               D\nword word word word word word   word word…\n", ""},
		{"a column that does not fit at its least width is left out", `[{"msg":"` + long + `","id":"0123456789abcdef0123456789abcdef01234567"}]`, 50,
			"MSG\n" + long[:39] + "…\n", "(1 more column: id; use --output json or | jq)\n"},
		{"a long id is abbreviated when the table does not fit", `[{"msg":"` + long + `","id":"0123456789abcdef0123456789abcdef01234567"}]`, 80,
			"MSG                                                           ID\n" + long + "  0123456789ab\n", ""},
		{"a long id is whole when the table fits", `[{"msg":"` + long[:20] + `","id":"0123456789abcdef0123456789abcdef01234567"}]`, 80,
			"MSG                   ID\n" + long[:20] + "  0123456789abcdef0123456789abcdef01234567\n", ""},
		{"ids and timestamps keep their width", `[{"id":"5f0c6a7e-0c2b-4f55-9c1f-0a2f9d7b1e34","at":"2026-11-28T09:00:00.123456Z","note":"` + long + `"}]`, 110,
			"ID                                    AT                           NOTE\n" +
				"5f0c6a7e-0c2b-4f55-9c1f-0a2f9d7b1e34  2026-11-28T09:00:00.123456Z  word word word word word word word word wo…\n", ""},
		{"cjk counts two cells", `[{"v":"x","k":"東京都庁舎の展望室は四十五階にあります東京都庁舎の展望室"}]`, 14,
			"V  K\nx  東京都庁舎…\n", ""},
		{"cjk name column cut by the line", `[{"k":"東京都庁舎の展望室は四十五階にあります東京都庁舎の展望室","v":"x"}]`, 14,
			"K\n東京都庁舎の…\n", "(1 more column: v; use --output json or | jq)\n"},
		{"emoji counts two cells", `[{"v":"y","k":"🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉"}]`, 14,
			"V  K\ny  🎉🎉🎉🎉🎉…\n", ""},
		{"several rows: widths from every row", `[{"k":"a"},{"k":"bbbb","x":1}]`, 80,
			"K     X\na\nbbbb  1\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, notes := render(t, jsonValue(tt.in), Options{Width: tt.width})
			if got != tt.want || notes != tt.wantNotes {
				t.Errorf("got\n%s(notes %q)\nwant\n%s(notes %q)", got, notes, tt.want, tt.wantNotes)
			}
			for _, l := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
				if w := textWidth(l); w > tt.width {
					t.Errorf("line %q is %d cells wide, limit %d", l, w, tt.width)
				}
				if strings.HasSuffix(l, " ") {
					t.Errorf("line %q ends in a space", l)
				}
			}
		})
	}
}

func TestLayoutTable(t *testing.T) {
	short := func(w int) colStat { return colStat{natural: w, sum: int64(w), nonEmpty: 1} }
	free := func(w int, mean int64) colStat {
		return colStat{natural: w, sum: mean, nonEmpty: 1, long: true, nonAtomic: true}
	}
	empty := colStat{natural: 5}
	tests := []struct {
		name    string
		stats   []colStat
		width   int
		cols    []int
		caps    []int
		dropped []int
	}{
		{"all natural", []colStat{short(10), free(30, 30)}, 80, []int{0, 1}, []int{10, 30}, nil},
		{"empty kept at its header's width", []colStat{short(3), empty, short(4)}, 80, []int{0, 1, 2}, []int{3, 5, 4}, nil},
		{"all empty: every column", []colStat{empty, empty}, 80, []int{0, 1}, []int{5, 5}, nil},
		{"an empty column is left out like any other", []colStat{short(3), empty, short(4)}, 9, []int{0}, []int{3}, []int{1, 2}},
		{"free gets the rest", []colStat{short(10), free(100, 50), short(5)}, 40, []int{0, 1, 2}, []int{10, 21, 5}, nil},
		{"proportional", []colStat{free(100, 30), free(100, 60)}, 92, []int{0, 1}, []int{30, 60}, nil},
		{"a column capped at natural gives the rest away", []colStat{free(25, 100), free(200, 100)}, 82, []int{0, 1}, []int{25, 55}, nil},
		{"settled widths, then the rest in proportion", []colStat{free(100, 1), free(100, 100)}, 52, []int{0, 1}, []int{20, 30}, nil},
		{"a column at its least width fits", []colStat{free(100, 10), free(100, 30)}, 32, []int{0, 1}, []int{20, 10}, nil},
		{"a column below its least width is left out", []colStat{free(100, 10), free(100, 30)}, 31, []int{0}, []int{20}, []int{1}},
		{"a sparse column grows when the others are whole", []colStat{free(100, 1), free(30, 30)}, 80, []int{0, 1}, []int{48, 30}, nil},
		{"drop from the right", []colStat{short(30), short(30), free(50, 50), short(5)}, 70, []int{0, 1}, []int{30, 30}, []int{2, 3}},
		{"short first column alone cut", []colStat{short(30), short(5)}, 20, []int{0}, []int{20}, []int{1}},
		{"zero width", []colStat{free(9, 9)}, 0, []int{0}, []int{1}, nil},
	}
	for _, tt := range tests {
		lay := layoutTable(tt.stats, 1, tt.width)
		if !equalInts(lay.cols, tt.cols) || !equalInts(lay.caps, tt.caps) || !equalInts(lay.dropped, tt.dropped) {
			t.Errorf("%s: got cols %v caps %v dropped %v; want %v %v %v", tt.name, lay.cols, lay.caps, lay.dropped, tt.cols, tt.caps, tt.dropped)
		}
	}
}

func TestIDOrTime(t *testing.T) {
	for s, want := range map[string]bool{
		"2026-11-28T09:00:00Z": true, "2026-11-28T09:00:00.5+01:00": true, "2026-11-28 09:00:00Z": true,
		"2026-11-28T09:00:00": false, "2026-11-28": false, "2026-11-28T09:00:00.Z": false,
		"5f0c6a7e-0c2b-4f55-9c1f-0a2f9d7b1e34": true, "5f0c6a7e-0c2b-4f55-9c1f-0a2f9d7b1e3": false,
		"6544a0a": true, "123456": true, "deadbeef": false, "12345": false, "mon-123456": false,
	} {
		if got := idOrTime([]byte(s)); got != want {
			t.Errorf("idOrTime(%q) = %v, want %v", s, got, want)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestPropertyView(t *testing.T) {
	in := `{"name":"agsh","version":1.10,"ok":true,"nothing":null,"empty":"","obj":{},"arr":[],
"tags":["a","b c",2],"owner":{"login":"ops","id":7,"deep":{"x":"y"}},
"items":[{"id":1,"label":"one"},{"id":2}],"mixed":[1,{"k":"v"}],"multi":"line 1\nline 2\n\nline 4",
"東京":"wide key"}`
	want := `name:    agsh
version: 1.10
ok:      true
nothing: null
empty:
obj:     {}
arr:     []
tags:
  - a
  - b c
  - 2
owner:
  login: ops
  id:    7
  deep:
    x: y
items:
  id:    1
  label: one

  id: 2
mixed:
  - 1
  - {"k":"v"}
multi:   line 1
         line 2

         line 4
東京:    wide key
`
	got, _ := render(t, jsonValue(in), Options{})
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	lines, err := PropertyLines(json.RawMessage(in), 80)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(lines, "\n")+"\n" != want {
		t.Errorf("PropertyLines differ from the view:\n%s", strings.Join(lines, "\n"))
	}
	if _, err := PropertyLines(json.RawMessage(`[1]`), 80); err == nil || err.Error() != "render: property view needs a JSON object" {
		t.Errorf("PropertyLines on an array: err = %v", err)
	}
	if _, err := PropertyLines(json.RawMessage(`{`), 80); err == nil {
		t.Error("PropertyLines on bad JSON: no error")
	}
}

func TestPropertyViewOnTerminal(t *testing.T) {
	got, _ := render(t, jsonValue(`{"k\u001b":"v\u0007\r\nw"}`), Options{TTY: true})
	want := "k\\x1b: v\\x07\n       w\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestPropertyViewDepthLimit(t *testing.T) {
	in := strings.Repeat(`{"k":`, 40) + "1" + strings.Repeat("}", 40)
	lines, err := PropertyLines(json.RawMessage(in), 80)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 33 {
		t.Fatalf("got %d lines, want 33", len(lines))
	}
	want := spaces(64) + "k: " + strings.Repeat(`{"k":`, 7) + "1" + strings.Repeat("}", 7)
	if lines[32] != want {
		t.Errorf("deepest line = %q, want %q", lines[32], want)
	}
}

// A table with very many columns is laid out in one pass, not one layout
// per column count (a hostile value).
func TestManyColumnsLayout(t *testing.T) {
	var b strings.Builder
	b.WriteString("[{")
	for i := 0; i < 200000; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"k%d":"value %d is a rather long text, long enough to be free text"`, i, i)
	}
	b.WriteString("}]")
	out, notes := render(t, jsonValue(b.String()), Options{Width: 80})
	if !strings.HasPrefix(out, "K0") || !strings.HasPrefix(notes, "(199997 more columns: k3, k4,") ||
		!strings.HasSuffix(notes, ", k102, … 199897 others; use --output json or | jq)\n") {
		t.Errorf("out %.100q notes %.100q", out, notes)
	}
}

// TestPropertyViewWraps: a long string value in a property view wraps at the
// width with a hanging indent under the value's column (git-mcp's
// 327-character instruction lines); a word is never broken; filters get the
// lines unwrapped.
func TestPropertyViewWraps(t *testing.T) {
	long := strings.Repeat("Before touching git, read the project. ", 8) // 312 cells
	obj := `{"ok":true,"instructions":"# Wrap-up\n\n` + long + `\nshort line","url":"https://example.com/` + strings.Repeat("x", 90) + `","nested":{"k":"` + strings.Repeat("word ", 30) + `"}}`
	got, _ := render(t, jsonValue(obj), Options{Width: 60})
	want := "ok:           true\n" +
		"instructions: # Wrap-up\n" +
		"\n"
	if !strings.HasPrefix(got, want) {
		t.Fatalf("got\n%s", got)
	}
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	for _, l := range lines {
		if textWidth(l) > 60 && !strings.HasPrefix(l, "url:") {
			t.Errorf("line wider than 60: %q", l)
		}
	}
	if lines[3] != "              Before touching git, read the project. Before" || lines[4] != "              touching git, read the project. Before" {
		t.Errorf("hanging indent:\n%s", got)
	}
	if !strings.Contains(got, "\nurl:          https://example.com/"+strings.Repeat("x", 90)+"\n") {
		t.Errorf("the long word is not whole on its line:\n%s", got)
	}
	if !strings.Contains(got, "\n  k: word word") || !strings.Contains(got, "\n     word word") {
		t.Errorf("nested value:\n%s", got)
	}
	if !strings.Contains(got, "\n              touching git, read the project.\n              short line\n") {
		t.Errorf("the value's own line breaks are not kept:\n%s", got)
	}
	// Far-right value column: the wrap hangs under the key instead.
	key := strings.Repeat("k", 45)
	got, _ = render(t, jsonValue(`{"`+key+`":"`+strings.Repeat("abc ", 20)+`"}`), Options{Width: 60})
	if !strings.Contains(got, "\n  abc abc") {
		t.Errorf("far-right column:\n%s", got)
	}
	// The filters' property lines do not wrap.
	pl, err := PropertyLines(json.RawMessage(obj), 60)
	if err != nil || !strings.Contains(strings.Join(pl, "\n"), strings.TrimSpace(long)) {
		t.Errorf("PropertyLines wrapped: %v\n%s", err, strings.Join(pl, "\n"))
	}
}

// TestNullAndEmptyStringApart: a table shows both as a blank cell, so the
// property view and --output json must keep them apart.
func TestNullAndEmptyStringApart(t *testing.T) {
	in := `{"note":null,"memo":""}`
	if got, _ := render(t, jsonValue(in), Options{Width: 80}); got != "note: null\nmemo:\n" {
		t.Errorf("property view %q", got)
	}
	var b bytes.Buffer
	if err := WriteJSON(&b, jsonValue(in)); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); !strings.Contains(got, `"note": null`) || !strings.Contains(got, `"memo": ""`) {
		t.Errorf("json %q", got)
	}
}
