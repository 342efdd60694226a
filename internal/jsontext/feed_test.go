package jsontext

import (
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/benchdata"
)

// feedCases are arrays for ArrayFeed beyond indexCases: cut rows, bad
// bytes late in a long array, an element that is not an object after
// whole rows, a huge element, rows that are not alike.
var feedCases = []string{
	string(benchdata.TableRows(40)),
	strings.TrimSuffix(string(benchdata.TableRows(40)), "]"),
	strings.Replace(string(benchdata.TableRows(40)), `"id":30,`, `"id":30,,`, 1),
	strings.Replace(string(benchdata.TableRows(40)), `"id":20,`, "\"id\":\"\x01\",", 1),
	strings.Replace(string(benchdata.TableRows(40)), `{"id":25,`, `7,{"id":25,`, 1),
	`[{"a":1},{"a":"` + strings.Repeat("x", 5000) + `"},{"a":3}]`,
	`[{"a":1},{"b":[1,2,{"c":[3]}],"a":2},{"a":3,"d":null},{},{"a":1e5}]`,
	`[{"a":1}, {"a":2} ,{"a":3}  ]  `,
	`[{"a":12},{"a":123}]`, `[{"a":1},{"a":tru`, `[{"a":1},{"a":true}`,
}

// feedAll feeds data to a feed in pieces of step bytes (the last piece
// the rest), then takes its Result over the whole of data.
func feedAll(data []byte, step, maxDepth int, maxValues int64) (int, int64, *Rows, bool) {
	f := NewArrayFeed(maxDepth, maxValues, len(data))
	for n := step; n < len(data); n += step {
		f.Feed(data[:n])
	}
	return f.Result(data)
}

// checkFeed: the feed's outcome is IndexArray's, member for member.
func checkFeed(t *testing.T, data []byte, step, maxDepth int, maxValues int64) {
	t.Helper()
	end, values, rows, ok := IndexArray(data, 0, maxDepth, maxValues)
	fend, fvalues, frows, fok := feedAll(data, step, maxDepth, maxValues)
	if ok != fok || values != fvalues || ok && end != fend {
		t.Fatalf("fed by %d bytes, %.80q: (%d, %d, %v), IndexArray (%d, %d, %v)",
			step, data, fend, fvalues, fok, end, values, ok)
	}
	if (rows == nil) != (frows == nil) {
		t.Fatalf("fed by %d bytes, %.80q: rows %v, IndexArray's %v", step, data, frows != nil, rows != nil)
	}
	if rows != nil && (!slices.Equal(rows.Members, frows.Members) || !slices.Equal(rows.Ends, frows.Ends)) {
		t.Fatalf("fed by %d bytes, %.80q: the index differs from IndexArray's", step, data)
	}
}

func TestArrayFeed(t *testing.T) {
	for _, c := range append(slices.Clone(indexCases), feedCases...) {
		if !strings.HasPrefix(c, "[") {
			continue // the feed begins at the array's '['
		}
		for _, step := range []int{1, 2, 3, 7, 64, 333, 1 << 20} {
			for _, maxValues := range []int64{0, 5, 100} {
				checkFeed(t, []byte(c), step, 100, maxValues)
			}
			checkFeed(t, []byte(c), step, 2, 0)
		}
	}
}

// TestArrayFeedRetries: a huge element is checked again only when the
// bytes after the last whole row have doubled, not at every piece.
func TestArrayFeedRetries(t *testing.T) {
	data := []byte(`[{"a":1},{"a":"` + strings.Repeat("x", 1<<20) + `"}]`)
	f := NewArrayFeed(100, 0, len(data))
	fed := 0
	for n := 100; n < len(data); n += 100 {
		before := f.tried
		f.Feed(data[:n])
		if f.tried != before {
			fed++
		}
	}
	if fed > 30 {
		t.Errorf("the element was checked %d times as it arrived", fed)
	}
	if _, _, rows, ok := f.Result(data); !ok || rows == nil || len(rows.Ends) != 2 {
		t.Errorf("Result: %v, %v", rows, ok)
	}
}

func FuzzArrayFeed(f *testing.F) {
	for _, c := range append(slices.Clone(indexCases), feedCases...) {
		f.Add([]byte(c), 3, int64(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, step int, maxValues int64) {
		if len(data) == 0 || data[0] != '[' || step <= 0 || maxValues < 0 {
			return
		}
		checkFeed(t, data, step, 100, maxValues)
	})
}

// TestArrayFeedProgress: what was fed is checked then, not at Result.
func TestArrayFeedProgress(t *testing.T) {
	data := benchdata.TableRows(1000)
	f := NewArrayFeed(100, 0, len(data))
	for n := 4096; n < len(data)-200; n += 4096 {
		f.Feed(data[:n])
	}
	f.Feed(data[:len(data)-200])
	if f.rows == nil || f.rows.at < len(data)-600 {
		t.Fatalf("after all but 200 bytes, the feed resumes at %v of %d", f.rows, len(data))
	}
	if len(f.rows.Ends) < 990 {
		t.Fatalf("%d rows indexed as they arrived", len(f.rows.Ends))
	}
}

// TestArrayFeedHalves: a long rest left when the bytes have all come is
// checked in two halves at once, and the outcome is still IndexArray's:
// for a good table, a bad byte in either half, an element that is not an
// object in the second, the bound of values passed in the second, a
// guess that falls inside a string, and bytes after the array that look
// like a row's beginning.
func TestArrayFeedHalves(t *testing.T) {
	defer runtime.GOMAXPROCS(max(runtime.GOMAXPROCS(0), 2))
	runtime.GOMAXPROCS(max(runtime.GOMAXPROCS(0), 2))
	table := string(benchdata.TableRows(30000)) // about 5 MB
	decoy := `{"id":0,"name":"},{\"id\":1,","status":"x"}`
	n := len(table)
	cases := map[string]string{
		"good":       table,
		"bad first":  strings.Replace(table, `"id":9000,`, `"id":9000,,`, 1),
		"bad second": strings.Replace(table, `"id":25000,`, `"id":25000 ,,`, 1),
		"not object": strings.Replace(table, `{"id":26000,`, `7,{"id":26000,`, 1),
		"decoy":      table[:n/2] + strings.Repeat(decoy[:0], 0) + strings.Replace(table[n/2:], `{"id":`, `{"note":"},{\"id\":","id":`, 3),
		"after":      table + `,"more":"},{"id":1}`,
		"after big":  table[:len(table)-1] + `]` + strings.Repeat(` "},{"id":`, 200000),
	}
	for name, c := range cases {
		data := []byte(c)
		for _, maxValues := range []int64{0, 2_000_000, 150_000} {
			end, values, rows, ok := IndexArray(data, 0, 100, maxValues)
			f := NewArrayFeed(100, maxValues, len(data))
			f.Feed(data[:100<<10])
			fend, fvalues, frows, fok := f.Result(data)
			if ok != fok || values != fvalues || ok && end != fend || (rows == nil) != (frows == nil) {
				t.Fatalf("%s (bound %d): (%d, %d, %v, rows %v), IndexArray (%d, %d, %v, rows %v)",
					name, maxValues, fend, fvalues, fok, frows != nil, end, values, ok, rows != nil)
			}
			if rows != nil && (!slices.Equal(rows.Members, frows.Members) || !slices.Equal(rows.Ends, frows.Ends)) {
				t.Fatalf("%s (bound %d): the index differs from IndexArray's", name, maxValues)
			}
		}
	}
}
