package fstools

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A file larger than readWholeUpTo is read as a stream: the lines before
// the page are skipped, the page is kept, and the rest is only counted, so
// a read holds a buffer and the page, never the file. The answer is
// formatRead's to the byte: the same lines (a CRLF ending read as LF), cuts,
// notices and errors. A negative offset counts back from the end, which
// takes one pass to count the lines and a second to the page.

// streamBuffer is the size of the stream's buffer.
var streamBuffer = 64 << 10 // a variable so that tests can make it small

// lineStream reads a file line by line, keeping at most keep bytes of each.
type lineStream struct {
	br       *bufio.Reader
	read     int64 // bytes read so far
	max      int64 // more than this is the tooLarge error
	newlines int64 // line feeds consumed so far
	eof      bool  // the last line (the one after the last line feed) was read
	line     []byte
}

func newLineStream(r io.Reader, max int64) *lineStream {
	return &lineStream{br: bufio.NewReaderSize(r, streamBuffer), max: max}
}

// errStreamTooLarge is what a stream over max bytes answers.
var errStreamTooLarge = errors.New("too large")

// next reads the next line, its CRLF or LF ending dropped: its first keep
// bytes (s.line) and its whole length. ok is false once every line was
// read. A file of n line feeds has n+1 lines, the last maybe empty.
func (s *lineStream) next(keep int) (length int, ok bool, err error) {
	if s.eof {
		return 0, false, nil
	}
	s.line = s.line[:0]
	var last byte // the line's last byte before its line feed
	for {
		chunk, rerr := s.br.ReadSlice('\n')
		s.read += int64(len(chunk))
		if s.read > s.max {
			return 0, false, errStreamTooLarge
		}
		ended := rerr == nil // chunk ends with the line feed
		body := chunk
		if ended {
			body = chunk[:len(chunk)-1]
		}
		if len(body) > 0 {
			last = body[len(body)-1]
		}
		length += len(body)
		if room := keep - len(s.line); room > 0 {
			s.line = append(s.line, body[:min(room, len(body))]...)
		}
		switch {
		case ended:
			s.newlines++
			if last == '\r' && length > 0 {
				length-- // CRLF reads as LF
				if len(s.line) > length {
					s.line = s.line[:length]
				}
			}
			return length, true, nil
		case rerr == bufio.ErrBufferFull:
			continue
		case rerr == io.EOF:
			s.eof = true
			return length, true, nil
		default:
			return 0, false, rerr
		}
	}
}

// rest counts the line feeds of what is left and returns the file's line
// count: its line feeds and one.
func (s *lineStream) rest() (int64, error) {
	for !s.eof {
		if s.br.Buffered() == 0 {
			if _, err := s.br.Peek(1); err == io.EOF {
				s.eof = true
				break
			} else if err != nil {
				return 0, err
			}
		}
		chunk, _ := s.br.Peek(s.br.Buffered())
		if s.read += int64(len(chunk)); s.read > s.max {
			return 0, errStreamTooLarge
		}
		s.newlines += int64(bytes.Count(chunk, []byte{'\n'}))
		_, _ = s.br.Discard(len(chunk))
	}
	return s.newlines + 1, nil
}

// streamRead answers a read of the open file f (at its start) as
// formatRead would answer its whole contents.
func streamRead(f io.ReadSeeker, l loc, offset, limit int, offsetText string, tooLarge error) (string, error) {
	fail := func(err error) (string, error) {
		if errors.Is(err, errStreamTooLarge) {
			return "", tooLarge
		}
		return "", statError(l, err)
	}
	var probe [binaryProbe]byte
	n, err := io.ReadFull(f, probe[:])
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return fail(err)
	}
	if n == 0 {
		return "File is empty.", nil
	}
	if isBinary(probe[:n]) {
		return "", errorf("Binary file: %s", l.virt)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return fail(err)
	}
	s := newLineStream(f, maxReadFileSize)
	start := offset
	switch {
	case offset == 0:
		start = 1
	case offset < 0:
		total, err := s.rest()
		if err != nil {
			return fail(err)
		}
		if start = int(total) + offset + 1; start < 1 {
			return "", errorf("Offset %s is beyond end of file (%d lines total)", offsetText, total)
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return fail(err)
		}
		s = newLineStream(f, maxReadFileSize)
	}
	for i := 1; i < start; i++ {
		if _, ok, err := s.next(0); err != nil {
			return fail(err)
		} else if !ok {
			return "", errorf("Offset %s is beyond end of file (%d lines total)", offsetText, s.newlines+1)
		}
	}
	var b strings.Builder
	shown, used, cut := 0, 0, false
	for limit < 0 || shown < limit {
		n, ok, err := s.next(maxReadBytes + 1)
		if err != nil {
			return fail(err)
		}
		if !ok {
			if shown == 0 {
				return "", errorf("Offset %s is beyond end of file (%d lines total)", offsetText, s.newlines+1)
			}
			break
		}
		if shown == maxReadLines || (shown > 0 && used+n > maxReadBytes) {
			cut = true
			break
		}
		if shown > 0 {
			b.WriteByte('\n')
		}
		writeNumber(&b, start+shown)
		line := s.line
		if n > maxReadBytes {
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
		used += n + 1
		shown++
		if cut {
			break
		}
	}
	// A line read but not shown (the cut) is among the lines consumed; the
	// count of the rest adds what is left.
	total64, err := s.rest()
	if err != nil {
		return fail(err)
	}
	total := int(total64)
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
