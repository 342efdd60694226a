package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// BenchmarkCall measures the client's overhead of one invocation on
// loopback: encoding, the request, the answer's decoding.
func BenchmarkCall(b *testing.B) {
	const answer = `{"ok":true,"toolName":"read","callId":"call_1","isError":false,` +
		`"result":"     1|{\n     2|  \"name\": \"change-monitor\",","durationMs":12,"sessionId":"ses_1"}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, answer)
	}))
	defer srv.Close()
	c, err := New(srv.URL+"/executor", Options{BearerToken: testToken})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	input := json.RawMessage(`{"path":"/repo/README.md","limit":2}`)
	bind := Binding{SessionID: "ses_1"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Call(ctx, "read", input, bind); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkToolBound measures the default binding's detail and sessions
// fetched in parallel on loopback.
func BenchmarkToolBound(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/v1/sessions" {
			_, _ = io.WriteString(w, sessionsBody)
			return
		}
		_, _ = io.WriteString(w, `{"ok":true,"tool":{"name":"read","inputSchema":{"type":"object"}}}`)
	}))
	defer srv.Close()
	c, err := New(srv.URL, Options{})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := c.ToolBound(ctx, "read", Binding{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRawPost is the baseline of BenchmarkCall: the same exchange
// with a bare net/http client and encoding/json, no catalog.
func BenchmarkRawPost(b *testing.B) {
	const answer = `{"ok":true,"toolName":"read","callId":"call_1","isError":false,` +
		`"result":"     1|{\n     2|  \"name\": \"change-monitor\",","durationMs":12,"sessionId":"ses_1"}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, answer)
	}))
	defer srv.Close()
	hc := NewHTTPClient()
	body := []byte(`{"input":{"path":"/repo/README.md","limit":2},"sessionId":"ses_1"}`)
	b.ReportAllocs()
	for b.Loop() {
		resp, err := hc.Post(srv.URL+"/executor/v1/tools/read", "application/json", bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		var res CallResult
		if err := json.NewDecoder(resp.Body).Decode(&res); err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
	}
}

// BenchmarkAnswerReaders reads a 16 MiB call answer (a text result) through
// the secret masking and the bounds every answer now passes.
func BenchmarkAnswerReaders(b *testing.B) {
	text := strings.Repeat(`line of a file, with "quotes" and \\ a backslash\n`, 16<<20/52)
	data := []byte(`{"ok":true,"result":"` + text + `"}`)
	b.SetBytes(int64(len(data)))
	b.Run("mask", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			io.Copy(io.Discard, newRedactReader(bytes.NewReader(data), []string{"tok_abcdef123456"}))
		}
	})
	b.Run("bound", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			io.Copy(io.Discard, &boundedReader{r: bytes.NewReader(data), limit: 1 << 30, maxValues: 1 << 24})
		}
	})
	b.Run("plain", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			io.Copy(io.Discard, bytes.NewReader(data))
		}
	})
}
