package render

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// FuzzRenderResult feeds arbitrary bytes through every result path: no
// panic, and on a terminal nothing unsafe and no line wider than the width
// in a table.
func FuzzRenderResult(f *testing.F) {
	for _, s := range []string{`"x"`, `{"a":1}`, `[{"a":"東京"},{"b":null}]`, `[1,"a",{}]`, `{"content":[{"type":"text","text":"[1]"}]}`,
		`{"ok":false,"error":"e","code":3}`, `"\u001b[31m"`, tableFixture, propertyFixture, `{"content":[{"type":"image","data":"AAAA"}]}`} {
		f.Add([]byte(s), 40)
	}
	f.Fuzz(func(t *testing.T, in []byte, width int) {
		width = width%200 + 1
		if width < 1 {
			width = -width + 1
		}
		v := FromResult(json.RawMessage(in))
		var out bytes.Buffer
		o := Options{TTY: true, Width: width}
		if err := Write(&out, io.Discard, v, o); err != nil {
			t.Fatalf("Write: %v", err)
		}
		if strings.ContainsRune(out.String(), 0x1b) {
			t.Fatalf("escape on a terminal: %q", out.String())
		}
		_ = WriteJSON(io.Discard, v)
		_, _ = ErrorMessage(v)
		_ = ErrorText(v)
		if v.IsJSON {
			_, _ = PropertyLines(v.JSON, width)
		}
	})
}

// FuzzHelp renders arbitrary descriptions and terms at arbitrary widths.
func FuzzHelp(f *testing.F) {
	f.Add(markdownFixture, "--kind <a|b>", 80)
	f.Add("<a><b>\n```\nx\n```\n| a |\n|---|\n", "<path>", 5)
	f.Fuzz(func(t *testing.T, desc, term string, width int) {
		width = width%300 + 1
		if width < 1 {
			width = -width + 1
		}
		var out bytes.Buffer
		p := HelpPage{Name: term, Synopsis: term, Description: desc, Options: []HelpItem{{Term: term, Description: desc}}, Notes: []string{desc}}
		if err := WriteHelp(&out, p, Options{Width: width}); err != nil {
			t.Fatalf("WriteHelp: %v", err)
		}
		for _, r := range out.String() {
			if r < 0x20 && r != '\n' || r == 0x7f {
				t.Fatalf("control character %U in help", r)
			}
		}
	})
}

// FuzzTerminalWriter checks that splitting a stream anywhere gives the same
// safe output as Safe on the whole.
func FuzzTerminalWriter(f *testing.F) {
	f.Add([]byte("a\r\nb\x1b[2J東京\xff"), 3)
	f.Fuzz(func(t *testing.T, in []byte, split int) {
		if split < 0 {
			split = -split
		}
		split %= len(in) + 1
		var out bytes.Buffer
		w := NewTerminalWriter(&out, true).(*TerminalWriter)
		w.Write(in[:split])
		w.Write(in[split:])
		w.Flush()
		if want := Safe(string(in)); out.String() != want {
			t.Fatalf("split at %d: got %q, want %q", split, out.String(), want)
		}
	})
}

// FuzzTable checks the table scanner against the tree parser: it accepts
// exactly the non-empty arrays of objects with a key, and the table it
// writes never exceeds the width.
func FuzzTable(f *testing.F) {
	for _, s := range []string{`[{"a":1}]`, `[{"a":"東京","b":[1,{"c":null}]},{"b":"x\ny"}]`, `[{}]`, `[{"a":1},2]`,
		`[{"a":1}`, `[{"a":tru}]`, `[{"a":"\u00"}]`, `[{"\u0061":1,"a":2}]`, monitorsFixture, changesFixture, tableFixture} {
		f.Add([]byte(s), 40)
	}
	f.Fuzz(func(t *testing.T, in []byte, width int) {
		width = width%200 + 1
		if width < 1 {
			width = -width + 1
		}
		tb := scanTable(in, Safe)
		n, err := parseJSON(in)
		want := err == nil && n.Kind == kindArray && len(n.Vals) > 0
		if want {
			keys := false
			for _, el := range n.Vals {
				want = want && el.Kind == kindObject
				keys = keys || el.Kind == kindObject && len(el.Keys) > 0
			}
			want = want && keys
		}
		if (tb != nil) != want {
			t.Fatalf("scanTable accepted=%v, tree parser says table=%v (err %v)", tb != nil, want, err)
		}
		if tb == nil {
			return
		}
		var out bytes.Buffer
		if err := writeTable(&out, io.Discard, tb, Options{TTY: true, Width: width}); err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
			if w := textWidth(l); w > width {
				t.Fatalf("line %q is %d wide, width %d", l, w, width)
			}
		}
	})
}

// TestTableScanDepth: the table scanner refuses a cell nested deeper than
// the tree parser reads (both through jsontext: one grammar, one bound), so
// a table the tree refuses is never drawn from the scan.
func TestTableScanDepth(t *testing.T) {
	for _, levels := range []int{cellDepth, cellDepth + 1} {
		in := []byte(`[{"a":` + strings.Repeat("[", levels) + strings.Repeat("]", levels) + `}]`)
		_, err := parseJSON(in)
		if scanned := scanTable(in, Safe) != nil; scanned != (err == nil) {
			t.Errorf("%d levels: scanned %v, tree error %v", levels, scanned, err)
		}
	}
}
