package replcomp

import (
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/interp/syntax"
)

// QuoteWord's words read back as the value, with the quote left open when
// more is to be typed.
func TestQuoteWordRoundTrip(t *testing.T) {
	values := []string{"plain", "No Data", "my dir/", "it's", `a"b`, `back\slash`, "$(x)", "#hash", "a#b",
		"tab\there", "pipe|semi;amp&", "<in>", "(p)", "`bq`", "line\nbreak", "東京 🎉", "", "--limit=", "x y/"}
	for _, v := range values {
		for _, open := range []byte{0, '"', '\''} {
			w := QuoteWord(v, open)
			more := strings.HasSuffix(v, "/") || strings.HasSuffix(v, "=")
			if more {
				p := syntax.ScanPartial("read " + w)
				if p.Current != v || (open != 0 && p.Quote != open) {
					t.Errorf("QuoteWord(%q, %q) = %s: scans as %q (quote %q)", v, open, w, p.Current, p.Quote)
				}
				continue
			}
			s, err := syntax.Parse("read " + w)
			if err != nil {
				t.Errorf("QuoteWord(%q, %q) = %s: %v", v, open, w, err)
				continue
			}
			args := s.Lists[0].Pipelines[0].Commands[0].Args()
			if len(args) != 2 || args[1] != v {
				t.Errorf("QuoteWord(%q, %q) = %s: reads back as %q", v, open, w, args)
			}
		}
	}
}
