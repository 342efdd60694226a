//go:build linux

package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestServerReadCPU measures the server's own CPU per POST /v1/tools/read
// (its threads' time on a CPU from /proc, the client outside it), for the
// builds AGSH_CPU_BUILDS names (comma-separated paths), alternated round by
// round, for a small file, one of 1 MiB and one of 8 MiB. It runs only when
// AGSH_CPU_BUILDS is set; the figures are logged, never asserted.
func TestServerReadCPU(t *testing.T) {
	builds := os.Getenv("AGSH_CPU_BUILDS")
	if builds == "" {
		t.Skip("set AGSH_CPU_BUILDS=old,new to compare builds")
	}
	root := t.TempDir()
	line := strings.Repeat("abcdefghij", 9) + "\n"
	sizes := []struct {
		name string
		size int
	}{{"small", 2 << 10}, {"1MiB", 1 << 20}, {"8MiB", 8 << 20}}
	if only := os.Getenv("AGSH_CPU_ONLY"); only != "" {
		for _, f := range sizes {
			if f.name == only {
				sizes = append(sizes[:0:0], f)
				break
			}
		}
	}
	for _, f := range sizes {
		data := strings.Repeat(line, f.size/len(line)+1)[:f.size]
		if err := os.WriteFile(filepath.Join(root, f.name+".txt"), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bins := strings.Split(builds, ",")
	servers := make([]*attackServer, len(bins))
	for i, bin := range bins {
		servers[i] = startAttacked(t, bin, root)
	}
	rounds, perRound := 7, 400
	if n, err := strconv.Atoi(os.Getenv("AGSH_CPU_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	cpu := map[string][]float64{}
	client := &http.Client{}
	want := map[string][]byte{}
	for r := range rounds {
		for k := range servers {
			i := k
			if r%2 == 1 {
				i = len(servers) - 1 - k // alternate which build goes first
			}
			s := servers[i]
			for _, f := range sizes {
				body := []byte(`{"input":{"path":"/repo/` + f.name + `.txt"}}`)
				before := processCPU(t, s)
				for range perRound {
					resp, err := client.Post(s.executor+"/v1/tools/read", "application/json", bytes.NewReader(body))
					if err != nil {
						t.Fatal(err)
					}
					out, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					// The answers, callId and duration aside, are the same bytes.
					out = normalizeAnswer(out)
					if w, ok := want[f.name]; !ok {
						want[f.name] = out
					} else if !bytes.Equal(w, out) {
						t.Fatalf("%s answers %s differently:\n%.300s\n%.300s", bins[i], f.name, out, w)
					}
				}
				key := fmt.Sprintf("%d %s", i, f.name)
				cpu[key] = append(cpu[key], float64(processCPU(t, s)-before)/1e3/float64(perRound))
			}
		}
	}
	for _, f := range sizes {
		line := f.name + ":"
		var first float64
		for i := range bins {
			m := median(cpu[fmt.Sprintf("%d %s", i, f.name)])
			if i == 0 {
				first = m
			}
			line += fmt.Sprintf(" %s %.0f µs/request (%.2f×)", filepath.Base(bins[i]), m, m/first)
		}
		t.Log("server CPU per read, " + line)
	}
}

// processCPU is the time the process's threads spent on a CPU, in
// nanoseconds (the first field of each thread's schedstat).
func processCPU(t *testing.T, s *attackServer) int64 {
	dir := fmt.Sprintf("/proc/%d/task", s.cmd.Process.Pid)
	tasks, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var ns int64
	for _, task := range tasks {
		b, err := os.ReadFile(filepath.Join(dir, task.Name(), "schedstat"))
		if err != nil {
			continue // the thread ended
		}
		f := strings.Fields(string(b))
		n, _ := strconv.ParseInt(f[0], 10, 64)
		ns += n
	}
	return ns
}

// normalizeAnswer blanks an answer's callId and durationMs.
func normalizeAnswer(b []byte) []byte {
	for _, key := range []string{`"callId":"`, `"durationMs":`} {
		i := bytes.Index(b, []byte(key))
		if i < 0 {
			continue
		}
		j := i + len(key)
		k := j
		for k < len(b) && b[k] != '"' && b[k] != ',' && b[k] != '}' {
			k++
		}
		b = append(append(append([]byte(nil), b[:j]...), 'X'), b[k:]...)
	}
	return b
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}
