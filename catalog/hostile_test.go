package catalog

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A call is a success only when its answer is a call's answer.
func TestCallAnswerShape(t *testing.T) {
	bad := []struct{ body, problem string }{
		{`{}`, `it has neither "result" nor "isError"`},
		{`[]`, `it is not a JSON object`},
		{`"str"`, `it is not a JSON object`},
		{`null`, `it is not a JSON object`},
		{`{"ok":true}`, `it has neither "result" nor "isError"`},
		{`{"ok":false}`, `"ok" is false and no error code is given`},
		{`{"ok":false,"result":"x"}`, `"ok" is false and no error code is given`},
		{`{"ok":true,"result":"a"} {"x":1}`, `more follows the JSON object`},
		{`{"ok":true,"result":"a"}garbage`, `more follows the JSON object`},
		{`{"ok":true,"result":"a","result":"b"}`, `"result" appears more than once`},
		{`{"ok":true,"result":"a","Result":"b"}`, `"result" appears more than once`},
		{`{"ok":true,"result":"a","res\u0075lt":"b"}`, `"result" appears more than once`},
		{`{"ok":true,"result":{"x":1},"result":"b"}`, `"result" appears more than once`},
		{`{"ok":false,"ok":true,"result":"x"}`, `"ok" appears more than once`},
		{`{"OK":false,"ok":true,"result":"x"}`, `"ok" appears more than once`},
		{`{"ok":true,"isError":true,"isError":false,"result":"x"}`, `"isError" appears more than once`},
	}
	for _, tt := range bad {
		t.Run(tt.body, func(t *testing.T) {
			c, _ := serve(t, "", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, tt.body) })
			_, err := c.Call(ctxT(t), "echo", nil, Binding{})
			e := wantError(t, err, CodeBadResponse, ExitUnreachable, "")
			if !strings.Contains(e.Error(), "("+tt.problem+")") || strings.Contains(e.Error(), "\n") {
				t.Errorf("text = %q, want one line naming %q", e.Error(), tt.problem)
			}
		})
	}
	good := []struct {
		body    string
		isError bool
		result  string
	}{
		{`{"ok":true,"isError":false}`, false, ""},
		{`{"isError":true}`, true, ""},
		{`{"ok":true,"isError":true}`, true, ""},
		{`{"result":"x"}`, false, `"x"`},
		{`{"ok":true,"toolName":"echo","isError":false,"result":{"a":[1,2]},"durationMs":3}`, false, `{"a":[1,2]}`},
		{` {"ok":true,"result":null} ` + "\n", false, `null`},
	}
	for _, tt := range good {
		t.Run(tt.body, func(t *testing.T) {
			c, _ := serve(t, "", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, tt.body) })
			res, err := c.Call(ctxT(t), "echo", nil, Binding{})
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError != tt.isError || string(res.Result) != tt.result {
				t.Errorf("isError/result = %v/%s, want %v/%s", res.IsError, res.Result, tt.isError, tt.result)
			}
		})
	}
}

// endless writes "[" and then elements forever (until the client goes).
func endless(w http.ResponseWriter, head string) {
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, head)
	chunk := strings.Repeat(`"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",`, 1000)
	for {
		if _, err := io.WriteString(w, chunk); err != nil {
			return
		}
	}
}

