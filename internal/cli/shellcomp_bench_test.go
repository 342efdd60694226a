package cli

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agsh-dev/agsh/internal/iostreams"
)

// catalogServer is a deployment of n connection tools, each with a schema
// of about 900 bytes (five properties, one an enum, described), and the
// six workspace tools' document; it counts the GETs it answers.
type catalogServer struct {
	*httptest.Server
	gets atomic.Int64
}

func newCatalogServer(tb testing.TB, n int) *catalogServer {
	tb.Helper()
	var listing strings.Builder
	listing.WriteString(`{"ok":true,"tools":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			listing.WriteByte(',')
		}
		fmt.Fprintf(&listing, `{"name":"conn_tool_%05d","title":"Does thing number %d for the operator","source":{"kind":"connection","connection":"conn"}}`, i, i)
	}
	listing.WriteString(`]}`)
	detail := func(name string) string {
		return `{"ok":true,"tool":{"name":"` + name + `","description":"Does a thing.","source":{"kind":"connection","connection":"conn"},` +
			`"inputSchema":{"type":"object","properties":{` +
			`"state":{"type":"string","enum":["No Data","OK","Alert","Warn"],"description":"The state of the monitors to list; one of the four the monitoring service knows."},` +
			`"query":{"type":"string","description":"A search query in the service's query language; see its documentation for the operators it takes."},` +
			`"limit":{"type":"integer","description":"At most this many monitors are listed; the service caps it at one thousand anyway."},` +
			`"tags":{"type":"array","items":{"type":"string"},"description":"Only monitors carrying every one of these tags are listed, in no particular order."},` +
			`"verbose":{"type":"boolean","description":"List every field of each monitor, not only its id, name, state and type."}},"required":["query"]}}}`
	}
	s := &catalogServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodGet {
			s.gets.Add(1)
		}
		switch p := strings.TrimPrefix(r.URL.Path, "/agent"); {
		case p == "/v1/info":
			fmt.Fprint(w, `{"ok":true,"name":"bench","tools":[]}`)
		case p == "/v1/tools":
			fmt.Fprint(w, listing.String())
		case strings.HasPrefix(p, "/v1/tools/"):
			fmt.Fprint(w, detail(strings.TrimPrefix(p, "/v1/tools/")))
		case p == "/v1/sessions":
			fmt.Fprint(w, `{"ok":true,"sessions":[]}`)
		default:
			http.NotFound(w, r)
		}
	}))
	tb.Cleanup(s.Close)
	return s
}

// completeIn answers one Tab in this process: agsh's whole completion path
// (the hidden option, the cache, the engine), the output discarded.
func completeIn(tb testing.TB, env ttySafeEnv, line, cur string) string {
	ios, out, errOut := iostreams.Test("")
	if status := Main([]string{"--__complete", "bash", "--", line, cur}, ios, env); status != 0 {
		tb.Fatalf("status %d: %s", status, errOut)
	}
	return out.String()
}

// benchCompletion fills the cache of an n-tool deployment once, then
// times warm Tabs: a tool name, and a flag's value (the tool's
// completion data fetched by the first of them when it is not cached).
func benchCompletion(b *testing.B, n int) {
	srv := newCatalogServer(b, n)
	env := ttySafeEnv{"XDG_CACHE_HOME": b.TempDir(), "AGENT_SHELL_TARGET": srv.URL + "/agent"}
	ios, _, errOut := iostreams.Test("")
	if status := Main([]string{"--__complete-refresh"}, ios, env); status != 0 {
		b.Fatalf("refresh: %d %s", status, errOut)
	}
	var size int64
	files, _ := filepath.Glob(filepath.Join(env["XDG_CACHE_HOME"], "agsh", "*"))
	for _, f := range files {
		if st, err := os.Stat(f); err == nil {
			size += st.Size()
		}
	}
	b.Logf("%d tools: the refresh took %d GETs and wrote %d bytes in %d files", n, srv.gets.Load(), size, len(files))
	last := fmt.Sprintf("conn_tool_%05d", n-1)
	if got := completeIn(b, env, "agsh "+last[:len(last)-1], last[:len(last)-1]); !strings.Contains(got, last) {
		b.Fatalf("tool name answer %q", got)
	}
	flagLine := "agsh " + last + " --state N"
	if got := completeIn(b, env, flagLine, "N"); got != "No\\ Data\n" {
		b.Fatalf("flag value answer %q", got)
	}
	b.Run("name", func(b *testing.B) {
		for b.Loop() {
			completeIn(b, env, "agsh conn_tool_0999", "conn_tool_0999")
		}
	})
	b.Run("flag", func(b *testing.B) {
		for b.Loop() {
			completeIn(b, env, flagLine, "N")
		}
	})
}

// BenchmarkCompletionLoad is a warm Tab in process, a small catalog (10
// tools) beside a large one (10,000): the large one's cost is that of
// reading its cache.
func BenchmarkCompletionLoad(b *testing.B) {
	for _, n := range []int{10, 10000} {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) { benchCompletion(b, n) })
	}
}

// BenchmarkCompletionRefresh is the detached refresh of a small catalog
// (10 tools) and a large one (10,000), in process: its time, the GETs it
// makes and the bytes of the cache it leaves (no tool's completion data
// yet: a connection tool's detail is fetched when its flags are first
// completed).
func BenchmarkCompletionRefresh(b *testing.B) {
	for _, n := range []int{10, 10000} {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			srv := newCatalogServer(b, n)
			env := ttySafeEnv{"XDG_CACHE_HOME": b.TempDir(), "AGENT_SHELL_TARGET": srv.URL + "/agent"}
			ios, _, errOut := iostreams.Test("")
			for b.Loop() {
				if status := Main([]string{"--__complete-refresh"}, ios, env); status != 0 {
					b.Fatalf("refresh: %d %s", status, errOut)
				}
			}
			var size int64
			files, _ := filepath.Glob(filepath.Join(env["XDG_CACHE_HOME"], "agsh", "*"))
			for _, f := range files {
				if st, err := os.Stat(f); err == nil {
					size += st.Size()
				}
			}
			b.ReportMetric(float64(srv.gets.Load())/float64(b.N), "GETs/op")
			b.ReportMetric(float64(size), "cache-bytes")
			b.ReportMetric(float64(len(files)), "cache-files")
		})
	}
}

// BenchmarkCompletionProcess is a warm Tab as the shell runs it, a whole
// agsh process (the built binary), small and large catalogs alternated in
// one run; the peak RSS of each is GNU time's when it is installed.
func BenchmarkCompletionProcess(b *testing.B) {
	bin := builtAgsh(b)
	type setup struct {
		n         int
		env       []string
		line, cur string
		want      string
	}
	var setups []setup
	for _, n := range []int{10, 10000} {
		srv := newCatalogServer(b, n)
		env := append(os.Environ(), "XDG_CACHE_HOME="+b.TempDir(), "AGENT_SHELL_TARGET="+srv.URL+"/agent")
		refresh := exec.Command(bin, "--__complete-refresh")
		refresh.Env = env
		if out, err := refresh.CombinedOutput(); err != nil {
			b.Fatalf("refresh: %v %s", err, out)
		}
		last := fmt.Sprintf("conn_tool_%05d", n-1)
		setups = append(setups, setup{n, env, "agsh " + last + " --state N", "N", "No\\ Data\n"},
			setup{n, env, "agsh " + last[:len(last)-1], last[:len(last)-1], last + "\n"})
	}
	rss := map[string]int64{}
	name := func(s setup) string {
		kind := "flag"
		if s.cur != "N" {
			kind = "name"
		}
		return fmt.Sprintf("tools=%d/%s", s.n, kind)
	}
	run := func(s setup) {
		argv := []string{bin, "--__complete", "bash", "--", s.line, s.cur}
		rssFile := ""
		if gnuTime() {
			rssFile = b.TempDir() + "/rss"
			argv = append([]string{"/usr/bin/time", "-f", "%M", "-o", rssFile}, argv...)
		}
		c := exec.Command(argv[0], argv[1:]...)
		c.Env = s.env
		out, err := c.Output()
		if err != nil || !bytes.HasSuffix(out, []byte(s.want)) {
			b.Fatalf("%s: %v %q", name(s), err, out)
		}
		if rssFile != "" {
			var kb int64
			if data, err := os.ReadFile(rssFile); err == nil {
				fmt.Sscan(strings.TrimSpace(string(data)), &kb)
			}
			rss[name(s)] = max(rss[name(s)], kb)
		}
	}
	for _, s := range setups {
		run(s) // the first flag Tab may fetch the tool's completion data
	}
	for _, s := range setups {
		b.Run(name(s), func(b *testing.B) {
			for b.Loop() {
				run(s)
			}
			if kb := rss[name(s)]; kb > 0 {
				b.ReportMetric(float64(kb)/1024, "peak-MiB")
			}
		})
	}
}
