package catalog

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/internal/benchdata"
	"github.com/agsh-dev/agsh/internal/jsontext"
)

// ports are the addresses in a network error, which differ call by call.
var ports = regexp.MustCompile(`[0-9.]+:[0-9]+`)

// TestFedRows: a held array answer whose rows are checked as it arrives
// (readFed) gives what the answer read whole gives: the same rows, the
// same result, and for a bad or cut answer the same error. The answers
// arrive in pieces with pauses, so that the feed runs between them.
func TestFedRows(t *testing.T) {
	streamSmall(t)
	table := string(benchdata.TableRows(3000)) // about 500 KB
	head := `{"ok":true,"toolName":"t","isError":false,"result":`
	answers := map[string]string{
		"rows":      head + table + `}`,
		"late":      head + table + `,"note":"after"}`,
		"badrow":    head + strings.Replace(table, `"id":2500,`, `"id":2500,,`, 1) + `}`,
		"ctrl":      head + strings.Replace(table, `"id":2999,`, "\"id\":\"\x01\",", 1) + `}`,
		"notobject": head + strings.Replace(table, `{"id":1500,`, `7,{"id":1500,`, 1) + `}`,
		"twice":     head + table + `,"result":[]}`,
		"iserror":   `{"ok":true,"isError":true,"result":` + table + `}`,
		"tail":      head + table + `,}`,
	}
	cut := map[string]bool{"cut": true}
	answers["cut"] = head + table + `}`
	piece := 64 << 10
	c, _ := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/v1/tools/")
		body := answers[name]
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		if cut[name] {
			body = body[:len(body)*2/3] // then the connection closes
		}
		f := w.(http.Flusher)
		for len(body) > 0 {
			n := min(piece, len(body))
			_, _ = io.WriteString(w, body[:n])
			f.Flush()
			body = body[n:]
			time.Sleep(2 * time.Millisecond)
		}
		if cut[name] {
			if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
				_ = conn.(*net.TCPConn).SetLinger(0)
				conn.Close()
			}
		}
	})
	c.opts.MaxAnswerBytes = 16 << 20
	for name := range answers {
		plain, perr := c.CallStream(ctxT(t), name, nil, Binding{}, func() io.Writer { return io.Discard })
		fed, ferr := c.CallStream(WithRows(ctxT(t)), name, nil, Binding{}, func() io.Writer { return io.Discard })
		if (perr == nil) != (ferr == nil) || perr != nil && ports.ReplaceAllString(perr.Error(), "") != ports.ReplaceAllString(ferr.Error(), "") {
			t.Errorf("%s: error %v, read whole %v", name, ferr, perr)
			continue
		}
		if perr != nil {
			continue
		}
		if string(fed.Result) != string(plain.Result) || fed.IsError != plain.IsError || fed.Checked != plain.Checked {
			t.Errorf("%s: the result differs from the answer read whole", name)
		}
		_, _, want, _ := jsontext.IndexArray(plain.Result, 0, spliceDepth, 0)
		if (want == nil) != (fed.Rows == nil) {
			t.Errorf("%s: rows %v, want %v", name, fed.Rows != nil, want != nil)
			continue
		}
		if want != nil && (!slices.Equal(want.Members, fed.Rows.Members) || !slices.Equal(want.Ends, fed.Rows.Ends)) {
			t.Errorf("%s: the rows differ from IndexArray's over the result", name)
		}
	}
	if _, ok := answers["rows"]; ok {
		res, err := c.CallStream(WithRows(context.Background()), "rows", nil, Binding{}, func() io.Writer { return io.Discard })
		if err != nil || res.Rows == nil || len(res.Rows.Ends) != 3000 {
			t.Fatalf("rows: %v, %v", res, err)
		}
	}
}

// TestReadFedFeeds: readFed checks the rows while the answer arrives
// (most of it is checked before the last byte comes), returns every byte
// read, and the error that cut the reads short.
func TestReadFedFeeds(t *testing.T) {
	answer := []byte(`{"ok":true,"result":` + string(benchdata.TableRows(5000)) + `}`)
	at := bytes.IndexByte(answer, '[')
	for _, cut := range []bool{false, true} {
		pr, pw := io.Pipe()
		go func() {
			rest := answer[at+1:]
			if cut {
				rest = rest[:len(rest)/2]
			}
			for len(rest) > 0 {
				n := min(32<<10, len(rest))
				_, _ = pw.Write(rest[:n])
				rest = rest[n:]
				time.Sleep(time.Millisecond)
			}
			if cut {
				pw.CloseWithError(io.ErrUnexpectedEOF)
				return
			}
			pw.Close()
		}()
		s := &envScan{br: bufio.NewReaderSize(pr, streamChunk), held: answer[: at+1 : at+1], size: int64(len(answer)), arrayAt: at}
		s.fed = &fedArray{at: at, feed: jsontext.NewArrayFeed(spliceDepth, 0, len(answer)-at)}
		data, err := s.readFed(append(make([]byte, 0, len(answer)+bytes.MinRead), s.held...))
		if cut {
			if err != io.ErrUnexpectedEOF || len(data) != at+1+(len(answer)-at-1)/2 {
				t.Errorf("cut: %d bytes, %v", len(data), err)
			}
			continue
		}
		if err != nil || !bytes.Equal(data, answer) {
			t.Fatalf("%d bytes of %d, %v", len(data), len(answer), err)
		}
		if got := s.fed.feed.Checked(); got < (len(answer)-at)/2 {
			t.Errorf("%d of %d bytes checked as they arrived", got, len(answer)-at)
		}
		if _, _, rows, ok := s.fed.feed.Result(data[at:]); !ok || rows == nil || rows.Len() != 5000 {
			t.Errorf("Result: %v %v", rows, ok)
		}
	}
}
