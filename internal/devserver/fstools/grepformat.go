package fstools

import (
	"sort"
	"strconv"
	"strings"
)

// formatGrep renders grep's result text from the files with matches (in
// path order), applying offset and head_limit.
func formatGrep(r *grepRequest, files []grepFile) string {
	if r.mode == modeContent {
		return formatContent(r, files)
	}
	skip := min(r.offset, len(files))
	files = files[skip:]
	cut := false
	if r.headLimit > 0 && len(files) > r.headLimit {
		files, cut = files[:r.headLimit], true
	}
	if len(files) == 0 {
		return "No matches found"
	}
	var b strings.Builder
	b.WriteString("Found ")
	if cut {
		b.WriteString("at least ")
	}
	if r.mode == modeFiles {
		b.WriteString(plural(len(files), "file", "files"))
		for _, f := range files {
			b.WriteString("\n" + f.disp)
		}
		return b.String()
	}
	lines := 0
	for _, f := range files {
		lines += f.res.count
	}
	b.WriteString(plural(lines, "matching line", "matching lines") + " across " + plural(len(files), "file", "files"))
	for _, f := range files {
		b.WriteString("\n" + f.disp + ":" + strconv.Itoa(f.res.count))
	}
	return b.String()
}

// formatContent renders content mode: per file a header, then its match
// lines "LN:text" and context lines "LN-text"; files apart by a blank line.
func formatContent(r *grepRequest, files []grepFile) string {
	skip, budget := r.offset, r.headLimit
	cut := false
	kept := 0
	var body strings.Builder
	size := 0
	for _, f := range files {
		size += len(f.disp) + 2
		for _, l := range f.res.lines {
			size += len(l.text) + 8
		}
	}
	body.Grow(min(size, 64<<20))
	for _, f := range files {
		if cut {
			break
		}
		// The match lines of this file within the page.
		var page []int
		for _, l := range f.res.lines {
			if !l.match {
				continue
			}
			if skip > 0 {
				skip--
				continue
			}
			if r.headLimit > 0 && budget == 0 {
				cut = true
				break
			}
			page = append(page, l.n)
			budget--
		}
		if len(page) == 0 {
			continue
		}
		kept += len(page)
		if body.Len() > 0 {
			body.WriteString("\n\n")
		}
		body.WriteString(f.disp)
		writeLines(&body, f.res.lines, page, r.before, r.after)
	}
	if kept == 0 {
		return "No matches found"
	}
	head := "Found "
	if cut {
		head += "at least "
	}
	return head + plural(kept, "matching line", "matching lines") + "\n" + body.String()
}

// writeLines writes the recorded lines within context of a page match:
// page matches as "LN:text", the rest as "LN-text".
func writeLines(b *strings.Builder, lines []lineRec, page []int, before, after int) {
	k := 0 // first page match that may still cover a line
	for _, l := range lines {
		for k < len(page) && page[k]+after < l.n {
			k++
		}
		if k == len(page) {
			return
		}
		if l.n < page[k]-before {
			continue
		}
		sep := byte('-')
		if i := sort.SearchInts(page, l.n); l.match && i < len(page) && page[i] == l.n {
			sep = ':'
		}
		var num [24]byte
		b.WriteByte('\n')
		b.Write(strconv.AppendInt(num[:0], int64(l.n), 10))
		b.WriteByte(sep)
		b.WriteString(l.text)
	}
}

// plural is "1 file" or "N files".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
