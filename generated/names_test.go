package generated

import "testing"

func TestLiteralFlag(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"-i", true},
		{"-A", true},
		{"-2", true},
		{"--x", true},
		{"--ignore-case", true},
		{"--2fa", true},
		{"-", false},
		{"--", false},
		{"-ab", false},
		{"-_", false},
		{"--Upper", false},
		{"--a_b", false},
		{"---x", false},
		{"--x=", false},
		{"x", false},
	}
	for _, tt := range tests {
		if got := literalFlag(tt.in); got != tt.want {
			t.Errorf("literalFlag(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
