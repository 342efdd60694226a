package fstools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/devserver/tool"
)

// readContents are files that reach every branch of formatRead: CRLF and
// lone CR endings, lines at and around the size cut, a multi-byte rune cut
// by it, more lines than a page, empty lines, a final line feed or none.
func readContents() map[string]string {
	rng := rand.New(rand.NewPCG(1, 2))
	long := func(n int) string { return strings.Repeat("y", n) }
	out := map[string]string{
		"crlf":        "one\r\ntwo\r\nthree",
		"crlf end":    "one\r\ntwo\r\n",
		"lone cr":     "a\rb\r\nc\r",
		"cr cr lf":    "a\r\r\nb",
		"empty lines": "\n\n\n",
		"one lf":      "\n",
		"no lf":       "x",
		"at cut":      "a\n" + long(maxReadBytes) + "\nb\n",
		"cut plus 1":  "a\n" + long(maxReadBytes+1) + "\r\nb\n",
		"cut crlf":    long(maxReadBytes) + "\r\n" + long(10),
		"rune at cut": long(maxReadBytes-1) + "é" + "tail\n",
		"first long":  long(maxReadBytes+500) + "\nafter",
		"two fill":    long(maxReadBytes/2) + "\n" + long(maxReadBytes/2-1) + "\n" + long(5) + "\n",
	}
	var many strings.Builder
	for i := range 4100 {
		fmt.Fprintf(&many, "line %d", i)
		if i%7 == 0 {
			many.WriteByte('\r')
		}
		many.WriteByte('\n')
	}
	out["many"] = many.String()
	for k := range 6 {
		var b strings.Builder
		for range 50 + rng.IntN(300) {
			switch rng.IntN(20) {
			case 0:
				b.WriteString(long(rng.IntN(maxReadBytes + 100)))
			case 1:
				b.WriteString("\r")
			default:
				b.WriteString(long(rng.IntN(40)))
			}
			if rng.IntN(4) == 0 {
				b.WriteString("\r\n")
			} else {
				b.WriteString("\n")
			}
		}
		out[fmt.Sprintf("random %d", k)] = b.String()
	}
	return out
}

// The streamed read answers what the whole-file read answers, byte for
// byte, whatever the stream's buffer size (lines and CRLF endings split
// across reads).
func TestStreamReadEqualsWholeRead(t *testing.T) {
	old := streamBuffer
	t.Cleanup(func() { streamBuffer = old })
	for name, content := range readContents() {
		data := []byte(content)
		total := bytes.Count(data, []byte{'\n'}) + 1
		offsets := []int{0, 1, 2, total / 2, total - 1, total, total + 1, -1, -2, -total / 2, -total, -total - 1}
		for _, offset := range offsets {
			for _, limit := range []int{-1, 3, maxReadLines} {
				text := fmt.Sprint(offset)
				want, wantErr := formatRead(data, offset, limit, text)
				for _, size := range []int{16, 4099} {
					if size < 4096 && len(data) > 64<<10 {
						continue // byte-sized reads of a large file: slow under the race detector, and covered by the small files
					}
					streamBuffer = size
					got, gotErr := streamRead(bytes.NewReader(data), loc{virt: "/repo/f"}, offset, limit, text, errorf("too large"))
					if got != want || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
						t.Fatalf("%s, buffer %d, offset %d, limit %d:\ngot  %.300q %v\nwant %.300q %v", name, size, offset, limit, got, gotErr, want, wantErr)
					}
				}
			}
		}
	}
}

// A read of a file over 1 MiB holds a buffer and the page, not the file:
// the bytes it allocates stay far below the file's size.
func TestReadLargeFileStreams(t *testing.T) {
	dir := t.TempDir()
	line := strings.Repeat("abcdefghij", 9) + "\n"
	content := strings.Repeat(line, (16<<20)/len(line))
	if err := os.WriteFile(filepath.Join(dir, "big.txt"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	tl := Tools([]tool.Mount{{Path: "/repo", Dir: dir}})[0]
	for _, in := range []string{`{"path":"big.txt"}`, `{"path":"big.txt","offset":-10}`, `{"path":"big.txt","offset":90000,"limit":5}`} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		res, err := tl.Call(context.Background(), &tool.Call{Input: json.RawMessage(in)})
		runtime.ReadMemStats(&after)
		if err != nil || res.IsError {
			t.Fatalf("read %s: %v %s", in, err, res.Value)
		}
		var text string
		if err := json.Unmarshal(res.Value, &text); err != nil {
			t.Fatal(err)
		}
		var offset, limit int = 0, -1
		var m map[string]any
		_ = json.Unmarshal([]byte(in), &m)
		if v, ok := m["offset"].(float64); ok {
			offset = int(v)
		}
		if v, ok := m["limit"].(float64); ok {
			limit = int(v)
		}
		want, _ := formatRead([]byte(content), offset, limit, fmt.Sprint(offset))
		if text != want {
			t.Errorf("read %s: the stream's answer differs from the whole read's", in)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 2<<20 {
			t.Errorf("read %s allocated %d bytes for a %d-byte file", in, alloc, len(content))
		}
	}
}

// chunkReader hands out its data n bytes a read, as /proc's files do.
type chunkReader struct {
	data []byte
	n    int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), r.n)], r.data)
	r.data = r.data[k:]
	return k, nil
}

// A read short of the room ends the read only once the stat's size is
// read: a file whose stat says 0 (/proc's), or less than it holds, is read
// to its end of file; one that grew past the stat too.
func TestReadSizedShortReads(t *testing.T) {
	data := []byte(strings.Repeat("0123456789", 100))
	for _, c := range []struct {
		size int64
		n    int
	}{{0, 7}, {10, 7}, {500, 64}, {999, 4096}, {1000, 4096}, {1000, 300}} {
		got, ok, err := readSized(&chunkReader{data: data, n: c.n}, c.size, 1<<20)
		if err != nil || !ok || !bytes.Equal(got, data) {
			t.Errorf("size %d, reads of %d: %d bytes, %v %v", c.size, c.n, len(got), ok, err)
		}
	}
}
