package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/testtier"
	"github.com/agsh-dev/agsh/internal/wire"
)

// callStream calls a tool whose answer is body, offering a stream.
func callStream(t *testing.T, body string) (*CallResult, []byte, bool, error) {
	t.Helper()
	streamSmall(t)
	c, _ := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		writeJSON(w, 200, body)
	})
	var got bytes.Buffer
	asked := false
	res, err := c.CallStream(context.Background(), "read", nil, Binding{}, func() io.Writer {
		asked = true
		return &got
	})
	return res, got.Bytes(), asked, err
}

// streamSmall streams answers of any length for the test.
func streamSmall(t *testing.T) {
	old := streamMin
	streamMin = 0
	t.Cleanup(func() { streamMin = old })
}

// TestCallStreamSmallHeld: a short answer is held, as before.
func TestCallStreamSmallHeld(t *testing.T) {
	body := `{"ok":true,"isError":false,"result":"short"}`
	c, _ := serve(t, "", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, body) })
	res, err := c.CallStream(context.Background(), "read", nil, Binding{}, func() io.Writer { return io.Discard })
	if err != nil || res.Streamed || string(res.Result) != `"short"` {
		t.Fatalf("%+v %v", res, err)
	}
}

// TestCallStreamText: ok true and isError false before a string result:
// the string's content streams as received, the rest of the answer is
// decoded as Call decodes it.
func TestCallStreamText(t *testing.T) {
	body := `{"ok":true,"isError":false,"toolName":"read","callId":"c1", "result" : "line\n\"two\"\u00e9\ud83d\ude00","durationMs":12.50,"sessionId":"ses_1","scratchWorkspace":true}`
	res, got, _, err := callStream(t, body)
	if err != nil {
		t.Fatal(err)
	}
	if want := `line\n\"two\"\u00e9\ud83d\ude00`; string(got) != want {
		t.Fatalf("streamed %q, want %q", got, want)
	}
	want := CallResult{CallResult: wire.CallResult{OK: true, ToolName: "read", CallID: "c1", DurationMs: "12.50", SessionID: "ses_1", ScratchWorkspace: true}, Streamed: true}
	if !reflect.DeepEqual(*res, want) {
		t.Fatalf("result %+v, want %+v", *res, want)
	}
}

// TestCallStreamHeld: any other answer is held and decoded as Call does.
func TestCallStreamHeld(t *testing.T) {
	for _, body := range []string{
		`{"ok":true,"toolName":"read","result":"x","isError":false}`,
		`{"result":"x","ok":true,"isError":false}`,
		`{"ok":true,"isError":true,"result":"x"}`,
		`{"ok":true,"isError":false,"result":{"content":[]}}`,
		`{"ok":true,"isError":false,"result":["x"]}`,
		`{"ok":true,"isError":false,"Result":"x"}`,
		`{"OK":true,"isError":false,"result":"x"}`,
		`{"ok":true,"iserror":false,"isError":false,"result":"x"}`,
		`{"ok":true,"ok":true,"isError":false,"result":"x"}`,
		`{"ok":true,"isError":false,"n":01,"result":"x"}`,
		`{"ok":true,"isError":false,"r\u0065sult":"x"}`,
		`{"ok":1,"isError":false,"result":"x"}`,
		`[]`, `"text"`, `{}`,
	} {
		res, got, _, err := callStream(t, body)
		c, _ := serve(t, "", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, body) })
		want, werr := c.Call(context.Background(), "read", nil, Binding{})
		if len(got) != 0 {
			t.Errorf("%s: streamed %q", body, got)
		}
		if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
			t.Errorf("%s: error %v, Call's %v", body, err, werr)
			continue
		}
		if err == nil && !reflect.DeepEqual(res, want) {
			t.Errorf("%s: %+v, Call's %+v", body, res, want)
		}
	}
}

// TestCallStreamBroken: an answer that breaks off or goes wrong after the
// stream began is an error (exit 5), the result still marked Streamed.
func TestCallStreamBroken(t *testing.T) {
	for body, want := range map[string]string{
		`{"ok":true,"isError":false,"result":"abc`:                                      "cut short",
		`{"ok":true,"isError":false,"result":"a\qb"}`:                                   "unexpected shape",
		"{\"ok\":true,\"isError\":false,\"result\":\"a\x01b\"}":                         "unexpected shape",
		`{"ok":true,"isError":false,"result":"ab"`:                                      "cut short",
		`{"ok":true,"isError":false,"result":"ab","x":}`:                                "not the expected JSON",
		`{"ok":true,"isError":false,"result":"ab","error":"boom","message":"it broke"}`: "it broke",
	} {
		res, got, _, err := callStream(t, body)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", body, err, want)
		}
		if res == nil || !res.Streamed {
			t.Errorf("%s: result %+v not marked streamed", body, res)
		}
		if len(got) == 0 && !strings.Contains(body, `a\q`) && !strings.Contains(body, "\x01") {
			t.Errorf("%s: nothing streamed", body)
		}
	}
}

// TestCallStreamFlatBig: a 50 MB streamed result is not held: the memory
// allocated while it streams stays far below its size.
func TestCallStreamFlatBig(t *testing.T) {
	testtier.Big(t)
	var text strings.Builder
	for i := 1; text.Len() < 50<<20; i++ {
		fmt.Fprintf(&text, "%6d|log line %d of the big file\n", i, i)
	}
	result, _ := json.Marshal(text.String())
	body := append(append([]byte(`{"ok":true,"isError":false,"result":`), result...), `,"toolName":"read"}`...)
	srv := serveBody(t, body)
	c, err := New(srv.URL, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var n countWriter
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res, err := c.CallStream(context.Background(), "read", json.RawMessage(`{}`), Binding{}, func() io.Writer { return &n })
	runtime.ReadMemStats(&after)
	if err != nil || !res.Streamed {
		t.Fatalf("not streamed: %v", err)
	}
	if int(n) < 50<<20 {
		t.Fatalf("streamed %d bytes", n)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
		t.Fatalf("%d MiB allocated to stream a 50 MiB result", alloc>>20)
	}
}

type countWriter int

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }

// declaredWriter records what it is told of the answer's declared length.
type declaredWriter struct {
	bytes.Buffer
	told []int64
}

func (d *declaredWriter) Declared(n int64) { d.told = append(d.told, n) }

// TestCallStreamDeclared: a writer that takes it (jsontext.Declared) is
// told, once and before the text, how many bytes of a declared answer
// follow the string's opening quote; of an answer of unknown length it is
// told nothing.
func TestCallStreamDeclared(t *testing.T) {
	streamSmall(t)
	body := `{"ok":true,"isError":false, "result":"line\none","durationMs":12}`
	for _, declared := range []bool{true, false} {
		c, _ := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			if !declared {
				w.WriteHeader(200)
				w.(http.Flusher).Flush() // chunked: no declared length
			}
			_, _ = io.WriteString(w, body)
		})
		var got declaredWriter
		res, err := c.CallStream(context.Background(), "read", nil, Binding{}, func() io.Writer { return &got })
		if err != nil || !res.Streamed || got.String() != `line\none` {
			t.Fatalf("declared %v: %+v %q %v", declared, res, got.String(), err)
		}
		want := []int64{int64(len(body) - strings.Index(body, `"line`) - 1)}
		if !declared {
			want = nil
		}
		if !reflect.DeepEqual(got.told, want) {
			t.Errorf("declared %v: told %v, want %v", declared, got.told, want)
		}
	}
}
