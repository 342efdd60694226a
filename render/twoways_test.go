package render

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/internal/benchdata"
)

// twoWaysInputs are arrays whose second half differs from the first in
// the ways the scan's second goroutine must notice: a row of another key
// order, a column first seen late, a duplicate key in the first row,
// rows with fewer or more keys, long ids that stop being ids, cells that
// need cleaning or cutting.
func twoWaysInputs() []string {
	row := func(i int) string {
		return fmt.Sprintf(`{"id":"%016x","name":"item %d","tags":["a",%d],"note":"row\t%d \u001b[31m 東京"}`, i*7919, i, i, i)
	}
	rows := func(n int, at map[int]string) string {
		var b strings.Builder
		b.WriteByte('[')
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			if r, ok := at[i]; ok {
				b.WriteString(r)
			} else {
				b.WriteString(row(i))
			}
		}
		b.WriteByte(']')
		return b.String()
	}
	return []string{
		rows(40, nil),
		rows(40, map[int]string{30: `{"name":"swapped","id":"x"}`}),
		rows(40, map[int]string{35: `{"id":"y","name":"n","tags":[],"note":"z","late":"a new column"}`}),
		rows(40, map[int]string{5: `{"early":1,"id":"e"}`, 33: `{"early":2}`}),
		rows(40, map[int]string{0: `{"id":"a","id":"b","name":"dup"}`}),
		rows(40, map[int]string{21: `{"id":"short row"}`, 22: `{}`}),
		rows(40, map[int]string{25: `{"id":"not an id at all, a sentence","name":"x"}`}),
		rows(40, map[int]string{3: `{"id":"not an id at all, a sentence","name":"x"}`}),
		rows(40, map[int]string{39: `{"id":"\u0069d","name":"last"}`}),
		rows(3, nil), rows(2, nil),
		`[{"a":1},{"a":2},{"b":3},{"a":4,"b":5}]`,
	}
}

// TestTableTwoWays: a table scanned and written on two goroutines is byte
// for byte the one made on one, whatever its second half holds.
func TestTableTwoWays(t *testing.T) {
	defer runtime.GOMAXPROCS(max(runtime.GOMAXPROCS(0), 2))
	runtime.GOMAXPROCS(max(runtime.GOMAXPROCS(0), 2))
	old := parallelRows
	defer func() { parallelRows = old }()
	inputs := append(twoWaysInputs(), rowsInputs...)
	for _, in := range inputs {
		for _, o := range append(rowsOptions, Options{Width: 200}, Options{TTY: true, Width: 20}) {
			parallelRows = math.MaxInt
			want := rendered(t, FromResult(json.RawMessage(in)), o)
			parallelRows = 2
			if got := rendered(t, FromResult(json.RawMessage(in)), o); got != want {
				t.Errorf("%.60s (%+v): on two goroutines\n%q\nwant\n%q", in, o, got, want)
			}
		}
	}
}

// failAfter fails its writes once n bytes have been written.
type failAfter struct{ n int }

func (f *failAfter) Write(p []byte) (int, error) {
	if f.n -= len(p); f.n < 0 {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

// TestTableTwoWaysWriteError: a write that fails while the second half
// is being made ends the table with that error, and the second
// goroutine with it.
func TestTableTwoWaysWriteError(t *testing.T) {
	defer runtime.GOMAXPROCS(max(runtime.GOMAXPROCS(0), 2))
	runtime.GOMAXPROCS(max(runtime.GOMAXPROCS(0), 2))
	data := benchdata.TableRows(30000) // about 3 MB of lines
	before := runtime.NumGoroutine()
	for _, at := range []int{10, 100 << 10, 1 << 20, 2500 << 10} {
		err := Write(&failAfter{n: at}, nil, FromResult(json.RawMessage(data)), Options{Width: 120})
		if err == nil || err.Error() != "disk full" {
			t.Errorf("failing after %d bytes: %v", at, err)
		}
	}
	for i := 0; runtime.NumGoroutine() > before && i < 100; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines left running, %d before", n, before)
	}
}
