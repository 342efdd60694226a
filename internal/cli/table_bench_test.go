package cli

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/jsontext"
	"github.com/agsh-dev/agsh/render"
)

// BenchmarkTable100kStages times the held 100,000-row table of
// BenchmarkLargeAnswer stage by stage, in-process, the output written to a
// file as scripts/bench-large.sh's table100k writes it: "call" is the
// call's answer received and decoded (catalog: read, checked, indexed and
// its values counted in one pass), "render" the table rendered from that
// result (render: columns, layout, lines), "whole" both.
//
//	go test ./internal/cli -run '^$' -bench Table100kStages -benchtime 20x
func BenchmarkTable100kStages(b *testing.B) {
	answer := tableEnvelope(100000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(answer)))
		_, _ = w.Write(answer)
	}))
	b.Cleanup(srv.Close)
	c, err := catalog.New(srv.URL, catalog.Options{})
	if err != nil {
		b.Fatal(err)
	}
	out, err := os.Create(filepath.Join(b.TempDir(), "table.txt"))
	if err != nil {
		b.Fatal(err)
	}
	defer out.Close()
	ctx := catalog.WithRows(context.Background())
	call := func(b *testing.B) *catalog.CallResult {
		res, err := c.CallStream(ctx, "list_changes", nil, catalog.Binding{}, func() io.Writer { return io.Discard })
		if err != nil || !res.Checked || res.Rows == nil {
			b.Fatalf("%v checked %v", err, res != nil && res.Checked)
		}
		return res
	}
	draw := func(b *testing.B, res *catalog.CallResult, rows *jsontext.Rows) {
		if _, err := out.Seek(0, io.SeekStart); err != nil {
			b.Fatal(err)
		}
		v := render.FromCheckedResult(res.Result, rows)
		if err := render.Write(out, io.Discard, v, render.Options{Width: 120}); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("call", func(b *testing.B) {
		b.SetBytes(int64(len(answer)))
		b.ReportAllocs()
		for b.Loop() {
			call(b)
		}
	})
	b.Run("render", func(b *testing.B) {
		res := call(b)
		b.SetBytes(int64(len(answer)))
		b.ReportAllocs()
		for b.Loop() {
			// A fresh index each time, as each call brings: the table
			// rewrites the one it is given.
			b.StopTimer()
			rows := &jsontext.Rows{Members: slices.Clone(res.Rows.Members), Ends: res.Rows.Ends}
			b.StartTimer()
			draw(b, res, rows)
		}
	})
	b.Run("whole", func(b *testing.B) {
		b.SetBytes(int64(len(answer)))
		b.ReportAllocs()
		for b.Loop() {
			res := call(b)
			draw(b, res, res.Rows)
		}
	})
}
