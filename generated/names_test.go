package generated

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

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

// Naming N properties that all kebab to one flag tries O(N) spellings in
// all, not O(N²) (20,000 such names took 25 s of CPU), and still gives
// each the first free suffix.
func TestCollidingNamesLinear(t *testing.T) {
	const n = 5000
	var sb strings.Builder
	sb.WriteString(`{"type":"object","properties":{"a-3":{"type":"string"}`)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&sb, `,"%sa%s":{"type":"string"}`, strings.Repeat("_", i%50+1), strings.Repeat("$", i/50))
	}
	sb.WriteString(`}}`)
	probes := 0
	probeHook = func() { probes++ }
	defer func() { probeHook = nil }()
	cmd, err := Build([]byte(sb.String()), BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cmd.Flags) != n+1 {
		t.Fatalf("%d flags, want %d", len(cmd.Flags), n+1)
	}
	// --a-3 is a real property's own spelling: the suffixes go around it.
	want := []string{"--a-3", "--a", "--a-2", "--a-4", "--a-5"}
	for i, w := range want {
		if got := cmd.Flags[i].Name; got != w {
			t.Errorf("flag %d = %s, want %s", i, got, w)
		}
	}
	if last := cmd.Flags[n].Name; last != "--a-"+strconv.Itoa(n+1) {
		t.Errorf("last flag = %s, want --a-%d", last, n+1)
	}
	if probes > 4*n {
		t.Errorf("naming %d colliding properties tried %d taken spellings; want O(N)", n, probes)
	}
}
