package shellcomp

import (
	"encoding/base64"
	"fmt"
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
	if got := r.Format(cands("--status=No Data", "--status=OK")); got != "No\\ Data\nOK\n" {
		t.Errorf("Format = %q", got)
	}
	r, _ = ParseRequest("bash", []string{"agsh read /repo/my f", "f"})
	if got := r.Format(cands("/repo/my file.txt", "/repo/a&b", "bad\nname")); got != "/repo/my\\ file.txt\n/repo/a\\&b\n" {
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
		if got := r.Format(cands(tt.cands...)); got != tt.want {
			t.Errorf("%s: Format = %q, want %q", tt.line, got, tt.want)
		}
	}
}

func TestZshFishRequest(t *testing.T) {
	r, _ := ParseRequest("zsh", []string{"mon", "--status", `"No D`})
	if !reflect.DeepEqual(r.Words, []string{"mon", "--status"}) || r.Current != "No D" {
		t.Errorf("zsh %+v", r)
	}
	if got := r.Format(cands("No Data")); got != "No Data\n" {
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
		want := "--__complete " + sh + " --"
		if sh == "pwsh" {
			want = "--__complete pwsh 2>$null" // the words come in AGSH_COMPLETE_WORDS
		}
		if err != nil || !strings.Contains(s, want) {
			t.Errorf("%s: %v\n%s", sh, err, s)
		}
	}
	if _, err := Script("tcsh", "agsh"); err == nil {
		t.Error("tcsh accepted")
	}
}

// cands are candidates without descriptions.
func cands(values ...string) []Candidate {
	var out []Candidate
	for _, v := range values {
		out = append(out, Candidate{Value: v})
	}
	return out
}

// TestFormatDropsUnsafe: for every shell, a candidate holding a control
// (ESC, C1), bidi or zero-width character, a tab or a line break is never
// written (an escaped name could not be called); a description is escaped,
// on one line, bounded.
func TestFormatDropsUnsafe(t *testing.T) {
	hostile := []Candidate{
		{Value: "evil\x1b]52;c;aGk=\x07"}, {Value: "retitle\x1b]0;pwned\x07"}, {Value: "c1\u009b2J"},
		{Value: "rlo\u202eexe"}, {Value: "zw\u200bsp"}, {Value: "bom\ufeff"}, {Value: "tab\tother_tool"},
		{Value: "line\nbreak"}, {Value: "cr\rx"}, {Value: "bad\xff"}, {Value: "del\x7f"},
		{Value: "ok_tool", Description: "Title \x1b]0;t\x07 \u202e\tnext\nline"},
		{Value: "long", Description: strings.Repeat("é", 200)},
	}
	args := map[string][]string{"bash": {"agsh x", "x"}, "zsh": {"x"}, "fish": {"x"}, "pwsh": {"x"}}
	for _, sh := range Shells {
		r, err := ParseRequest(sh, args[sh])
		if err != nil {
			t.Fatal(err)
		}
		out := r.Format(hostile)
		if sh == "pwsh" {
			out = decodePwsh(t, out)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) != 2 {
			t.Errorf("%s: %d lines, want the two plain candidates:\n%q", sh, len(lines), out)
		}
		for _, r := range out {
			if r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f || r == 0x202e || r == 0x200b || r == 0xfeff {
				t.Errorf("%s: %U written:\n%q", sh, r, out)
			}
		}
		desc := `Title \x1b]0;t\x07 \u202e next line`
		long := strings.Repeat("é", 80) + "…"
		want := map[string]string{
			"bash": "ok_tool\nlong\n",
			"zsh":  "ok_tool\t" + desc + "\nlong\t" + long + "\n",
			"fish": "ok_tool\t" + desc + "\nlong\t" + long + "\n",
			"pwsh": "ok_tool\tok_tool\t" + desc + "\nlong\tlong\t" + long + "\n",
		}[sh]
		if out != want {
			t.Errorf("%s: %q, want %q", sh, out, want)
		}
	}
}