// Every answer is bounded after decompression: an endless listing, an
// endless call answer and a gzip bomb end with exit 5 naming the limit.
func TestAnswerBounds(t *testing.T) {
	// The bomb: 64 MiB of JSON in about 64 KiB of gzip, as one member per
	// MiB (a gzip reader reads the members of a stream one after another):
	// one MiB compressed once and repeated, not 64 compressed.
	member := func(text []byte) []byte {
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		zw.Write(text)
		zw.Close()
		return b.Bytes()
	}
	var bomb bytes.Buffer
	bomb.Write(member([]byte(`{"ok":true,"result":"`)))
	mib := member(bytes.Repeat([]byte("a"), 1<<20))
	for i := 0; i < 64; i++ {
		bomb.Write(mib)
	}
	bomb.Write(member([]byte(`"}`)))
	cases := []struct {
		name    string
		call    bool
		handler http.HandlerFunc
		want    string
	}{
		{"endless listing", false, func(w http.ResponseWriter, r *http.Request) { endless(w, `{"ok":true,"tools":[`) },
			"the answer to GET /v1/tools is larger than 1 MiB (1048576 bytes), agsh's limit for one answer; set X to raise it"},
		{"endless call", true, func(w http.ResponseWriter, r *http.Request) { endless(w, `{"ok":true,"result":[`) },
			"the answer to POST /v1/tools/echo is larger than 2 MiB (2097152 bytes), agsh's limit for one answer; set X to raise it"},
		{"gzip bomb", true, func(w http.ResponseWriter, r *http.Request) {
			if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
				t.Error("client did not ask for gzip")
			}
			w.Header().Set("Content-Encoding", "gzip")
			w.Header().Set("Content-Type", "application/json")
			w.Write(bomb.Bytes())
		}, "the answer to POST /v1/tools/echo is larger than 2 MiB (2097152 bytes), agsh's limit for one answer; set X to raise it"},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.handler)
			defer srv.Close()
			o := fastOptions()
			o.MaxListingBytes, o.MaxAnswerBytes, o.LimitHint = 1<<20, 2<<20, "set X to raise it"
			c, err := New(srv.URL, o)
			if err != nil {
				t.Fatal(err)
			}
			if tt.call {
				_, err = c.Call(ctxT(t), "echo", nil, Binding{})
			} else {
				_, err = c.Tools(ctxT(t), Binding{})
			}
			wantError(t, err, CodeBadResponse, ExitUnreachable, tt.want)
		})
	}
	// An answer of exactly the limit is whole.
	body := `{"ok":true,"result":"` + strings.Repeat("b", 1000) + `"}`
	c, _ := serve(t, "", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, body) })
	c.opts.MaxAnswerBytes = int64(len(body))
	if _, err := c.Call(ctxT(t), "echo", nil, Binding{}); err != nil {
		t.Errorf("answer of exactly the limit: %v", err)
	}
	c.opts.MaxAnswerBytes = int64(len(body)) - 1
	_, err := c.Call(ctxT(t), "echo", nil, Binding{})
	wantError(t, err, CodeBadResponse, ExitUnreachable, "")
}

// trickle sends head and then one byte every pause until the client goes.
func trickle(w http.ResponseWriter, head string, pause time.Duration) {
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, head)
	w.(http.Flusher).Flush()
	for {
		time.Sleep(pause)
		if _, err := io.WriteString(w, " "); err != nil {
			return
		}
		w.(http.Flusher).Flush()
	}
}

// A GET whose body trickles ends when its whole time is up; a POST whose
// body stalls after the headers ends after the stall timeout.
func TestTrickleAndStall(t *testing.T) {
	c, _ := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			trickle(w, `{"ok":true,"tools":[`, 20*time.Millisecond)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true,"result":"`)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	c.opts.GetTimeout = 500 * time.Millisecond
	c.opts.StallTimeout = 300 * time.Millisecond
	_, err := c.Tools(ctxT(t), Binding{})
	wantError(t, err, CodeTimeout, ExitUnreachable,
		"deployment did not answer: its answer to GET /v1/tools did not arrive whole within 500ms")
	_, err = c.Call(ctxT(t), "echo", nil, Binding{})
	wantError(t, err, CodeTimeout, ExitUnreachable,
		"deployment stopped answering: its answer to POST /v1/tools/echo stalled for 300ms after it began; "+
			"the call may have completed on the deployment")
}

