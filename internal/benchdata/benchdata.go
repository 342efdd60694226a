// Package benchdata makes the large inputs that the benchmarks and the
// memory tests of several packages share, so that each measures the same
// bytes as scripts/bench-large.sh (docs/testing.md#benchmarks): a table's
// rows and a session's record of events. Only tests import it.
package benchdata

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"time"
)

// TableRows is a JSON array of n objects of eight members (a number, short
// strings, an e-mail address, a decimal, a nested array), the rows of the
// table100k row.
func TableRows(n int) []byte {
	var b bytes.Buffer
	b.Grow(n * 180)
	b.WriteByte('[')
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"item-%d","status":"active","owner":"user%d@example.com","score":%d.5,"tags":["a","b"],"region":"eu-west-%d","note":"row %d of the benchmark table"}`,
			i, i, i%97, i%1000, i%3, i)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// WriteRecord writes a session's record of n events as NDJSON, one event a
// line, to w as it makes them: turns started by a message, a call of read
// and one of grep requested together, their results, a message, the turn's
// end and the session's wait, in turn, a millisecond apart.
func WriteRecord(w io.Writer, n int) {
	b := bufio.NewWriterSize(w, 64<<10)
	defer b.Flush()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for i := 0; i < n; i++ {
		var typ, data string
		switch i % 7 {
		case 0:
			typ, data = "turn.started", `{"turnId":"t","source":"message","message":"look at the repo"}`
		case 1:
			typ, data = "actions.requested", fmt.Sprintf(`{"turnId":"t","calls":[{"callId":"call_%016x","toolName":"read","input":{"path":"/repo/src/file%d.go","limit":40}},`+
				`{"callId":"call_%016x","toolName":"grep","input":{"pattern":"TODO|FIXME","path":"/repo","-i":true}}]}`, i, i, i+1)
		case 2:
			typ, data = "action.result", fmt.Sprintf(`{"callId":"call_%016x","toolName":"read","isError":false,"result":"package main\nfunc main() {}","durationMs":12}`, i-1)
		case 3:
			typ, data = "action.result", fmt.Sprintf(`{"callId":"call_%016x","toolName":"grep","isError":false,"result":"Found 2 matching lines","durationMs":40}`, i-1)
		case 4:
			typ, data = "message.completed", `{"text":"I looked at the file and found two TODOs.","finishReason":"stop"}`
		case 5:
			typ, data = "turn.completed", `{"turnId":"t"}`
		default:
			typ, data = "session.waiting", `{}`
		}
		fmt.Fprintf(b, `{"index":%d,"type":%q,"data":%s,"at":%q}`+"\n", i, typ, data,
			at.Add(time.Duration(i)*time.Millisecond).Format(time.RFC3339Nano))
	}
}

// Record is WriteRecord's NDJSON, whole.
func Record(n int) []byte {
	var b bytes.Buffer
	WriteRecord(&b, n)
	return b.Bytes()
}

// RecordEnvelope is the same record as the events route answers it,
// {"ok":true,…,"events":[…]} (an event holds no raw newline: the lines are
// joined with commas).
func RecordEnvelope(session string, n int) []byte {
	lines := bytes.TrimSuffix(Record(n), []byte("\n"))
	var b bytes.Buffer
	b.Grow(len(lines) + 128)
	fmt.Fprintf(&b, `{"ok":true,"sessionId":%q,"firstIndex":0,"nextIndex":%d,"events":[`, session, n)
	b.Write(bytes.ReplaceAll(lines, []byte("\n"), []byte(",")))
	b.WriteString(`]}`)
	return b.Bytes()
}
