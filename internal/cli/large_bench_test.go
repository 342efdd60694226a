package cli

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agsh-dev/agsh/internal/benchdata"
	"github.com/agsh-dev/agsh/internal/iostreams"
)

// Benchmarks of the whole pipeline, in-process, on large answers: a
// streamed 200 MiB read, a streamed 50 MiB text under --output json, and a
// held 100,000-row table. The output goes
// to io.Discard; scripts/bench-large.sh times the built binaries against
// curl and compares their outputs.
//
//	go test ./internal/cli -run '^$' -bench LargeAnswer -benchtime 3x

// largeAnswers is a deployment whose read and list_changes answer large
// canned bodies, written from one block repeated (nothing of their size
// is held, so that the collector's work stays what the binary's is); every
// other request goes to the development deployment.
type largeAnswers struct {
	dev   *httputil.ReverseProxy
	read  []byte // one block of numbered lines, each ended by an escaped newline
	table []byte // the list_changes answer
	mb    atomic.Int64
}

func newLargeAnswers(tb testing.TB, dev string) *httptest.Server {
	u, err := url.Parse(dev)
	if err != nil {
		tb.Fatal(err)
	}
	a := &largeAnswers{dev: &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) { r.SetURL(u) }}}
	var b bytes.Buffer
	for i := 1; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, `%6d|log line %d of the big file, with some text to make it longer\n`, i, i)
	}
	a.read = b.Bytes()
	a.table = tableEnvelope(100000)
	srv := httptest.NewServer(a)
	tb.Cleanup(srv.Close)
	return srv
}

func (a *largeAnswers) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		a.dev.ServeHTTP(w, r)
		return
	}
	_, _ = io.Copy(io.Discard, r.Body)
	w.Header().Set("Content-Type", "application/json")
	switch {
	case strings.HasSuffix(r.URL.Path, "/v1/tools/read"):
		head := `{"ok":true,"toolName":"read","callId":"c1","isError":false,"result":"`
		last := `999999|the last line"`
		tail := `,"durationMs":12}`
		n := int(a.mb.Load())
		w.Header().Set("Content-Length", strconv.Itoa(len(head)+n*len(a.read)+len(last)+len(tail)))
		_, _ = io.WriteString(w, head)
		for range n {
			_, _ = w.Write(a.read)
		}
		_, _ = io.WriteString(w, last+tail)
	case strings.HasSuffix(r.URL.Path, "/v1/tools/list_changes"):
		w.Header().Set("Content-Length", strconv.Itoa(len(a.table)))
		_, _ = w.Write(a.table)
	default:
		a.dev.ServeHTTP(w, r)
	}
}

// tableEnvelope is a list_changes answer whose result is an array of rows
// objects of eight members (benchdata.TableRows).
func tableEnvelope(rows int) []byte {
	b := []byte(`{"ok":true,"toolName":"list_changes","callId":"c1","isError":false,"result":`)
	return append(append(b, benchdata.TableRows(rows)...), '}')
}

func BenchmarkLargeAnswer(b *testing.B) {
	srv := startDeployment(&testing.T{})
	large := newLargeAnswers(b, srv.URL())
	a := large.Config.Handler.(*largeAnswers)
	exe := large.URL + strings.TrimPrefix(srv.AgentURL("executor"), srv.URL())
	for _, c := range []struct {
		name string
		mb   int64
		args []string
	}{
		{"read200", 200, []string{"read", "/repo/big.log"}},
		{"json50", 50, []string{"--output", "json", "read", "/repo/big.log"}},
		{"table100k", 0, []string{"list_changes"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			a.mb.Store(c.mb)
			b.SetBytes(max(c.mb<<20, int64(len(a.table))))
			for b.Loop() {
				ios, _, errOut := iostreams.Test("")
				ios.Out = io.Discard
				ios.Width = 120
				if status := Main(append([]string{"--target", exe}, c.args...), ios, ttySafeEnv{}); status != 0 {
					b.Fatalf("%s: exit %d: %s", strings.Join(c.args, " "), status, errOut)
				}
			}
		})
	}
}