func TestParseByteSize(t *testing.T) {
	for in, want := range map[string]int64{"134217728": 128 << 20, "128MiB": 128 << 20, "128M": 128 << 20,
		"64 KiB": 64 << 10, "1G": 1 << 30, "1000": 1000, "2GB": 2 << 30} {
		if got, ok := ParseByteSize(in); !ok || got != want {
			t.Errorf("ParseByteSize(%q) = %d, %v; want %d", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "0", "-1", "abc", "1.5M", "MiB", "99999999999999999999"} {
		if _, ok := ParseByteSize(in); ok {
			t.Errorf("ParseByteSize(%q) accepted", in)
		}
	}
}

// Past its JSON values bound (one per 64 bytes of a call's byte bound) an
// answer ends like one past its bytes: agsh holds every value, and 20 MiB
// of zeros would take 2 GiB. Brackets and commas inside strings (escaped
// quotes included) are not values.
func TestAnswerValueBound(t *testing.T) {
	dense := `{"ok":true,"result":[0` + strings.Repeat(",0", 20000) + `]}`
	inString := `{"ok":true,"result":"` + strings.Repeat(`[{,\"\\`, 20000) + `"}`
	c, _ := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/tools/dense" {
			writeJSON(w, 200, dense)
			return
		}
		writeJSON(w, 200, inString)
	})
	c.opts.MaxAnswerBytes = 64 << 10 // 1024 values
	c.opts.LimitHint = "set X to raise it"
	_, err := c.Call(ctxT(t), "dense", nil, Binding{})
	wantError(t, err, CodeBadResponse, ExitUnreachable,
		"the answer to POST /v1/tools/dense holds more than 1024 JSON values, agsh's limit for one answer of up to 64 KiB (65536 bytes); set X to raise it")
	c.opts.MaxAnswerBytes = 2 << 20
	if _, err := c.Call(ctxT(t), "dense", nil, Binding{}); err != nil {
		t.Errorf("20,000 values within a 2 MiB bound: %v", err)
	}
	c.opts.MaxAnswerBytes = 256 << 10
	res, err := c.Call(ctxT(t), "text", nil, Binding{})
	if err != nil || len(res.Result) != len(inString)-len(`{"ok":true,"result":}`) {
		t.Errorf("brackets inside a string counted: %v", err)
	}
}

// The value count is the same however the answer is cut into reads.
func TestValueCountAcrossReads(t *testing.T) {
	inputs := []string{
		`{"a":[1,2,{"b":"x,y[{"}],"c":"q\"u,o\\","d":"\\\\\"[,"}`,
		`["\\\\",",",{"k":"\\\"\\"},[[[]]],"end\\\\\\"x,"]`,
		`"` + strings.Repeat(`\\`, 7) + `\",,," , [1]`,
	}
	for _, in := range inputs {
		whole := &boundedReader{r: strings.NewReader(in), limit: 1 << 20, maxValues: 1 << 20}
		io.Copy(io.Discard, whole)
		want := 0
		// The reference: a plain walk of the whole input.
		inStr, esc := false, false
		for i := 0; i < len(in); i++ {
			c := in[i]
			switch {
			case esc:
				esc = false
			case inStr && c == '\\':
				esc = true
			case inStr && c == '"':
				inStr = false
			case inStr:
			case c == '"':
				inStr = true
			case c == ',' || c == '[' || c == '{':
				want++
			}
		}
		if whole.values != int64(want) {
			t.Errorf("%s: %d values, want %d", in, whole.values, want)
		}
		for size := 1; size < 8; size++ {
			cut := &boundedReader{r: &chunked{s: in, size: size}, limit: 1 << 20, maxValues: 1 << 20}
			io.Copy(io.Discard, cut)
			if cut.values != int64(want) {
				t.Errorf("%s in reads of %d: %d values, want %d", in, size, cut.values, want)
			}
		}
	}
}

