package shellcomp

import (
	"reflect"
	"strings"
	"testing"
)

func TestSplitLine(t *testing.T) {
	tests := []struct {
		line     string
		words    []string
		cur, raw string
	}{
		{"agsh ", []string{"agsh"}, "", ""},
		{"agsh re", []string{"agsh"}, "re", "re"},
		{`agsh datadog_list_monitors --status "No D`, []string{"agsh", "datadog_list_monitors", "--status"}, "No D", `"No D`},
		{`agsh x --status No\ D`, []string{"agsh", "x", "--status"}, "No D", `No\ D`},
		{`agsh x 'it''s' a"b\"c"d `, []string{"agsh", "x", "its", `ab"cd`}, "", ""},
		{`agsh x --status=Al`, []string{"agsh", "x"}, "--status=Al", "--status=Al"},
	}
	for _, tt := range tests {
		w, c, r := SplitLine(tt.line)
		if !reflect.DeepEqual(w, tt.words) || c != tt.cur || r != tt.raw {
			t.Errorf("SplitLine(%q) = %q %q %q", tt.line, w, c, r)
		}
	}
}

func TestBashRequest(t *testing.T) {
	r, err := ParseRequest("bash", []string{"agsh mon --status=No\\ D", "No\\ D"})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r.Words, []string{"mon"}) || r.Current != "--status=No D" {
		t.Fatalf("request %+v", r)
	}
	if got := r.Format([]string{"--status=No Data", "--status=OK"}); got != "No\\ Data\nOK\n" {
		t.Errorf("Format = %q", got)
	}
	r, _ = ParseRequest("bash", []string{"agsh read /repo/my f", "f"})
	if got := r.Format([]string{"/repo/my file.txt", "/repo/a&b", "bad\nname"}); got != "/repo/my\\ file.txt\n/repo/a\\&b\n" {
		t.Errorf("Format = %q", got)
	}
}

// TestBashOpenQuote: with a quote open in the word, readline replaces only
// what follows the quote (and closes it), so candidates continue the quoted
// text by that quote's rules.
func TestBashOpenQuote(t *testing.T) {
	tests := []struct {
		line, cur string
		cands     []string
		want      string
	}{
		{`agsh read "/repo/my`, `"/repo/my`, []string{"/repo/my notes.txt", `/repo/a"$b`}, "/repo/my notes.txt\n/repo/a\\\"\\$b\n"},
		{`agsh read '/repo/it`, `'/repo/it`, []string{"/repo/it's.txt"}, "/repo/it'\\''s.txt\n"},
		{`agsh read /repo/"my`, `/repo/"my`, []string{"/repo/my notes.txt", "/other/my"}, "my notes.txt\n"},
		{`agsh mon --status="No`, `"No`, []string{"--status=No Data"}, "No Data\n"},
		{`agsh read a\'b"c d`, `a\'b"c d`, []string{"a'bc dir/"}, "c dir/\n"},
		{`agsh read 'a'"b`, `'a'"b`, []string{"ab c"}, "b c\n"},
	}
	for _, tt := range tests {
		r, err := ParseRequest("bash", []string{tt.line, tt.cur})
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Format(tt.cands); got != tt.want {
			t.Errorf("%s: Format = %q, want %q", tt.line, got, tt.want)
		}
	}
}

func TestZshFishRequest(t *testing.T) {
	r, _ := ParseRequest("zsh", []string{"mon", "--status", `"No D`})
	if !reflect.DeepEqual(r.Words, []string{"mon", "--status"}) || r.Current != "No D" {
		t.Errorf("zsh %+v", r)
	}
	if got := r.Format([]string{"No Data"}); got != "No Data\n" {
		t.Errorf("zsh Format = %q", got)
	}
	r, _ = ParseRequest("fish", []string{"mon", "--status", `'No D`})
	if !reflect.DeepEqual(r.Words, []string{"mon", "--status"}) || r.Current != "No D" {
		t.Errorf("fish %+v", r)
	}
	if _, err := ParseRequest("tcsh", nil); err == nil {
		t.Error("tcsh accepted")
	}
}

func TestScripts(t *testing.T) {
	for _, sh := range Shells {
		s, err := Script(sh, "agsh")
		if err != nil || !strings.Contains(s, "--__complete "+sh+" --") {
			t.Errorf("%s: %v\n%s", sh, err, s)
		}
	}
	if _, err := Script("powershell", "agsh"); err == nil {
		t.Error("powershell accepted")
	}
}
