package render

import (
	"bytes"
	"encoding/json"
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
	tests := []struct {
		name      string
		in        string
		width     int
		want      string
		wantNotes string
	}{
		{"fits", `[` + row + `]`, 80,
			"A                     B                C\naaaaaaaaaaaaaaaaaaaa  bbbbbbbbbbbbbbb  cc\n", ""},
		{"widest shrinks to the next", `[` + row + `]`, 37,
			"A                 B                C\naaaaaaaaaaaaaaa…  bbbbbbbbbbbbbbb  cc\n", ""},
		{"tied columns shrink together", `[` + row + `]`, 30,
			"A             B             C\naaaaaaaaaaa…  bbbbbbbbbbb…  cc\n", ""},
		{"down to four then drop columns", `[` + row + `]`, 9,
			"A\naaaaaaaa…\n", "(2 more columns; use --output json)\n"},
		{"leading columns that fit at four", `[` + row + `]`, 11,
			"A      B\naaaa…  bbb…\n", "(1 more columns; use --output json)\n"},
		{"one column narrower than four", `[` + row + `]`, 3,
			"A\naa…\n", "(2 more columns; use --output json)\n"},
		{"cjk counts two cells", `[{"k":"東京都庁舎の展望室","v":"x"}]`, 14,
			"K            V\n東京都庁舎…  x\n", ""},
		{"emoji counts two cells", `[{"k":"🎉🎉🎉🎉🎉","v":"y"}]`, 10,
			"K        V\n🎉🎉🎉…  y\n", ""},
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

func TestFitColumns(t *testing.T) {
	tests := []struct {
		w     []int
		width int
		want  []int
		shown int
	}{
		{[]int{10, 5}, 17, []int{10, 5}, 2},
		{[]int{10, 5}, 16, []int{9, 5}, 2},
		{[]int{10, 8, 3}, 17, []int{5, 5, 3}, 3},
		{[]int{10, 8, 3}, 18, []int{6, 5, 3}, 3},
		{[]int{10, 10, 10}, 16, []int{4, 4, 4}, 3},
		{[]int{10, 10, 10}, 15, []int{7, 6}, 2},
		{[]int{2, 2, 2}, 10, []int{2, 2, 2}, 3},
		{[]int{9}, 0, []int{1}, 1},
	}
	for _, tt := range tests {
		caps, shown := fitColumns(tt.w, tt.width)
		if shown != tt.shown || !equalInts(caps, tt.want) {
			t.Errorf("fitColumns(%v, %d) = %v, %d; want %v, %d", tt.w, tt.width, caps, shown, tt.want, tt.shown)
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
