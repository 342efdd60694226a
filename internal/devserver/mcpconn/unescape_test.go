package mcpconn

import (
	"encoding/json"
	"testing"
)

func TestUnescapeHTML(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"a":"\u003cb\u003e \u0026 \u003C"}`, `{"a":"<b> & <"}`},
		{`{"a":"\\u003c"}`, `{"a":"\\u003c"}`},
		{`{"a":"\\\u003c"}`, `{"a":"\\<"}`},
		{`{"a":"\u00e9\n\"\u2028\u2029"}`, "{\"a\":\"\\u00e9\\n\\\"\u2028\u2029\"}"},
		{`{"\u0026key":[1.50,12345678901234567890]}`, `{"&key":[1.50,12345678901234567890]}`},
		{`"\u003"`, `"\u003"`},
		{`"\`, `"\`},
		{``, ``},
	}
	for _, tt := range tests {
		got := string(unescapeHTML([]byte(tt.in)))
		if got != tt.want {
			t.Errorf("unescapeHTML(%s) = %s, want %s", tt.in, got, tt.want)
		}
		if json.Valid([]byte(tt.in)) && len(tt.in) > 0 {
			if !json.Valid([]byte(got)) || !sameJSON(t, []byte(tt.in), []byte(got)) {
				t.Errorf("unescapeHTML(%s) changed the value: %s", tt.in, got)
			}
		}
	}
}