// decodePwsh reads PowerShell answer lines back: replacement, list text
// and tooltip, joined by tabs.
func decodePwsh(t *testing.T, out string) string {
	t.Helper()
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if l == "" {
			continue
		}
		f := strings.Split(l, " ")
		if len(f) != 3 {
			t.Fatalf("pwsh line %q has %d fields", l, len(f))
		}
		for i, x := range f {
			v, err := base64.StdEncoding.DecodeString(x)
			if err != nil {
				t.Fatal(err)
			}
			if i > 0 {
				b.WriteByte('\t')
			}
			b.Write(v)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func TestFormatCapsCandidates(t *testing.T) {
	var many []Candidate
	for i := 0; i <= MaxCandidates; i++ {
		many = append(many, Candidate{Value: fmt.Sprintf("/repo/f%d", i)})
	}
	r, _ := ParseRequest("fish", []string{"/repo/f"})
	if n := strings.Count(r.Format(many), "\n"); n != MaxCandidates {
		t.Errorf("%d candidates written, want %d", n, MaxCandidates)
	}
}

// TestBashHistoryExpansion: a candidate's ! is written so that interactive
// bash leaves it alone (backslashed outside quotes; inside an open double
// quote, outside it: a backslash there would stay in the word), and the
// quote a candidate opens is closed (readline appends its own quote only
// when the text does not end in it).
func TestBashHistoryExpansion(t *testing.T) {
	tests := []struct {
		line, cur string
		cand      string
		want      string
	}{
		{"agsh x --v xh", "xh", "xh!!y", `xh\!\!y`},
		{`agsh x --v "xh`, `"xh`, "xh!!y", `xh"\!\!"y`},
		{`agsh x --v "xh`, `"xh`, "xh!", `xh"\!""`},
		{`agsh x --v "xh`, `"xh`, "xh!#", `xh"\!"#`},
		{`agsh x --v "xh`, `"xh`, `xh"`, `xh\""`}, // readline sees the escaped " and adds none
		{`agsh x --v 'xs`, `'xs`, "xs!!", "xs!!"},
		{`agsh x --v 'xs`, `'xs`, "xs'", `xs'\'''`},
		{`agsh x --v 'xs`, `'xs`, "xs'y", `xs'\''y`},
		{`agsh read "/repo/d`, `"/repo/d`, "/repo/d!r/", `/repo/d"\!"r/`}, // a directory stays open
	}
	for _, tt := range tests {
		r, err := ParseRequest("bash", []string{tt.line, tt.cur})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSuffix(r.Format(cands(tt.cand)), "\n"); got != tt.want {
			t.Errorf("%s + %q: %q, want %q", tt.line, tt.cand, got, tt.want)
		}
	}
}

// TestPwshQuote: a PowerShell argument that reads back as the value:
// bare when plain, else single-quoted (nothing expands there) with every
// quote PowerShell recognizes doubled.
func TestPwshQuote(t *testing.T) {
	for in, want := range map[string]string{
		"read":                       "read",
		"--status=":                  "--status=",
		"/repo/a.txt":                "/repo/a.txt",
		"No Data":                    "'No Data'",
		"$(Remove-Item -r ~)":        "'$(Remove-Item -r ~)'",
		"a`b":                        "'a`b'",
		"it's":                       "'it''s'",
		"curly\u2019s \u2018x\u201b": "'curly\u2019\u2019s \u2018\u2018x\u201b\u201b'",
		`dq"$x"`:                     `'dq"$x"'`,
		"@splat":                     "'@splat'",
		"a,b":                        "'a,b'",
		"#comment":                   "'#comment'",
		"":                           "''",
		"/repo/my dir/":              "'/repo/my dir/",
		"東京":                         "'東京'",
	} {
		if got := PwshQuote(in); got != want {
			t.Errorf("PwshQuote(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPwshRequest: the words arrive base64 in AGSH_COMPLETE_WORDS, as
// typed; PowerShell's quoting is read back (” in single quotes, "" in
// double quotes, a backtick escape, an open quote in the word being typed).
func TestPwshRequest(t *testing.T) {
	enc := func(ws ...string) string {
		var f []string
		for _, w := range ws {
			f = append(f, base64.StdEncoding.EncodeToString([]byte(w)))
		}
		return strings.Join(f, " ")
	}
	words, ok := PwshWords(enc("mon", "--status", "'No D"))
	if !ok {
		t.Fatal("words not read")
	}
	r, _ := ParseRequest("pwsh", words)
	if !reflect.DeepEqual(r.Words, []string{"mon", "--status"}) || r.Current != "No D" {
		t.Errorf("request %+v", r)
	}
	if got := decodePwsh(t, r.Format([]Candidate{{Value: "No Data", Description: "state"}})); got != "'No Data'\tNo Data\tstate\n" {
		t.Errorf("Format = %q", got)
	}
	words, _ = PwshWords(enc("read", `'it''s a'`, "a`b", `"x""y"`, ""))
	r, _ = ParseRequest("pwsh", words)
	if !reflect.DeepEqual(r.Words, []string{"read", "it's a", "ab", `x"y`}) || r.Current != "" {
		t.Errorf("request %+v", r)
	}
	if _, ok := PwshWords("not base64!"); ok {
		t.Error("garbage accepted")
	}
}

// TestPwshScript: the script registers a native completer for agsh, hands
// the words over in the variable (never on argv), decodes each answer
// field from base64 and removes the variable again.
func TestPwshScript(t *testing.T) {
	s, err := Script("pwsh", "agsh")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Register-ArgumentCompleter -Native -CommandName 'agsh'",
		"$env:AGSH_COMPLETE_WORDS = ($words | ForEach-Object { [Convert]::ToBase64String([Text.Encoding]::UTF8.GetBytes($_)) }) -join ' '",
		"& 'agsh' --__complete pwsh 2>$null",
		"Remove-Item -Path Env:AGSH_COMPLETE_WORDS",
		"[Text.Encoding]::UTF8.GetString([Convert]::FromBase64String($_))",
		"[System.Management.Automation.CompletionResult]::new($t[0], $t[1], 'ParameterValue', $t[2])",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the script lacks %q:\n%s", want, s)
		}
	}
	// The script expands nothing it is given: no double-quoted string.
	if strings.Contains(s, `"`) {
		t.Errorf("the script has a double-quoted string:\n%s", s)
	}
}
