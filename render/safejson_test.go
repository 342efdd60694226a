package render

import (
	"encoding/json"
	"testing"
)

func TestSafeJSON(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"a":"x"}`, `{"a":"x"}`},
		{"{\"a\":\"x\x7fy\"}", `{"a":"x\u007fy"}`},
		{"{\"a\":\"\u009b2J \u0085 é ✓\"}", `{"a":"\u009b2J \u0085 é ✓"}`},
		{"[\"\xff\", 1.50, \"q\\\"\u0090\"]\n", "[\"\\ufffd\", 1.50, \"q\\\"\\u0090\"]\n"},
		{"{\n  \"k\u0080\": \"\\u001b\"\n}", "{\n  \"k\\u0080\": \"\\u001b\"\n}"},
	} {
		got := string(SafeJSON([]byte(tc.in)))
		if got != tc.want {
			t.Errorf("SafeJSON(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if !json.Valid([]byte(got)) {
			t.Errorf("SafeJSON(%q) = %q is not JSON", tc.in, got)
		}
	}
}