// What net/http quotes of a broken answer (a malformed header line of
// hundreds of KiB) and a Content-Type that does not parse are cut short:
// a message stays one readable line.
func TestLongHeaderTextsClipped(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				buf := make([]byte, 4096)
				conn.Read(buf)
				io.WriteString(conn, "HTTP/1.1 200 OK\r\nX-Junk: "+strings.Repeat("x", 200<<10)+"\x01\r\n\r\n")
			}()
		}
	}()
	c, _ := New("http://"+ln.Addr().String(), fastOptions())
	_, err = c.Call(ctxT(t), "echo", nil, Binding{})
	if err == nil || len(err.Error()) > 1000 || !strings.Contains(err.Error(), "malformed MIME header") {
		t.Errorf("malformed header: %d bytes: %.200s", len(fmt.Sprint(err)), err)
	}
	c, _ = serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", strings.Repeat("y", 100<<10)+"/")
		w.WriteHeader(500)
		io.WriteString(w, "oops")
	})
	_, err = c.Call(ctxT(t), "echo", nil, Binding{})
	if err == nil || len(err.Error()) > 1000 || !strings.Contains(err.Error(), "yyy…") {
		t.Errorf("long Content-Type: %d bytes: %.200s", len(fmt.Sprint(err)), err)
	}
}

// TestHeldAnswerValueBound: an answer whose length is declared is read
// whole and its values counted by the check that reads it (hold), on
// every way a call's answer is held (Call; CallStream of an array; a
// table's rows asked): the same bound and the same message as the
// reader's count, brackets inside strings not counted, and a table's
// rows given only within the bound.
func TestHeldAnswerValueBound(t *testing.T) {
	streamSmall(t)
	dense := `{"ok":true,"result":[0` + strings.Repeat(",0", 20000) + `]}`
	rows := `{"ok":true,"isError":false,"result":[{}` + strings.Repeat(`,{}`, 20000) + `]}`
	inString := `{"ok":true,"result":["` + strings.Repeat(`[{,\"\\`, 20000) + `"]}`
	bad := `{"ok":true,"result":[0` + strings.Repeat(",0", 20000) + `,]}`
	c, _ := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		body := map[string]string{"/v1/tools/dense": dense, "/v1/tools/rows": rows, "/v1/tools/text": inString, "/v1/tools/bad": bad}[r.URL.Path]
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		writeJSON(w, 200, body)
	})
	c.opts.LimitHint = "set X to raise it"
	calls := map[string]func(ctx context.Context, tool string) (*CallResult, error){
		"Call": func(ctx context.Context, tool string) (*CallResult, error) { return c.Call(ctx, tool, nil, Binding{}) },
		"CallStream": func(ctx context.Context, tool string) (*CallResult, error) {
			return c.CallStream(ctx, tool, nil, Binding{}, func() io.Writer { return io.Discard })
		},
		"WithRows": func(ctx context.Context, tool string) (*CallResult, error) {
			return c.CallStream(WithRows(ctx), tool, nil, Binding{}, func() io.Writer { return io.Discard })
		},
	}
	for name, call := range calls {
		for _, tool := range []string{"dense", "rows", "bad"} {
			c.opts.MaxAnswerBytes = 64 << 10 // 1024 values
			_, err := call(ctxT(t), tool)
			wantError(t, err, CodeBadResponse, ExitUnreachable,
				"the answer to POST /v1/tools/"+tool+" holds more than 1024 JSON values, agsh's limit for one answer of up to 64 KiB (65536 bytes); set X to raise it")
		}
		c.opts.MaxAnswerBytes = 4 << 20
		for _, tool := range []string{"dense", "rows"} {
			res, err := call(ctxT(t), tool)
			if err != nil || !res.Checked {
				t.Errorf("%s %s: 40,000 values within a 4 MiB bound: %v", name, tool, err)
				continue
			}
			if want := name == "WithRows" && tool == "rows"; (res.Rows != nil) != want || want && len(res.Rows.Ends) != 20001 {
				t.Errorf("%s %s: rows %v, want %v", name, tool, res.Rows != nil, want)
			}
		}
		if _, err := call(ctxT(t), "bad"); err == nil || strings.Contains(err.Error(), "JSON values") {
			t.Errorf("%s: an invalid answer within the bound: %v", name, err)
		}
		c.opts.MaxAnswerBytes = 256 << 10
		if res, err := call(ctxT(t), "text"); err != nil || len(res.Result) != len(inString)-len(`{"ok":true,"result":}`) {
			t.Errorf("%s: brackets inside a string counted: %v", name, err)
		}
	}
}
