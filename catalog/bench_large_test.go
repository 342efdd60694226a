package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/jsontext"
)

// Benchmarks of large answers: a 10,000-tool listing and a 50 MB call, held
// and streamed. render, curated and internal/resultstream hold the others of
// the same sizes, scripts/bench-large.sh those of the built binary.

// listing10k is a GET /v1/tools body of 10,000 tools: a quarter authored,
// the rest in 40 connections.
func listing10k() []byte {
	var b bytes.Buffer
	b.WriteString(`{"ok":true,"tools":[`)
	for i := 0; i < 10000; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		if i%4 == 0 {
			fmt.Fprintf(&b, `{"name":"tool_%05d","title":"Does thing number %d","source":{"kind":"authored"}}`, i, i)
		} else {
			fmt.Fprintf(&b, `{"name":"conn%02d_tool_%05d","title":"A connection tool, number %d","source":{"kind":"connection","connection":"conn%02d"}}`, i%40, i, i, i%40)
		}
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// serveBody answers every request with body.
func serveBody(tb testing.TB, body []byte) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	tb.Cleanup(srv.Close)
	return srv
}

// BenchmarkTools10k is the listing of `agsh help` with 10,000 tools: GET
// /v1/tools on loopback and its decoding.
func BenchmarkTools10k(b *testing.B) {
	body := listing10k()
	srv := serveBody(b, body)
	c, err := New(srv.URL, Options{})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		tools, err := c.Tools(ctx, Binding{})
		if err != nil || len(tools) != 10000 {
			b.Fatal(len(tools), err)
		}
	}
}

// BenchmarkTools10kRaw is its baseline: the same GET with a bare net/http
// client, the body read and thrown away (what curl does).
func BenchmarkTools10kRaw(b *testing.B) {
	body := listing10k()
	srv := serveBody(b, body)
	hc := NewHTTPClient()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		resp, err := hc.Get(srv.URL + "/v1/tools")
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
	}
}

// textAnswer is a call answer whose result is mb MiB of read-style text.
func textAnswer(mb int) []byte {
	var t strings.Builder
	for i := 1; t.Len() < mb<<20; i++ {
		if i > 1 {
			t.WriteByte('\n')
		}
		fmt.Fprintf(&t, "%6d|log line %d of the big file, with some text to make it longer", i, i)
	}
	body, _ := json.Marshal(map[string]any{"ok": true, "toolName": "read", "callId": "c1", "isError": false, "result": t.String()})
	return body
}

// BenchmarkCallText50MB is a call whose answer is a 50 MB text result: the
// request, the answer read and decoded.
func BenchmarkCallText50MB(b *testing.B) {
	body := textAnswer(50)
	srv := serveBody(b, body)
	c, err := New(srv.URL, Options{})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Call(ctx, "read", json.RawMessage(`{"path":"/repo/big.log"}`), Binding{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCallStreamText50MB is a call whose 50 MB text result streams (ok
// and isError before it): the request, the answer read, the string checked
// and written through to io.Discard.
func BenchmarkCallStreamText50MB(b *testing.B) {
	body := textAnswer(50)
	srv := serveBody(b, body)
	c, err := New(srv.URL, Options{})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	stream := func() io.Writer { return io.Discard }
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		res, err := c.CallStream(ctx, "read", json.RawMessage(`{"path":"/repo/big.log"}`), Binding{}, stream)
		if err != nil || !res.Streamed {
			b.Fatal(res, err)
		}
	}
}

// BenchmarkStringCheck is the check of a streamed result string alone: 50 MB
// of read-style content (an escape every 62 bytes) in 64 KiB chunks, as they
// arrive.
func BenchmarkStringCheck(b *testing.B) {
	body := textAnswer(50)
	start := bytes.Index(body, []byte(`"result":"`)) + len(`"result":"`)
	content := body[start:]
	b.SetBytes(int64(len(content)))
	for b.Loop() {
		var d jsontext.StringStream
		for p := content; len(p) > 0; {
			n := min(len(p), 64<<10)
			_, done, _, err := d.Feed(p[:n], discardRuns{})
			if err != nil {
				b.Fatal(err)
			}
			if done {
				break
			}
			p = p[n:]
		}
	}
}
