package generated

import "strings"

// cursorNames are the property names (lowercase, without '_' or '-') of a
// flag that takes a next-page cursor.
var cursorNames = [...]string{"cursor", "pagecursor", "nextcursor", "pagetoken", "nextpagetoken", "paginationtoken", "startcursor", "startingafter"}

// CursorFlag returns the flag that takes a next-page cursor: a string (or
// scalar) leaf whose property is named cursor, page_cursor, pageToken,
// next_page_token and the like (datadog's page.cursor is --page-cursor);
// nil when the tool has none. A top-level one wins over a nested one.
func (c *Command) CursorFlag() *Flag {
	if c == nil {
		return nil
	}
	var best *Flag
	for _, f := range c.Flags {
		if f.Repeatable || f.Boolean() || !isCursorName(f.Path[len(f.Path)-1]) {
			continue
		}
		if best == nil || len(f.Path) < len(best.Path) {
			best = f
		}
	}
	return best
}

// Accepts reports whether text is a value of this flag (one occurrence).
func (f *Flag) Accepts(text string) bool { return f.spec.accepts(text) }

func isCursorName(p string) bool {
	k := strings.NewReplacer("_", "", "-", "").Replace(strings.ToLower(p))
	for _, n := range cursorNames {
		if k == n {
			return true
		}
	}
	return false
}

// NextPageArgs returns the words of the call for the next page: args (the
// words after the command name, as parsed) without agsh's own options and
// without any occurrence of the cursor flag f, then f and the cursor. The
// exception is --input-json: it is the call's input, so it stays (the
// cursor flag after it overrides its cursor member), except "@-", standard
// input, which was read once.
func (c *Command) NextPageArgs(args []string, f *Flag, cursor string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			out = append(out, args[i:]...)
			break
		}
		name, val, hasVal := strings.Cut(a, "=")
		if name == "--input-json" && c.RenamedFrom(name) == nil {
			if !hasVal && i+1 < len(args) {
				i++
				val, hasVal = args[i], true
			}
			if hasVal && val != "@-" {
				out = append(out, name, val)
			}
			continue
		}
		switch {
		case IsGlobalWithValue(name) && c.RenamedFrom(name) == nil, name == f.Name:
			if !hasVal && i+1 < len(args) {
				i++
			}
			continue
		}
		out = append(out, a)
	}
	// The cursor flag and its value go before any "--".
	tail := []string{f.Name, cursor}
	if strings.HasPrefix(cursor, "-") {
		tail = []string{f.Name + "=" + cursor}
	}
	for i, a := range out {
		if a == "--" {
			return append(append(append([]string(nil), out[:i]...), tail...), out[i:]...)
		}
	}
	return append(out, tail...)
}
