package fstools

import (
	"bytes"
	"io"
	"regexp"
)

// maxGrepFileSize is the largest file grep searches; bigger ones are skipped.
const maxGrepFileSize = 64 << 20

// lineRec is a line kept for content output: a match or a context line.
type lineRec struct {
	n     int
	text  string
	match bool
}

// fileResult is what searching one file found.
type fileResult struct {
	count  int       // matching lines
	lines  []lineRec // content mode: matches and their context, in order
	binary bool
}

// scanner searches buffers for one grep call.
type scanner struct {
	re            *regexp.Regexp
	pre           *prefilter // nil: search with the regexp alone
	first         *byteSet   // without pre: the bytes a match can start with
	multiline     bool
	content       bool // keep lines (content mode)
	firstOnly     bool // stop at the first match (files_with_matches)
	before, after int
}

// scan finds the matching lines of buf. A buffer is searched as a whole and
// split into lines only around matches; without multiline a match that
// spans a newline is re-checked on its first line alone.
//
// With a prefilter, candidate lines are found by their required literals
// first (scratch holds the lower-cased copy when case is folded).
func (s *scanner) scan(buf []byte, res *fileResult, scratch *[]byte) {
	if s.pre != nil {
		hay := buf
		if s.pre.fold {
			*scratch = lowerASCII(*scratch, buf)
			hay = *scratch
		}
		if !s.multiline {
			s.scanCandidates(buf, hay, res)
			return
		}
		if !s.pre.present(hay) {
			return
		}
	} else if s.first != nil && !s.multiline {
		s.scanLines(buf, res, func(from int) int {
			if k := s.first.indexAny(buf[from:]); k >= 0 {
				return from + k
			}
			return -1
		}, true)
		return
	}
	n := len(buf)
	pos, lineNo, linePos := 0, 1, 0
	lastKept := 0 // highest line number already in res.lines
	for pos <= n {
		loc := s.re.FindIndex(buf[pos:])
		if loc == nil {
			return
		}
		ms, me := pos+loc[0], pos+loc[1]
		if ms == n && (n == 0 || buf[n-1] == '\n') {
			return // the empty "line" after a final newline is no line
		}
		ls := pos + bytes.LastIndexByte(buf[pos:ms], '\n') + 1
		lineNo += bytes.Count(buf[linePos:ls], []byte{'\n'})
		linePos = ls
		le := lineEnd(buf, ms)
		first, last, end := lineNo, lineNo, le
		if s.multiline {
			lastByte := ms
			if me > ms {
				lastByte = me - 1
			}
			end = lineEnd(buf, lastByte)
			last = first + bytes.Count(buf[ls:end], []byte{'\n'})
		} else if me > le && !s.re.Match(buf[ls:le]) {
			pos = le + 1
			continue
		}
		res.count += last - first + 1
		if s.firstOnly {
			return
		}
		if s.content {
			lastKept = s.keep(buf, res, ls, end, first, last, lastKept)
		}
		pos = end + 1
	}
}

// scanCandidates finds matching lines by visiting the lines holding a
// required literal, in order, and checking each with the regexp (unless
// the literals are the whole pattern).
func (s *scanner) scanCandidates(buf, hay []byte, res *fileResult) {
	lits := s.pre.lits
	var nextBuf [maxPrefilterLits]int
	next := nextBuf[:len(lits)]
	for i, l := range lits {
		next[i] = bytes.Index(hay, l)
	}
	find := func(from int) int {
		m := -1
		for i, x := range next {
			if x >= 0 && x < from {
				x = -1
				if from < len(hay) {
					if k := bytes.Index(hay[from:], lits[i]); k >= 0 {
						x = from + k
					}
				}
				next[i] = x
			}
			if x >= 0 && (m < 0 || x < m) {
				m = x
			}
		}
		return m
	}
	s.scanLines(buf, res, find, !s.pre.complete)
}

// scanLines visits, in order, the lines holding the positions find
// reports (the first at or after its argument, -1 when none), counting
// those the regexp matches (all of them when verify is false).
func (s *scanner) scanLines(buf []byte, res *fileResult, find func(from int) int, verify bool) {
	lineNo, linePos, lastKept := 1, 0, 0
	for pos := 0; pos < len(buf); {
		m := find(pos)
		if m < 0 {
			return
		}
		ls := linePos + bytes.LastIndexByte(buf[linePos:m], '\n') + 1
		lineNo += bytes.Count(buf[linePos:ls], []byte{'\n'})
		linePos = ls
		le := lineEnd(buf, m)
		if !verify || s.re.Match(buf[ls:le]) {
			res.count++
			if s.firstOnly {
				return
			}
			if s.content {
				lastKept = s.keep(buf, res, ls, le, lineNo, lineNo, lastKept)
			}
		}
		pos = le + 1
	}
}

// keep records the match lines first..last (bytes ls..end) with their
// context, skipping lines already recorded.
func (s *scanner) keep(buf []byte, res *fileResult, ls, end, first, last, lastKept int) int {
	// Context before: walk back from ls.
	start, startLine := ls, first
	for startLine > 1 && first-startLine < s.before && startLine-1 > lastKept {
		start = bytes.LastIndexByte(buf[:start-1], '\n') + 1
		startLine--
	}
	p, ln := start, startLine
	for ln < first {
		e := lineEnd(buf, p)
		res.lines = append(res.lines, lineRec{n: ln, text: string(buf[p:e])})
		p, ln = e+1, ln+1
	}
	for ln <= last {
		e := lineEnd(buf, p)
		if ln > lastKept {
			res.lines = append(res.lines, lineRec{n: ln, text: string(buf[p:e]), match: true})
		} else {
			markMatch(res.lines, ln)
		}
		p, ln = e+1, ln+1
	}
	// Context after: the next lines, if they exist.
	for k := 0; k < s.after && p < len(buf); k++ {
		e := lineEnd(buf, p)
		if ln > lastKept {
			res.lines = append(res.lines, lineRec{n: ln, text: string(buf[p:e])})
		}
		p, ln = e+1, ln+1
	}
	return max(ln-1, lastKept)
}

// markMatch turns the recorded context line n into a match line.
func markMatch(lines []lineRec, n int) {
	for i := len(lines) - 1; i >= 0 && lines[i].n >= n; i-- {
		if lines[i].n == n {
			lines[i].match = true
			return
		}
	}
}

// lineEnd is the index of the '\n' ending the line holding i, or len(buf).
func lineEnd(buf []byte, i int) int {
	if i >= len(buf) {
		return len(buf)
	}
	if k := bytes.IndexByte(buf[i:], '\n'); k >= 0 {
		return i + k
	}
	return len(buf)
}

// readFileInto reads the file at name into buf's storage, growing it as
// needed, and returns the contents (skipping files over maxGrepFileSize).
// Only regular files are read (a FIFO behind a symlink would hang the
// search, a device would never end).
func readFileInto(name string, buf []byte) ([]byte, bool, error) {
	f, fi, err := openRegular(name)
	if err != nil {
		return buf[:0], false, err
	}
	defer f.Close()
	if fi.Size() > maxGrepFileSize {
		return buf[:0], false, nil
	}
	size := int(fi.Size())
	if cap(buf) < size+1 {
		buf = make([]byte, 0, size+512)
	}
	buf = buf[:0]
	for {
		if len(buf) == cap(buf) {
			if len(buf) >= maxGrepFileSize {
				return buf[:0], false, nil
			}
			buf = append(buf, 0)[:len(buf)]
		}
		k, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+k]
		if err == io.EOF {
			return buf, true, nil
		}
		if err != nil {
			return buf, false, err
		}
	}
}
