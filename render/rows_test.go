package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/agsh-dev/agsh/internal/jsontext"
)

// rowsInputs are arrays a table is made of (or not), for the tables read
// from a caller's index.
var rowsInputs = []string{
	monitorsFixture, changesFixture, tableFixture,
	`[{"a":1},{"b":"x\ny","a":"東京"},{"a":{"c":[1, 2]},"b":null}]`,
	`[{"\u0061":1,"a":2},{"a":3,"\u0061":4}]`,
	`[{"id":"0123456789abcdef0123","name":"` + strings.Repeat("long name ", 12) + `"},{"id":"fedcba9876543210fedc","name":"x\u001b[31m"}]`,
	`[{"type":"image","data":"QUFB","mimeType":"image/png"},{"type":"text","text":"hi"}]`,
	`[{}]`, `[{},{"a":1}]`,
}

var rowsOptions = []Options{{Width: 120}, {TTY: true, Width: 40}, {TTY: true, Color: true, Width: 80}}

func rendered(t *testing.T, v Value, o Options) string {
	t.Helper()
	var out, notes bytes.Buffer
	if err := Write(&out, &notes, v, o); err != nil {
		t.Fatal(err)
	}
	return out.String() + "\x00" + notes.String()
}

// TestTableFromRows: a table read from the index of the caller's check
// (FromCheckedResult with rows) is byte for byte the one FromResult's
// value makes, written once or again with other options (the first table
// rewrote the index), and from several goroutines at once.
func TestTableFromRows(t *testing.T) {
	for _, in := range rowsInputs {
		data := []byte(in)
		_, _, rows, ok := jsontext.IndexArray(data, 0, maxDepth, 0)
		if !ok || rows == nil {
			t.Fatalf("%.40s: not indexed", in)
		}
		v := FromCheckedResult(json.RawMessage(data), rows)
		if v.checkedRows() == nil {
			t.Fatalf("%.40s: the index was dropped", in)
		}
		for round := 0; round < 2; round++ {
			for _, o := range rowsOptions {
				want := rendered(t, FromResult(json.RawMessage(in)), o)
				if got := rendered(t, v, o); got != want {
					t.Errorf("%.40s (%+v, round %d): from the index\n%q\nwant\n%q", in, o, round, got, want)
				}
			}
		}
	}
	data := []byte(tableFixture)
	_, _, rows, _ := jsontext.IndexArray(data, 0, maxDepth, 0)
	v := FromCheckedResult(json.RawMessage(data), rows)
	want := rendered(t, FromResult(json.RawMessage(tableFixture)), rowsOptions[1])
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if got := rendered(t, v, rowsOptions[1]); got != want {
				t.Errorf("concurrent table from the index: %q", got)
			}
		})
	}
	wg.Wait()
}

// TestTableRowsKept: the index is used only for the bytes it indexed
// (white space cut before the array shifts its offsets: dropped; a value
// whose JSON was replaced: not used), and an array given without one is
// still checked.
func TestTableRowsKept(t *testing.T) {
	in := " " + tableFixture
	_, _, rows, _ := jsontext.IndexArray([]byte(in), 0, maxDepth, 0)
	if v := FromCheckedResult(json.RawMessage(in), rows); v.checkedRows() != nil {
		t.Error("an index with offsets from before the white space was kept")
	}
	data := []byte(tableFixture)
	_, _, rows, _ = jsontext.IndexArray(data, 0, maxDepth, 0)
	v := FromCheckedResult(json.RawMessage(data), rows)
	v.JSON = json.RawMessage(`[{"other":1}]`)
	if v.checkedRows() != nil || !strings.Contains(rendered(t, v, rowsOptions[0]), "OTHER") {
		t.Error("an index was used for other bytes")
	}
	if v := FromResult(json.RawMessage(`[{"a":1},]`)); v.IsJSON {
		t.Error("an invalid array without an index was taken for JSON")
	}
	if v := FromCheckedResult(json.RawMessage(`[{"a":1}]`), nil); v.checkedRows() != nil || rendered(t, v, rowsOptions[0]) != "A\n1\n\x00" {
		t.Errorf("a checked array without an index: %q", rendered(t, v, rowsOptions[0]))
	}
}
