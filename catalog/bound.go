package catalog

import (
	"bytes"
	"errors"
	"io"
	"math"
	"strconv"
)

// Answer bounds (docs/cli.md#answer-bounds): every answer is bounded in
// bytes after decompression. With the streaming thresholds they are
// tabled in docs/rendering.md#hold-or-stream.
const (
	// DefaultMaxAnswerBytes bounds a call's answer (AGSH_MAX_ANSWER_BYTES).
	DefaultMaxAnswerBytes = 128 << 20
	// DefaultMaxListingBytes bounds every other answer: listings, details,
	// sessions, the agent document, the control plane's.
	DefaultMaxListingBytes = 16 << 20
)

// TooLargeError is the read error of an answer that went past its bound.
type TooLargeError struct {
	// Limit is the bound in bytes.
	Limit int64
	// Values, when set, is the bound on JSON values that was passed (the
	// bytes were within Limit).
	Values int64
}

func (e *TooLargeError) Error() string {
	if e.Values > 0 {
		return "the answer holds more than " + strconv.FormatInt(e.Values, 10) + " JSON values"
	}
	return "the answer is larger than " + byteSize(e.Limit)
}

// bytesPerValue sets the bound on JSON values from the bound on bytes: a
// call's answer may hold one value per 64 bytes of its bound (2,097,152
// for 128 MiB), any other answer one per 32. agsh holds an answer's values
// as a tree of about 200 bytes each at peak, so that 20 MiB of "[0,0,0,…]"
// would take 2 GiB; this keeps every answer's tree well under 1 GiB.
const (
	callBytesPerValue    = 64
	listingBytesPerValue = 32
)

// boundedReader reads r up to limit bytes and, when maxValues is set, up
// to maxValues JSON values (counted as the commas, '[' and '{' outside
// strings: about one per value); past either bound every Read fails with
// a *TooLargeError. It counts every byte that passes, whatever the caller
// does with it (holds it or writes it through), so it can wrap a stream
// as well as a body that is read whole.
type boundedReader struct {
	r     io.Reader
	limit int64
	n     int64
	// named, when set, is the bound messages name instead of limit (a
	// part of an answer read against what is left of the answer's bound).
	named     int64
	maxValues int64
	values    int64
	// held, when set, is the values bound of an answer read whole that
	// the reader no longer counts (hold): the check that reads it counts
	// its values (within, countHeld).
	held     int64
	inString bool // the JSON scan is inside a string
	escaped  bool // … right after its backslash
	err      error
}

func (b *boundedReader) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	// Read at most one byte past the limit: an answer of exactly limit
	// bytes is fine, one more is not.
	if room := b.limit - b.n + 1; int64(len(p)) > room {
		p = p[:room]
	}
	n, err := b.r.Read(p)
	b.n += int64(n)
	if b.n > b.limit {
		n -= int(b.n - b.limit)
		b.n = b.limit
		b.err = &TooLargeError{Limit: b.limit}
		if b.named > 0 {
			b.err = &TooLargeError{Limit: b.named}
		}
		return n, b.err
	}
	if b.maxValues > 0 && !b.count(p[:n]) {
		b.err = &TooLargeError{Limit: b.limit, Values: b.maxValues}
		return n, b.err
	}
	return n, err
}

// count scans p for JSON values; false once there are more than maxValues.
// Inside a string it jumps from quote to quote (an escaped quote is one
// after an odd run of backslashes).
func (b *boundedReader) count(p []byte) bool {
	for i := 0; i < len(p); i++ {
		switch {
		case b.escaped:
			b.escaped = false
		case b.inString:
			j := bytes.IndexByte(p[i:], '"')
			if j < 0 {
				b.escaped = oddBackslashes(p[i:])
				return true
			}
			if !oddBackslashes(p[i : i+j]) {
				b.inString = false
			}
			i += j
		case p[i] == '"':
			b.inString = true
		case p[i] == ',' || p[i] == '[' || p[i] == '{':
			if b.values++; b.values > b.maxValues {
				return false
			}
		}
	}
	return true
}

// hold stops counting values as they are read, for an answer that is read
// whole as its Content-Length declared: the check of the held bytes, which
// reads every byte anyway, counts them once instead (callAnswer.splice,
// jsontext.CountedEnd), and countHeld counts what it did not check. The
// verdict is the reader's: the count is the same however the answer is
// cut into reads, so an answer past the bound fails with the same
// *TooLargeError, and memory stays bounded by the declared length
// (docs/cli.md#answer-bounds).
func (b *boundedReader) hold() {
	if b.maxValues > 0 {
		b.held, b.maxValues = b.maxValues, 0
	}
}

// within reports a held answer's count of values within its bound.
func (b *boundedReader) within(values int64) bool { return b.held == 0 || values <= b.held }

// countHeld is the error of the held bytes data, read with the error err:
// the reader's *TooLargeError when they hold more values than the bound
// (counted as the reader counts them), else err.
func (b *boundedReader) countHeld(data []byte, err error) error {
	if _, big := isTooLarge(err); b.held == 0 || big {
		return err
	}
	c := boundedReader{maxValues: b.held}
	if !c.count(data) {
		return &TooLargeError{Limit: b.limit, Values: b.held}
	}
	return err
}

// valuesIn counts p's values as the reader does, p starting outside a
// string.
func valuesIn(p []byte) int64 {
	c := boundedReader{maxValues: math.MaxInt64}
	c.count(p)
	return c.values
}

// oddBackslashes reports whether p ends in an odd run of backslashes.
func oddBackslashes(p []byte) bool {
	n := 0
	for n < len(p) && p[len(p)-1-n] == '\\' {
		n++
	}
	return n%2 == 1
}

// isTooLarge reports an answer cut by its bound.
func isTooLarge(err error) (*TooLargeError, bool) {
	var e *TooLargeError
	ok := errors.As(err, &e)
	return e, ok
}

// byteSize is a size for messages: "128 MiB", "1 GiB", "1000 bytes".
func byteSize(n int64) string {
	for _, u := range []struct {
		size int64
		name string
	}{{1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}} {
		if n >= u.size && n%u.size == 0 {
			return strconv.FormatInt(n/u.size, 10) + " " + u.name
		}
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// ParseByteSize reads a size such as "134217728", "128MiB", "128M",
// "64 KiB" or "1G" (K, M and G are binary multiples). It is what
// AGSH_MAX_ANSWER_BYTES takes.
func ParseByteSize(s string) (int64, bool) {
	num := s
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{
		{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30},
		{"KB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30},
		{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"k", 1 << 10}, {"B", 1},
	} {
		if len(num) > len(u.suffix) && num[len(num)-len(u.suffix):] == u.suffix {
			num, mult = num[:len(num)-len(u.suffix)], u.mult
			break
		}
	}
	for len(num) > 0 && num[len(num)-1] == ' ' {
		num = num[:len(num)-1]
	}
	v, err := strconv.ParseInt(num, 10, 64)
	if err != nil || v <= 0 || v > (1<<62)/mult {
		return 0, false
	}
	return v * mult, true
}
