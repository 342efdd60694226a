package fstools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

const (
	maxReadLines = 2000      // lines one read returns at most
	maxReadBytes = 50 * 1024 // bytes of file text one read returns at most
	binaryProbe  = 8 * 1024  // a NUL byte this early makes a file binary

	maxReadFileSize = 256 << 20 // larger files are refused rather than read

	// readWholeUpTo is the largest file read whole, in one read sized from
	// its stat; a larger one is read as a stream to the page it returns.
	readWholeUpTo = 1 << 20
)

// Files of pooledFrom bytes or more are read into a buffer of the pool,
// sized for the largest file read whole: the page answered is a copy, so a
// buffer is free again once the answer is made, and a read of a large file
// then neither clears nor collects a megabyte.
const pooledFrom = 64 << 10

var wholeReads = sync.Pool{New: func() any {
	b := make([]byte, 0, readWholeUpTo+1)
	return &b
}}

// isBinary reports whether data (a file's start) has a NUL in its first 8 KiB.
func isBinary(data []byte) bool {
	if len(data) > binaryProbe {
		data = data[:binaryProbe]
	}
	return bytes.IndexByte(data, 0) >= 0
}

// read is the body of the read tool.
func (w *workspace) read(_ context.Context, in input) (string, error) {
	p, _, err := in.str("path")
	if err != nil {
		return "", err
	}
	offset, _, err := in.integer("offset")
	if err != nil {
		return "", err
	}
	limit, hasLimit, err := in.integer("limit")
	if err != nil {
		return "", err
	}
	if hasLimit && limit < 1 {
		return "", errorf("limit must be at least 1")
	}
	l, err := w.resolve(p)
	if err != nil {
		return "", err
	}
	if l.mount < 0 {
		return "", errorf("Is a directory: %s", l.virt)
	}
	fi, err := stat(l)
	if err != nil {
		return "", err
	}
	if fi.IsDir() {
		return "", errorf("Is a directory: %s", l.virt)
	}
	if !fi.Mode().IsRegular() {
		return "", errorf("Not a regular file: %s", l.virt)
	}
	if fi.Size() > maxReadFileSize {
		return "", errorf("File too large: %s (%d bytes; read handles up to %d)", l.virt, fi.Size(), maxReadFileSize)
	}
	f, size, err := openReadFile(l.real)
	if errors.Is(err, errNotRegular) {
		return "", errorf("Not a regular file: %s", l.virt)
	}
	if err != nil {
		return "", statError(l, err)
	}
	defer f.Close()
	if !hasLimit {
		limit = -1
	}
	// The offset as sent: one beyond ±2^31 was clamped, and is beyond the
	// end of any file read handles, so the error names what was asked.
	offsetText := strconv.Itoa(offset)
	if n, ok := in["offset"].(json.Number); ok {
		offsetText = string(n)
	}
	tooLarge := errorf("File too large: %s (read handles up to %d bytes)", l.virt, maxReadFileSize)
	if size > readWholeUpTo {
		return streamRead(f, l, offset, limit, offsetText, tooLarge)
	}
	var data []byte
	var ok bool
	if size < pooledFrom {
		data, ok, err = readSized(f, size, maxReadFileSize)
	} else {
		buf := wholeReads.Get().(*[]byte)
		defer wholeReads.Put(buf)
		data, ok, err = readSizedInto((*buf)[:0], f, size, maxReadFileSize)
	}
	if err != nil {
		return "", statError(l, err)
	}
	if !ok {
		return "", tooLarge
	}
	if isBinary(data) {
		return "", errorf("Binary file: %s", l.virt)
	}
	return formatRead(data, offset, limit, offsetText)
}

// formatRead renders data's lines from offset (1-based; 0 is 1; negative
// counts back from the end), at most limit lines (-1: no limit), numbered,
// with the size cut and its notices. offsetText spells offset in the error
// of an offset out of range.
func formatRead(data []byte, offset, limit int, offsetText string) (string, error) {
	if len(data) == 0 {
		return "File is empty.", nil
	}
	if bytes.Contains(data, []byte("\r\n")) {
		data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	}
	total := bytes.Count(data, []byte("\n")) + 1
	start := offset
	switch {
	case offset == 0:
		start = 1
	case offset < 0:
		start = total + offset + 1
	}
	if start < 1 || start > total {
		return "", errorf("Offset %s is beyond end of file (%d lines total)", offsetText, total)
	}
	want := total - start + 1
	if limit >= 0 && limit < want {
		want = limit
	}
	pos := 0
	for i := 1; i < start; i++ {
		pos += bytes.IndexByte(data[pos:], '\n') + 1
	}
	var b strings.Builder
	if n := min(len(data)-pos, maxReadBytes); n > 0 {
		b.Grow(n + n/8 + 64) // the page and its line numbers, mostly
	}
	shown, used, cut := 0, 0, false
	for shown < want {
		line := data[pos:]
		if nl := bytes.IndexByte(line, '\n'); nl >= 0 {
			line = line[:nl]
		}
		if shown == maxReadLines || (shown > 0 && used+len(line) > maxReadBytes) {
			cut = true
			break
		}
		if shown > 0 {
			b.WriteByte('\n')
		}
		writeNumber(&b, start+shown)
		if len(line) > maxReadBytes {
			k := maxReadBytes
			for k > 0 && !utf8.RuneStart(line[k]) {
				k--
			}
			b.Write(line[:k])
			b.WriteString("… [line truncated at " + strconv.Itoa(maxReadBytes) + " bytes]")
			cut = true
		} else {
			b.Write(line)
		}
		used += len(line) + 1
		pos += len(line) + 1
		shown++
		if cut {
			break
		}
	}
	last := start + shown - 1
	switch {
	case last >= total:
	case cut:
		b.WriteString("\n\n[Showing lines " + strconv.Itoa(start) + "-" + strconv.Itoa(last) + " of " +
			strconv.Itoa(total) + ". Use offset=" + strconv.Itoa(last+1) + " to continue.]")
	default:
		b.WriteString("\n\n[" + strconv.Itoa(total-last) + " more lines in file. Use offset=" +
			strconv.Itoa(last+1) + " to continue.]")
	}
	return b.String(), nil
}

// writeNumber writes n right-aligned in six columns and a '|'.
func writeNumber(b *strings.Builder, n int) {
	s := strconv.Itoa(n)
	for i := len(s); i < 6; i++ {
		b.WriteByte(' ')
	}
	b.WriteString(s)
	b.WriteByte('|')
}
