package jsontext

import (
	"bytes"
	"encoding/json"
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
	for _, e := range r.Ends {
		row := []string{}
		for _, m := range r.Members[from:e] {
			tok := string(data[m.Start:m.End])
			if m.Key&PlainString != 0 {
				tok += "(plain)"
			}
			row = append(row, tok)
		}
		from = e
		rows = append(rows, row)
	}
	return rows
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
}

func TestIndexArray(t *testing.T) {
	for _, c := range append(indexCases, string(benchdata.TableRows(3))) {
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
