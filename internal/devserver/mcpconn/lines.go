package mcpconn

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode/utf8"
)

// Real stdio MCP servers print log lines on standard output (a banner, a
// "listening" line, a JSON logger's records). The SDK's stdio reading
// takes every line as a JSON-RPC message and ends the session on the first
// that is not one, so a server's standard output is filtered first: lines
// that are JSON-RPC messages (an object with "jsonrpc", or a batch) go on,
// any other line is logged and skipped.

// maxStdoutLine bounds one line of a server's standard output; a longer
// line fails the connection (it would have to be held in memory whole).
const maxStdoutLine = 64 << 20

// maxSkippedLogged is how many skipped lines are logged per connection;
// later ones are counted silently.
const maxSkippedLogged = 100

// lineFilter copies the JSON-RPC lines of a server's standard output to a
// pipe the SDK reads.
type lineFilter struct {
	name    string
	logf    func(string, ...any)
	mu      sync.Mutex
	skipped int
}

// run copies src to dst line by line until src ends, then closes dst
// (with the read error, if any, so the session ends with it).
func (f *lineFilter) run(src io.Reader, dst *io.PipeWriter) {
	rd := bufio.NewReaderSize(src, 64<<10)
	var line []byte
	for {
		chunk, err := rd.ReadSlice('\n')
		if len(line)+len(chunk) > maxStdoutLine {
			dst.CloseWithError(fmt.Errorf("mcp %s: a line on standard output is longer than %d bytes", f.name, maxStdoutLine))
			_, _ = io.Copy(io.Discard, rd) // let the server go on writing until it is stopped
			return
		}
		line = append(line, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if len(line) > 0 {
			if err := f.line(line, dst); err != nil {
				_, _ = io.Copy(io.Discard, rd)
				return
			}
		}
		line = line[:0]
		if err != nil {
			if errors.Is(err, io.EOF) {
				dst.Close()
			} else {
				dst.CloseWithError(err)
			}
			return
		}
	}
}

// line passes one line on or skips it.
func (f *lineFilter) line(line []byte, dst io.Writer) error {
	t := bytes.TrimSpace(line)
	if len(t) == 0 {
		return nil
	}
	if isJSONRPC(t) {
		_, err := dst.Write(append(t, '\n'))
		return err
	}
	f.mu.Lock()
	f.skipped++
	n := f.skipped
	f.mu.Unlock()
	switch {
	case n <= maxSkippedLogged:
		f.logf("mcp %s: skipped a line on standard output that is not JSON-RPC: %s", f.name, shorten(t, 200))
	case n == maxSkippedLogged+1:
		f.logf("mcp %s: more lines on standard output that are not JSON-RPC; they are skipped without a report", f.name)
	}
	return nil
}

// isJSONRPC reports whether a line is a JSON-RPC message: an object with a
// "jsonrpc" member, or a batch (an array).
func isJSONRPC(t []byte) bool {
	switch t[0] {
	case '[':
		return json.Valid(t)
	case '{':
		var probe struct {
			JSONRPC *json.RawMessage `json:"jsonrpc"`
		}
		return json.Unmarshal(t, &probe) == nil && probe.JSONRPC != nil
	}
	return false
}

// shorten cuts a line for a log report (the log escapes control
// characters).
func shorten(b []byte, n int) string {
	s := strings.ToValidUTF8(string(b), "?")
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
