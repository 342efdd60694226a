package render

import (
	"strings"
	"testing"
)

// textWidth's ASCII fast path measures what the grapheme rules measure,
// and cut cuts where they cut, marks and keycaps after ASCII included.
func TestTextWidthFastPath(t *testing.T) {
	for _, s := range []string{
		"", "plain ascii", "e\u0301", "cafe\u0301 ok", "1\ufe0f\u20e3 key", "ab⇒cd", "read /x  ⇒ package main …",
		"日本語 text", "x\u200dy", "a\u0600b", "tab\tx", strings.Repeat("w", 300) + "⇒" + strings.Repeat("日", 50),
	} {
		if got, want := textWidth(s), widthCond().StringWidth(s); got != want {
			t.Errorf("textWidth(%q) = %d, want %d", s, got, want)
		}
		for w := 0; w <= textWidth(s)+1; w++ {
			want := s
			if widthCond().StringWidth(s) > w {
				want = widthCond().Truncate(s, w, "…")
				if w <= 0 {
					want = ""
				}
			}
			if got := cut(s, w); got != want {
				t.Errorf("cut(%q, %d) = %q, want %q", s, w, got, want)
			}
		}
	}
}
