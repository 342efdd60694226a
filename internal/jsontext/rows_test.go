package jsontext

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/benchdata"
)

// countValues is the answer bound's count (catalog's boundedReader): each
// ',', '[' and '{' outside strings.
func countValues(data []byte) int64 {
	var n int64
	in, esc := false, false
	for _, c := range data {
		switch {
		case esc:
			esc = false
		case in && c == '\\':
			esc = true
		case in:
			in = c != '"'
		case c == '"':
			in = true
		case c == ',' || c == '[' || c == '{':
			n++
		}
	}
	return n
}

// indexWant is what IndexArray must find in data, from the tree parser:
// each element's members as "key=value" tokens, the plain strings marked.
func indexWant(t testing.TB, data []byte) (rows [][]string, table bool) {
	v, err := ParseTree(data, 100)
	if err != nil || v.Kind != Array || len(v.Vals) == 0 {
		return nil, false
	}
	for _, el := range v.Vals {
		if el.Kind != Object {
			return nil, false
		}
		var row []string
		for k, m := range el.Vals {
			_ = k
			tok := string(m.Raw)
			if m.Kind == String && plainText(m.Raw) {
				tok += "(plain)"
			}
			row = append(row, tok)
		}
		rows = append(rows, row)
	}
	return rows, true
}

func plainText(raw []byte) bool {
	for _, c := range raw[1 : len(raw)-1] {
		if c < 0x20 || c >= 0x7f || c == '\\' {
			return false
		}
	}
	return true
}

func indexGot(data []byte, r *Rows) [][]string {
	var rows [][]string
	from := uint32(0)
	for k := range r.Ends {
		e := r.RowEnd(k)
		row := []string{}
		for _, m := range r.Members[from:e] {
			tok := string(m.Value(data))
			if m.Plain() {
				tok += "(plain)"
			}
			row = append(row, tok)
		}
		from = e
		rows = append(rows, row)
	}
	return rows
}

// alignedWant is which rows of data the index must mark Aligned: those
// whose key tokens are the first row's, in order, as many or fewer, and
// at most 64 (the first row itself when it has at most 64 members).
func alignedWant(t testing.TB, data []byte, r *Rows) []bool {
	var keys [][]string
	from := uint32(0)
	for k := range r.Ends {
		var row []string
		for _, m := range r.Members[from:r.RowEnd(k)] {
			row = append(row, string(m.KeyToken(data)))
		}
		keys = append(keys, row)
		from = r.RowEnd(k)
	}
	want := make([]bool, len(keys))
	for k, row := range keys {
		want[k] = len(row) <= len(keys[0]) && len(row) <= maxKeys
		for j := range row {
			want[k] = want[k] && row[j] == keys[0][j]
		}
	}
	return want
}

var indexCases = []string{
	`[{"a":1}]`, ` [ { "a" : 1 , "b" : [ 2 , { "c" : 3 } ] } , { } , {"b":"x\ny","é":"é","d":"\u0041","e":"plain text, long enough for a word"} ] `,
	`[{"a":"0123456789abcdef\u00e9"},{"a":"0123456789abcdef\u007f"},{"a":"0123456789abcde` + "\x7f" + `"}]`,
	`[{"a":1},2]`, `[1,{"a":1}]`, `[[{"a":1}]]`, `[]`, `[{}]`, `{"a":[{"b":1}]}`, `"s"`, `[{"a":1}`, `[{"a":tru}]`,
	`[{"a":"\u00"}]`, `[{"a":1,}]`, `[{"a" 1}]`, `[{"a":1}]]`,
	// later rows' keys against the first row's: prefixes, escapes, cut.
	`[{"ab":1,"a":2},{"a":1,"ab":2},{"a\"":1},{"a\\":1,"b":{"ab":3}}]`, `[{"a\\":1},{"a\\":2,"b":3},{"a\\`,
	`[{"a":1,"b":2},{"a":1,"b":2},{"a":1,"b" :2},{ "a" :1}]`, `[{"a":1},{"a`,
	// plain or not, the odd byte in the first word, in a later one, in the tail.
	`[{"a":"ab\"cdefghijkl","b":"é12345678901","c":"1234567é","d":"` + "\x7f" + `abcdefghij","e":"abcdefghijklmno\u0041"}]`,
	`[{"a":"abcdefgh","b":"abcdefg","c":"abcdefghi","d":"a","e":"","f":"abcdefgh` + "\x01" + `"}]`,
	// keys found back from their values: escaped quotes and backslashes, spaces.
	`[{"a\\\"b" : 1, "\\" :2,"\"":3, "x\\\\":{"y":4}},{"\\":1},{"a\\\"b":1,"\\":2}]`,
	`[{"a":1,"b":2},{"a":1,"b":2,"c":3},{"b":1,"a":2},{"a":1},{}]`,
}

