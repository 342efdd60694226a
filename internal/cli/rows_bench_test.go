package cli

import (
	"bytes"
	"crypto/md5"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/internal/benchdata"
)

// BenchmarkRows runs the built agsh on each large or repeated job of
// docs/testing.md#benchmarks, and, when AGSH_BENCH_OLD names another build
// (an older commit's bin/agsh), that build on the same job, the two
// alternated iteration by iteration in one run:
//
//	AGSH_BENCH_OLD=/tmp/old/bin/agsh go test ./internal/cli -run '^$' -bench Rows -benchtime 5x
//
// Each row reports the child's wall and CPU time and peak RSS (its
// rusage, and GNU time's peak RSS when it is installed; the canned answers
// are served by this process, not counted) of
// each build, their ratios new/old, and whether the two wrote the same
// bytes (same-output 1). A build that lacks a row's command (an old one
// without the console) leaves that row to the new build alone.
func BenchmarkRows(b *testing.B) {
	builds := []string{builtAgsh(b)}
	if old := os.Getenv("AGSH_BENCH_OLD"); old != "" {
		builds = append(builds, old)
	}
	dev := startDeployment(&testing.T{})
	large := newLargeAnswers(b, dev.URL())
	answers := large.Config.Handler.(*largeAnswers)
	record := benchdata.RecordEnvelope("ses_bench", 100_000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/v1/session/ses_bench/events") {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(record)
			return
		}
		answers.ServeHTTP(w, r)
	}))
	b.Cleanup(srv.Close)
	exe := srv.URL + strings.TrimPrefix(dev.AgentURL("executor"), dev.URL())
	tools := newCatalogServer(b, 10000)
	caches := make([]string, len(builds))
	for i, bin := range builds {
		caches[i] = b.TempDir()
		c := exec.Command(bin, "--__complete-refresh")
		c.Env = []string{"XDG_CACHE_HOME=" + caches[i], "AGENT_SHELL_TARGET=" + tools.URL + "/agent", "HOME=" + caches[i]}
		if out, err := c.CombinedOutput(); err != nil {
			b.Fatalf("refresh: %v %s", err, out)
		}
	}
	last := "conn_tool_09999"
	type row struct {
		name  string
		mb    int64
		args  []string
		stdin string
		tab   bool // against the 10,000-tool catalog, each build its cache
	}
	rows := []row{
		{name: "read200", mb: 200, args: []string{"--target", exe, "read", "/repo/big.log"}},
		{name: "json50", mb: 50, args: []string{"--target", exe, "--output", "json", "read", "/repo/big.log"}},
		{name: "table100k", args: []string{"--target", exe, "list_changes"}},
		{name: "script1000", args: []string{"--target", dev.AgentURL("executor")}, stdin: scriptOfReads(1000)},
		{name: "tab10k-name", args: []string{"--__complete", "bash", "--", "agsh " + last[:len(last)-1], last[:len(last)-1]}, tab: true},
		{name: "tab10k-flag", args: []string{"--__complete", "bash", "--", "agsh " + last + " --state N", "N"}, tab: true},
		{name: "trace100k", args: []string{"--target", exe, ":trace", "ses_bench"}},
		{name: "trace100k-json", args: []string{"--target", exe, "--output", "json", ":trace", "ses_bench"}},
	}
	for _, r := range rows {
		b.Run(r.name, func(b *testing.B) {
			answers.mb.Store(r.mb)
			type tally struct {
				wall, cpu time.Duration
				rss       int64
				sum       [md5.Size]byte
				runs      int
				skip      bool
			}
			t := make([]tally, len(builds))
			for b.Loop() {
				for i, bin := range builds {
					if t[i].skip {
						continue
					}
					env := []string{"NO_COLOR=1", "COLUMNS=120", "HOME=" + caches[i]}
					if r.tab {
						env = append(env, "XDG_CACHE_HOME="+caches[i], "AGENT_SHELL_TARGET="+tools.URL+"/agent")
					}
					argv := append([]string{bin}, r.args...)
					rssFile := ""
					if gnuTime() { // its %M: the child's own rusage counts this process's memory too
						rssFile = filepath.Join(caches[i], "rss")
						argv = append([]string{"/usr/bin/time", "-f", "%M", "-o", rssFile}, argv...)
					}
					c := exec.Command(argv[0], argv[1:]...)
					c.Env = env
					c.Stdin = strings.NewReader(r.stdin)
					h := md5.New()
					c.Stdout = h
					var errOut bytes.Buffer
					c.Stderr = &errOut
					start := time.Now()
					err := c.Run()
					el := time.Since(start)
					if err != nil {
						if i > 0 && strings.Contains(errOut.String(), "unknown command") {
							t[i].skip = true // an older build without this command
							continue
						}
						b.Fatalf("%s: %v: %s", bin, err, errOut.Bytes())
					}
					ru := c.ProcessState.SysUsage().(*syscall.Rusage)
					t[i].wall += el
					t[i].cpu += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
					if rssFile != "" {
						if data, err := os.ReadFile(rssFile); err == nil {
							if kb, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64); err == nil {
								t[i].rss = max(t[i].rss, kb)
							}
						}
					}
					copy(t[i].sum[:], h.Sum(nil))
					t[i].runs++
				}
			}
			for i, name := range []string{"new", "old"}[:len(builds)] {
				if t[i].runs == 0 {
					continue
				}
				n := float64(t[i].runs)
				b.ReportMetric(t[i].wall.Seconds()*1e3/n, name+"-wall-ms")
				b.ReportMetric(t[i].cpu.Seconds()*1e3/n, name+"-cpu-ms")
				if t[i].rss > 0 {
					b.ReportMetric(float64(t[i].rss)/1024, name+"-RSS-MiB")
				}
			}
			if len(builds) == 2 && t[1].runs > 0 {
				b.ReportMetric((t[0].wall.Seconds()/float64(t[0].runs))/(t[1].wall.Seconds()/float64(t[1].runs)), "wall-new/old")
				b.ReportMetric((t[0].cpu.Seconds()/float64(t[0].runs))/(t[1].cpu.Seconds()/float64(t[1].runs)), "cpu-new/old")
				same := 0.0
				if t[0].sum == t[1].sum {
					same = 1
				}
				b.ReportMetric(same, "same-output")
			}
		})
	}
}
