package catalog

import (
	"errors"
	"io"
	"strconv"
)

// Answer bounds of cli.md, "Timeouts and interruption": every answer is
// bounded in bytes after decompression.
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
}

func (e *TooLargeError) Error() string { return "the answer is larger than " + byteSize(e.Limit) }

// boundedReader reads r up to limit bytes; the first byte past it makes
// every Read fail with a *TooLargeError. It counts every byte that passes,
// whatever the caller does with it (holds it or writes it through), so it
// can wrap a stream as well as a body that is read whole.
type boundedReader struct {
	r     io.Reader
	limit int64
	n     int64
	err   error
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
		return n, b.err
	}
	return n, err
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
