package command

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// manPagePath is the checked-in manual page, at the repository's root.
var manPagePath = filepath.Join("..", "..", "agsh.1")

// TestManPageIsGenerated: the checked-in agsh.1 is what agsh --man prints.
func TestManPageIsGenerated(t *testing.T) {
	t.Parallel()
	got, err := os.ReadFile(manPagePath)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != ManPage() {
		t.Errorf("agsh.1 is not what agsh --man prints: run make man and commit agsh.1")
	}
}

// TestManPageListsWhatHelpLists renders the checked-in agsh.1 with groff
// and compares each section's items with agsh --help's: the invocations,
// the meta commands and their flags, the options, the environment
// variables, the exit statuses.
func TestManPageListsWhatHelpLists(t *testing.T) {
	t.Parallel()
	page, err := os.ReadFile(manPagePath)
	if err != nil {
		t.Fatal(err)
	}
	rendered := renderRoff(t, page)
	man := manItems(rendered)
	help := helpItems(Usage())
	for _, sec := range []string{"SYNOPSIS", "META COMMANDS", "OPTIONS", "ENVIRONMENT", "EXIT STATUS"} {
		if len(help[sec]) == 0 {
			t.Errorf("agsh --help: no items parsed in %s", sec)
		}
		if !slices.Equal(man[sec], help[sec]) {
			t.Errorf("%s: agsh.1 lists\n  %q\nagsh --help lists\n  %q", sec, man[sec], help[sec])
		}
	}
	// Every option and variable of the tables is among the items: the
	// parse saw them all.
	for _, o := range Options() {
		if !slices.Contains(help["OPTIONS"], Spelling(o)) {
			t.Errorf("option %s not parsed from agsh --help", o.Name)
		}
	}
	for _, e := range Environment() {
		if !slices.Contains(man["ENVIRONMENT"], strings.Join(e.Names, ", ")) {
			t.Errorf("variables %v not parsed from agsh.1", e.Names)
		}
	}
	for _, m := range usageMetaRows() {
		for _, f := range m.Flags {
			if !slices.Contains(man["META COMMANDS"], m.Name+" "+metaFlagSpelling(f)) {
				t.Errorf("%s %s not parsed from agsh.1", m.Name, f.Name)
			}
		}
	}
}

// TestManPageRendersWithMan: man(1) shows the page (man -l), as an
// operator reads the archive's copy.
func TestManPageRendersWithMan(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("man"); err != nil {
		needTool(t, "man")
	}
	abs, err := filepath.Abs(manPagePath)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("man", "-l", abs)
	cmd.Env = append(os.Environ(), "MANPAGER=cat", "PAGER=cat", "MANWIDTH=100", "LC_ALL=C.UTF-8")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("man -l agsh.1: %v\n%s", err, out)
	}
	if !strings.Contains(stripOverstrike(string(out)), "ENVIRONMENT") {
		t.Errorf("man -l agsh.1 shows no ENVIRONMENT section:\n%s", out)
	}
}

// TestRoffEscape: text that means something to roff (a leading dot or
// apostrophe, backslashes, font escapes, non-ASCII) reaches the rendered page as
// written, and groff warns of nothing.
func TestRoffEscape(t *testing.T) {
	t.Parallel()
	texts := []string{
		`.SH not a heading`,
		`'br not a request`,
		`a\fBb\fR c\\d \e \(em`,
		`--flag -x`,
		`"quoted" and 'single'`,
		`ellipsis… and ünïcode`,
	}
	var w roffWriter
	w.raw(`.TH T 1`)
	w.raw(`.SH TEXTS`)
	for _, s := range texts {
		w.paragraphs(s)
		w.raw(".PP")
	}
	got := renderRoff(t, []byte(w.String()))
	for _, s := range texts {
		if !strings.Contains(got, s) {
			t.Errorf("rendered page lacks %q:\n%s", s, got)
		}
	}
}

// TestEnvironmentNamesOptionVariables: every option's variable is a row of
// the environment table.
func TestEnvironmentNamesOptionVariables(t *testing.T) {
	for _, o := range Options() {
		if o.Env == "" {
			continue
		}
		if !slices.ContainsFunc(Environment(), func(e EnvVar) bool { return slices.Contains(e.Names, o.Env) }) {
			t.Errorf("%s's variable %s is not in the environment table", o.Name, o.Env)
		}
	}
}

// needTool skips a test whose tool is absent, except in CI, which installs
// it (.ci/run).
func needTool(t *testing.T, name string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is not installed; .ci/run installs it", name)
	}
	t.Skipf("%s is not installed", name)
}

