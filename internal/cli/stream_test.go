package cli

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/agsh-dev/agsh/internal/testtier"
)

// With AGSH_TEST_RSS_FILE set, the test binary runs agsh (itself, as
// AGSH_TEST_AS_AGSH) as its child and writes the child's peak RSS in
// bytes to that file: a child started straight from the test process
// would report the test process's own peak (it shares its memory until
// exec), which holds the 50 MB answers.
func init() {
	file := os.Getenv("AGSH_TEST_RSS_FILE")
	if file == "" {
		return
	}
	cmd := exec.Command(os.Args[0], os.Args[1:]...)
	cmd.Env = append(os.Environ(), "AGSH_TEST_RSS_FILE=", "AGSH_TEST_AS_AGSH=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = int64(ru.Maxrss) << 10
	}
	_ = os.WriteFile(file, []byte(fmt.Sprint(rss)), 0o644)
	if err != nil {
		os.Exit(cmd.ProcessState.ExitCode())
	}
	os.Exit(0)
}

// streamText is a 50 MB text of numbered lines (a read answer) with
// escapes, non-ASCII and control bytes, no final newline.
func streamText(numbered bool) string {
	var b strings.Builder
	for i := 1; b.Len() < 50<<20; i++ {
		if i > 1 {
			b.WriteByte('\n')
		}
		if numbered {
			fmt.Fprintf(&b, "%6d|", i)
		}
		fmt.Fprintf(&b, "line %d \"quoted\" \\ tab\t café ✓ \x1b[1m", i)
	}
	return b.String()
}

// streamGrep is a 50 MB grep answer in content mode: a header, then per
// file its path and numbered match and context lines.
func streamGrep() string {
	var b strings.Builder
	b.WriteString("Found 1000000 matching lines\n")
	for f := 0; b.Len() < 50<<20; f++ {
		if f > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "dir/file%d.go\n", f)
		for n := 1; n < 40; n += 3 {
			fmt.Fprintf(&b, "%d-context \"quoted\" café\n%d:match\there ✓\n", n, n+1)
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// TestStreamedOutputIdenticalBig: each streamed path writes the bytes
// today's agsh wrote for the same 50 MB answer (md5 of its stdout, taken
// from the build before streaming; AGSH_BEFORE_BINARY=path prints them
// for another build).
func TestStreamedOutputIdenticalBig(t *testing.T) {
	testtier.Big(t)
	if testing.Short() {
		t.Skip("50 MB answers")
	}
	srv := startDeployment(t)
	exe := srv.AgentURL("executor")
	for _, c := range []struct {
		name, tool string
		numbered   bool
		args       []string
		want       string
		held       bool // result comes before ok and isError
	}{
		{"read reformatted line by line", "read", true, []string{"read", "/repo/big.log"}, "353bf0ceff22fde69eb1dd5d4e656283", false},
		{"read --output json", "read", true, []string{"--output", "json", "read", "/repo/big.log"}, "657593f18afe84d0f02b501aa49c16dc", false},
		{"text view", "report_change_succeeded", false, []string{"--yes", "report_change_succeeded", "--summary", "x"}, "e398629c702f825cbdc5b7bc5bd5b48e", false},
		{"text --output json", "report_change_succeeded", false, []string{"--yes", "--output", "json", "report_change_succeeded", "--summary", "x"}, "6a4aeadc708d7e6df8ca8f659def0de8", false},
		{"held read --output json", "read", true, []string{"--output", "json", "read", "/repo/big.log"}, "657593f18afe84d0f02b501aa49c16dc", true},
		{"grep reformatted line by line", "grep", false, []string{"grep", "-C", "1", "match"}, "1758144a56686e97672f3d16e9583f9f", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			// ok and isError come before result (json.Marshal sorts keys).
			text := streamText(c.numbered)
			if c.tool == "grep" {
				text = streamGrep()
			}
			envelope, _ := json.Marshal(map[string]any{"ok": true, "toolName": c.tool, "callId": "c1", "isError": false, "result": text})
			if c.held {
				// result first: the answer is held until ok and isError.
				text, _ := json.Marshal(streamText(c.numbered))
				envelope = append(append([]byte(`{"result":`), text...), `,"ok":true,"toolName":"read","callId":"c1","isError":false}`...)
			}
			fault, _ := json.Marshal(map[string]any{"route": "POST /v1/tools/" + c.tool, "count": 1, "status": 200, "body": json.RawMessage(envelope)})
			resp, err := http.Post(exe+"/v1/dev/faults", "application/json", bytes.NewReader(fault))
			if err != nil || resp.StatusCode != 200 {
				t.Fatalf("arming the fault: %v %v", err, resp)
			}
			resp.Body.Close()
			cmd := agshCommand(append([]string{"--target", exe}, c.args...)...)
			if before := os.Getenv("AGSH_BEFORE_BINARY"); before != "" {
				cmd = exec.Command(before, append([]string{"--target", exe}, c.args...)...)
				cmd.Env = append(os.Environ(), "AGENT_SHELL_TARGET=", "NO_COLOR=1")
			}
			rssFile := t.TempDir() + "/rss"
			cmd.Env = append(cmd.Env, "AGSH_TEST_RSS_FILE="+rssFile)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%v: %s", err, stderr.String())
			}
			sum := md5.Sum(out)
			got := hex.EncodeToString(sum[:])
			if os.Getenv("AGSH_BEFORE_BINARY") != "" {
				t.Logf("%s: md5 %s (%d bytes)", c.name, got, len(out))
				return
			}
			if got != c.want {
				t.Fatalf("md5 of stdout %s (%d bytes), today's %s", got, len(out), c.want)
			}
			// Streamed, not held: the process stayed far below the
			// answer's size (held, it took 400 MB).
			data, err := os.ReadFile(rssFile)
			if err != nil {
				t.Fatal(err)
			}
			var rss int64
			fmt.Sscan(string(data), &rss)
			if rss == 0 {
				t.Fatalf("no peak RSS measured")
			}
			t.Logf("peak RSS %d MiB", rss>>20)
			if c.held {
				// Held: the answer's bytes once, not its decoded text
				// beside them (that took 4.3 times the payload).
				if rss > 2*int64(len(envelope)) {
					t.Fatalf("peak RSS %d MiB for a held %d MiB answer: more than twice its size", rss>>20, len(envelope)>>20)
				}
				return
			}
			if rss > 96<<20 {
				t.Fatalf("peak RSS %d MiB for a 50 MB answer: it was held", rss>>20)
			}
		})
	}
}

