package jsontext

import (
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