// renderRoff is page rendered by groff's man macros as plain UTF-8 text,
// the hyphens and minus signs groff may draw as '-'. A groff warning fails
// the test.
func renderRoff(t *testing.T, page []byte) string {
	t.Helper()
	if _, err := exec.LookPath("groff"); err != nil {
		needTool(t, "groff")
	}
	cmd := exec.Command("groff", "-man", "-Tutf8", "-ww", "-P-c", "-P-b", "-P-u", "-P-o", "-rLL=100n")
	cmd.Stdin = bytes.NewReader(page)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil || stderr.Len() > 0 {
		t.Fatalf("groff: %v\n%s", err, stderr.String())
	}
	return strings.NewReplacer("\u2212", "-", "\u2010", "-", "\u2011", "-").Replace(stripOverstrike(string(out)))
}

// stripOverstrike removes the backspace overstrikes of bold and underline.
func stripOverstrike(s string) string {
	return regexp.MustCompile(`.\x08`).ReplaceAllString(s, "")
}

// manSections maps the headings of agsh --help to the manual page's.
var manSections = map[string]string{
	"USAGE": "SYNOPSIS", "META COMMANDS": "META COMMANDS", "GLOBAL OPTIONS": "OPTIONS",
	"ENVIRONMENT": "ENVIRONMENT", "EXIT STATUS": "EXIT STATUS",
}

// helpItems are the terms of agsh --help's sections, under the manual
// page's names: a meta command's flags as ":name --flag <value>".
func helpItems(usage string) map[string][]string {
	items := map[string][]string{}
	sec, meta := "", ""
	for _, line := range strings.Split(usage, "\n") {
		if line != "" && line[0] != ' ' {
			head, _, _ := strings.Cut(line, " (")
			sec = manSections[head]
			continue
		}
		if sec == "" || !strings.HasPrefix(line, "    ") {
			continue
		}
		col := helpColumn
		if sec == "EXIT STATUS" {
			col = statusColumn
		}
		term := line[4:]
		if len(line) > col && line[col-1] == ' ' {
			term = line[4 : col-1]
		}
		term = strings.Join(strings.Fields(term), " ")
		switch {
		case term == "" && sec == "META COMMANDS" && len(line) > col && strings.ContainsAny(line[col:col+1], "[-"):
			// The flags' line: a flag in brackets, or a required one
			// without them.
			for _, m := range regexp.MustCompile(`\[([^\]]+)\]|(--?[\w-]+(?: <[^>]+>)?)`).FindAllStringSubmatch(line[col:], -1) {
				items[sec] = append(items[sec], meta+" "+m[1]+m[2])
			}
		case term != "":
			items[sec] = append(items[sec], term)
			if sec == "META COMMANDS" {
				meta = strings.Fields(term)[1]
			}
		}
	}
	return items
}

// manItems are the tags of the rendered manual page's sections: a line
// at the section's indent whose body follows at the next indent, on it or
// on the next line; a meta command's flags (nested one indent further) as
// ":name --flag <value>".
func manItems(page string) map[string][]string {
	items := map[string][]string{}
	lines := strings.Split(page, "\n")
	sec, meta := "", ""
	indent := func(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }
	// tagAt is the tag of lines[i] at indent in, "" when it is none.
	tagAt := func(i, in int) string {
		l := lines[i]
		if strings.TrimSpace(l) == "" || indent(l) != in {
			return ""
		}
		body := in + 7
		if len(l) > body && l[body-1] == ' ' && l[body-2] == ' ' && l[body] != ' ' {
			return strings.TrimSpace(l[:body]) // the body on the tag's line
		}
		if i+1 < len(lines) && strings.TrimSpace(lines[i+1]) != "" && indent(lines[i+1]) == body {
			return strings.TrimSpace(l)
		}
		return ""
	}
	for i, l := range lines {
		if l != "" && l[0] != ' ' {
			sec = strings.TrimSpace(l)
			continue
		}
		if tag := tagAt(i, 7); tag != "" {
			tag = strings.Join(strings.Fields(tag), " ")
			items[sec] = append(items[sec], tag)
			if sec == "META COMMANDS" {
				meta = strings.Fields(tag)[1]
			}
		} else if tag := tagAt(i, 14); tag != "" && sec == "META COMMANDS" && strings.HasPrefix(tag, "-") {
			items[sec] = append(items[sec], meta+" "+strings.Join(strings.Fields(tag), " "))
		}
	}
	return items
}
