package fstools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/internal/devserver/tool"
)

var (
	benchOnce sync.Once
	benchDir  string
	benchSize int64
)

// benchTree writes the 20 MB tree of 2,000 files once per process.
func benchTree(b *testing.B) (string, int64) {
	benchOnce.Do(func() {
		dir, err := os.MkdirTemp("", "fstools-bench-")
		if err != nil {
			b.Fatal(err)
		}
		for name, content := range genTree(7, 2000, 10*1024) {
			p := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				b.Fatal(err)
			}
			benchSize += int64(len(content))
		}
		benchDir = dir
	})
	if benchDir == "" {
		b.Skip("bench tree unavailable")
	}
	return benchDir, benchSize
}

func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

// benchPatterns: a rare literal, a common word, a case-insensitive
// alternation and a character-class pattern.
var benchPatterns = []struct{ name, pattern, gnuFlag string }{
	{"rare", "Handler nil 4567 ctx", ""},
	{"common", "func", ""},
	{"class", "[0-9]{4} [a-z]+$", ""},
	{"ignorecase", "handler|error", "-i"},
}

func BenchmarkGrep(b *testing.B) {
	dir, size := benchTree(b)
	tl := Tools([]tool.Mount{{Path: "/repo", Dir: dir}})[2]
	for _, p := range benchPatterns {
		b.Run(p.name, func(b *testing.B) {
			in := map[string]any{"pattern": p.pattern}
			if p.gnuFlag == "-i" {
				in["-i"] = true
			}
			raw, _ := json.Marshal(in)
			b.SetBytes(size)
			start := cpuTime()
			for b.Loop() {
				res, err := tl.Call(context.Background(), &tool.Call{Input: raw})
				if err != nil || res.IsError {
					b.Fatalf("grep: %v %s", err, res.Value)
				}
			}
			reportCPU(b, size, cpuTime()-start)
		})
	}
}

// BenchmarkGNUGrep runs `grep -rn` on the same tree for comparison.
func BenchmarkGNUGrep(b *testing.B) {
	if _, err := exec.LookPath("grep"); err != nil {
		b.Skip("grep not installed")
	}
	dir, size := benchTree(b)
	for _, p := range benchPatterns {
		b.Run(p.name, func(b *testing.B) {
			args := []string{"-rnE"}
			if p.gnuFlag != "" {
				args = append(args, p.gnuFlag)
			}
			args = append(args, "-e", p.pattern, dir)
			b.SetBytes(size)
			var cpu time.Duration
			for b.Loop() {
				cmd := exec.Command("grep", args...)
				cmd.Env = append(os.Environ(), "LC_ALL=C")
				if out, err := cmd.Output(); err != nil && len(out) == 0 && !strings.Contains(err.Error(), "exit status 1") {
					b.Fatal(err)
				}
				cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			}
			reportCPU(b, size, cpu)
		})
	}
}

// cpuTime is the CPU time (user and system) this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU adds throughput per CPU second, which a loaded machine does
// not distort the way it distorts wall time.
func reportCPU(b *testing.B, size int64, cpu time.Duration) {
	if cpu > 0 {
		b.ReportMetric(float64(size)*float64(b.N)/cpu.Seconds()/1e6, "MB/cpu-s")
	}
}

func BenchmarkRead1MiB(b *testing.B) {
	dir := b.TempDir()
	var sb strings.Builder
	for i := 0; sb.Len() < 1<<20; i++ {
		fmt.Fprintf(&sb, "line %d: the quick brown fox jumps over the lazy dog\n", i)
	}
	if err := os.WriteFile(filepath.Join(dir, "big.txt"), []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	tl := Tools([]tool.Mount{{Path: "/repo", Dir: dir}})[0]
	for _, in := range []struct{ name, raw string }{
		{"first", `{"path":"big.txt"}`},
		{"last", `{"path":"big.txt","offset":-100}`},
	} {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(sb.Len()))
			for b.Loop() {
				res, err := tl.Call(context.Background(), &tool.Call{Input: json.RawMessage(in.raw)})
				if err != nil || res.IsError {
					b.Fatalf("read: %v %s", err, res.Value)
				}
			}
		})
	}
}