// wideRows: a first row of more members than the check compares (not
// aligned), and rows like it.
func wideRows() string {
	var b strings.Builder
	b.WriteString("[")
	for r := range 3 {
		if r > 0 {
			b.WriteString(",")
		}
		b.WriteString("{")
		for k := range 70 - r*10 {
			if k > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"k%d":%d`, k, k)
		}
		b.WriteString("}")
	}
	return b.String() + "]"
}

func TestIndexArray(t *testing.T) {
	for _, c := range append(indexCases, string(benchdata.TableRows(3)), wideRows()) {
		data := []byte(c)
		end, values, rows, ok := IndexArray(data, 0, 100, 0)
		valid := ok && SkipSpace(data, end) == len(data)
		if valid != json.Valid(data) {
			t.Errorf("IndexArray(%q) accepts %v, json.Valid %v", c, valid, !valid)
			continue
		}
		if !valid {
			continue
		}
		if want := countValues(data); values != want {
			t.Errorf("IndexArray(%q) counts %d values, the bound %d", c, values, want)
		}
		want, table := indexWant(t, data)
		if (rows != nil) != table {
			t.Errorf("IndexArray(%q) rows %v, a table %v", c, rows != nil, table)
			continue
		}
		if rows == nil {
			continue
		}
		if got := indexGot(data, rows); !equalRows(got, want) {
			t.Errorf("IndexArray(%q) =\n%q, want\n%q", c, got, want)
		}
		for _, m := range rows.Members {
			if k := m.KeyToken(data); !bytes.HasPrefix(k, []byte(`"`)) || !bytes.HasSuffix(k, []byte(`"`)) || !json.Valid(k) {
				t.Errorf("IndexArray(%q): key token %q", c, k)
			}
		}
		if got, want := alignedRows(rows), alignedWant(t, data, rows); !slices.Equal(got, want) {
			t.Errorf("IndexArray(%q): aligned rows %v, want %v", c, got, want)
		}
		if got := keyTokens(data, rows); !slices.Equal(got, keysWant(t, data)) {
			t.Errorf("IndexArray(%q): key tokens %q, want %q", c, got, keysWant(t, data))
		}
	}
	if _, _, rows, ok := IndexArray([]byte(`[{"a":1}]`), 0, 1, 0); ok || rows != nil {
		t.Error("IndexArray read past its depth")
	}
}

func equalRows(a, b [][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if strings.Join(a[i], "\x00") != strings.Join(b[i], "\x00") || len(a[i]) != len(b[i]) {
			return false
		}
	}
	return true
}

func FuzzIndexArray(f *testing.F) {
	for _, c := range append(indexCases, string(benchdata.TableRows(3))) {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		end, values, rows, ok := IndexArray(data, 0, 100, 0)
		valid := ok && SkipSpace(data, end) == len(data)
		if valid != json.Valid(data) {
			t.Fatalf("IndexArray(%q) accepts %v", data, valid)
		}
		if !valid {
			return
		}
		if want := countValues(data); values != want {
			t.Fatalf("IndexArray(%q) counts %d values, the bound %d", data, values, want)
		}
		want, table := indexWant(t, data)
		if (rows != nil) != table || rows != nil && !equalRows(indexGot(data, rows), want) {
			t.Fatalf("IndexArray(%q) rows differ from the tree's", data)
		}
		if rows != nil && !slices.Equal(keyTokens(data, rows), keysWant(t, data)) {
			t.Fatalf("IndexArray(%q): key tokens %q", data, keyTokens(data, rows))
		}
		if rows != nil && !slices.Equal(alignedRows(rows), alignedWant(t, data, rows)) {
			t.Fatalf("IndexArray(%q): aligned rows %v", data, alignedRows(rows))
		}
	})
}

// FuzzHasAt: HasAt is bytes.HasPrefix(data[i:], tok), tok with bytes
// after it in its capacity or not.
func FuzzHasAt(f *testing.F) {
	f.Add([]byte(`{"id":1,"name":"x"}{"id":2}`), 0, 20, 4)
	f.Add([]byte(`"abcdefgh" "abcdefgi"`), 0, 11, 10)
	f.Fuzz(func(t *testing.T, data []byte, i, from, l int) {
		if i < 0 || i > len(data) || from < 0 || l < 0 || from+l > len(data) {
			return
		}
		tok := data[from : from+l]
		want := bytes.HasPrefix(data[i:], tok)
		if got := HasAt(data, i, tok); got != want {
			t.Fatalf("HasAt(%q, %d, %q) = %v", data, i, tok, got)
		}
		if got := HasAt(data, i, bytes.Clone(tok)); got != want {
			t.Fatalf("HasAt(%q, %d, copy of %q) = %v", data, i, tok, got)
		}
	})
}

func alignedRows(r *Rows) []bool {
	got := make([]bool, len(r.Ends))
	for k, e := range r.Ends {
		got[k] = e&Aligned != 0
	}
	return got
}

// keyTokens are the key tokens of every member, found from their values.
func keyTokens(data []byte, r *Rows) []string {
	var got []string
	for _, m := range r.Members {
		got = append(got, string(m.KeyToken(data)))
	}
	return got
}

// keysWant are the key tokens of every member of every element, in order,
// as a scan of the tokens finds them.
func keysWant(t testing.TB, data []byte) []string {
	var want []string
	Elements(data, 0, func(start int) (int, bool) {
		return Members(data, start, func(key []byte, i int) (int, bool) {
			want = append(want, string(key))
			return SpanEnd(data, i)
		})
	})
	return want
}