// TestStreamedReadPastHoldLimitBig: a streamed read result past 8 MiB is
// reformatted line by line; from the first line not in the format the
// rest prints as received (the final newline added as for verbatim text),
// with one note on standard error. Up to 8 MiB the same text prints
// verbatim, whole, without a note.
func TestStreamedReadPastHoldLimitBig(t *testing.T) {
	testtier.Big(t)
	if testing.Short() {
		t.Skip("a 10 MB answer")
	}
	srv := startDeployment(t)
	exe := srv.AgentURL("executor")
	run := func(lines int) (text, want, stdout, stderr string) {
		var b, w strings.Builder
		for i := 1; i <= lines; i++ {
			fmt.Fprintf(&b, "%6d|line %d\n", i, i)
			fmt.Fprintf(&w, "line %d\n", i)
		}
		rest := "not a numbered line\n     7|numbered again"
		text = b.String() + rest
		envelope, _ := json.Marshal(map[string]any{"ok": true, "toolName": "read", "callId": "c1", "isError": false, "result": text})
		fault, _ := json.Marshal(map[string]any{"route": "POST /v1/tools/read", "count": 1, "status": 200, "body": json.RawMessage(envelope)})
		post(t, exe+"/v1/dev/faults", string(fault))
		cmd := agshCommand("--target", exe, "read", "/repo/big.log")
		var errb bytes.Buffer
		cmd.Stderr = &errb
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%v: %s", err, errb.String())
		}
		return text, w.String() + rest + "\n", string(out), errb.String()
	}
	_, want, out, errs := run(600000) // about 11 MiB
	if out != want {
		t.Fatalf("stdout (%d bytes) is not the reformatted lines then the rest as received (%d bytes)", len(out), len(want))
	}
	if n := strings.Count(errs, "not in its usual format"); n != 1 || !strings.Contains(errs, "from line 600001 on") {
		t.Fatalf("stderr %q: want one note naming line 600001", errs)
	}
	text, _, out, errs := run(1000)
	if out != text+"\n" || strings.Contains(errs, "usual format") {
		t.Fatalf("a small text not in the format: stdout ends %q (%d bytes, want %d), stderr %q", out[max(0, len(out)-60):], len(out), len(text)+1, errs)
	}
}
