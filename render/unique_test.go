package render

import (
	"strings"
	"testing"
)

func TestUniquePrefixWidth(t *testing.T) {
	for _, tt := range []struct {
		ids  []string
		want int
	}{
		{nil, 0},
		{[]string{"call_1234567890abcdef"}, 0},
		{[]string{"call_1234567890abcdef", "call_1234567890abcdef"}, 0}, // the same id twice
		{[]string{"call_aaaa", "call_bbbb"}, 6},
		{[]string{"call_1234567890abcdef", "call_1234567890abXXXX", "call_9"}, 18},
		{[]string{"ab", "abc"}, 3},
		{[]string{"ses_é1", "ses_é2"}, 6},   // whole runes
		{[]string{"x\u00e9", "x\u00ea"}, 2}, // runes that share their first byte
	} {
		if got := UniquePrefixWidth(tt.ids); got != tt.want {
			t.Errorf("UniquePrefixWidth(%q) = %d, want %d", tt.ids, got, tt.want)
		}
	}
}

// A Short id column of a narrow table is cut to its Short width only when
// that keeps the held rows' ids apart; else to the width that does.
func TestTableStreamShortKeepsIDsApart(t *testing.T) {
	cols := []Column{{Header: "ID", Short: 12}, {Header: "WHAT", Flex: true}}
	for _, tt := range []struct {
		ids  []string
		want []string
	}{
		{[]string{"call_0123456789abcdef", "call_fedcba9876543210"}, []string{"call_0123456", "call_fedcba9"}},
		{[]string{"call_0123456789abcdef", "call_0123456789abXXXX"}, []string{"call_0123456789abc", "call_0123456789abX"}},
	} {
		var b strings.Builder
		ts := NewTableStream(&b, cols, Options{TTY: true, Width: 40}, 100, false)
		for _, id := range tt.ids {
			ts.Row(false, id, strings.Repeat("w", 60))
		}
		ts.Close()
		lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		for i, l := range lines {
			if f := strings.Fields(l)[0]; f != tt.want[i] {
				t.Errorf("%q: row %d shows %q, want %q\n%s", tt.ids, i, f, tt.want[i], b.String())
			}
		}
	}
	// A Whole column is never cut.
	var b strings.Builder
	ts := NewTableStream(&b, []Column{{Header: "ID", Whole: true, Width: 6}, {Header: "WHAT", Flex: true}}, Options{TTY: true, Width: 30}, 0, false)
	ts.Row(false, "call_0123456789abcdef", "x")
	ts.Close()
	if !strings.HasPrefix(b.String(), "call_0123456789abcdef  x") {
		t.Errorf("a whole column was cut: %q", b.String())
	}
}
