package archtest

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/agsh-dev/agsh"

// leaves are the small leaf packages every agsh package may import unless
// its rule says noLeaves: they import nothing of agsh themselves but
// internal/termsafe, the lowest (its standard-library-only rule keeps it so). Each holds one fact that several
// packages need, so that no import rule forces a second copy of it.
var leaves = []string{
	"internal/names",    // kebab-casing, did-you-mean suggestions
	"internal/exitcode", // the exit-status table
	"internal/jsontext", // the ordered JSON reader
	"internal/termsafe", // the one escaping of text bound for a terminal
}

// allowed lists, per package prefix (relative to the module), the agsh
// packages it may import besides the leaves, and why. Every package has a
// rule (TestEveryPackageHasARule); a package not named in may is forbidden.
// noLeaves forbids the leaves too: the package imports nothing of agsh but
// what may names. stdlibOnly forbids every module outside the standard
// library besides. noNet forbids depending on net/http.
var allowed = []struct {
	pkg        string
	may        []string
	noLeaves   bool
	stdlibOnly bool
	noNet      bool
	why        string
}{
	{pkg: "internal/names", noNet: true, why: "a leaf: kebab-casing and did-you-mean, needed by several packages"},
	{pkg: "internal/exitcode", noNet: true, why: "a leaf: the one exit-status table"},
	{pkg: "internal/jsontext", may: []string{"internal/termsafe"}, noNet: true,
		why: "a leaf: the one ordered-JSON reader; its terminal escape is termsafe's predicate"},
	{pkg: "internal/termsafe", noNet: true, stdlibOnly: true,
		why: "a leaf: the one escaping of text bound for a terminal, shared by render, shell completion and the development deployment's log"},
	{pkg: "internal/wire", noLeaves: true, stdlibOnly: true, noNet: true,
		why: "the shapes and error codes on the wire, which the client decodes and the development deployment encodes: importing it brings neither side's code to the other"},
	{pkg: "catalog", may: []string{"internal/wire"},
		why: "the client: everything else talks to a deployment through it; of agsh it knows only the wire's shapes"},
	{pkg: "generated", may: []string{"catalog", "generated"}, why: "maps a tool's schema; it reads catalog's types only"},
	{pkg: "curated", may: []string{"generated", "catalog", "curated"}, why: "curated shapes fall back to generated ones"},
	{pkg: "interp", may: []string{"interp"}, noNet: true, why: "the shell language: commands and rendering reach it through interfaces"},
	{pkg: "render", may: []string{"render"}, noNet: true, why: "values to bytes: it knows no tool and no HTTP"},
	{pkg: "internal/iostreams", why: "the standard streams and the color policy"},
	{pkg: "internal/termbg", noNet: true, why: "the terminal's background, given the facts"},
	{pkg: "internal/pager", noNet: true, why: "runs $PAGER"},
	{pkg: "internal/spin", noNet: true, why: "the one-shot spinner"},
	{pkg: "internal/ttyask", noLeaves: true, noNet: true,
		why: "one yes-or-no key read from the terminal (raw mode, typed-ahead input discarded): the write guard's question, the same in one-shot, the line shell and the REPL"},
	{pkg: "internal/repl", may: []string{"internal/repl"}, noLeaves: true,
		why: "the interactive shell, a terminal widget: the interpreter, the renderer and the deployment reach it through its Runner, Completer and Config functions, wired in internal/cli"},
	{pkg: "internal/console", may: []string{"catalog", "generated", "render", "internal/console", "internal/top"},
		why: "the console over a session's record: it reads through catalog, writes through render; a call's command line is passed in; the fleet's reads fill the fleet view's rows"},
	{pkg: "internal/top", may: []string{"render", "internal/top"}, noNet: true,
		why: "the fleet view of :top, a terminal widget: what it shows and does comes through its Source, so it knows no HTTP and is tested with fakes; its id column keeps ids apart as render's tables do"},
	{pkg: "internal/command", may: []string{"catalog", "generated", "curated", "interp", "render", "internal/meta", "internal/command"},
		why: "the command table: what a name means and how its line parses; the meta commands are internal/meta's rows, as curated commands are curated's"},
	{pkg: "internal/replcomp", may: []string{"catalog", "curated", "generated", "interp", "render", "internal/repl", "internal/command", "internal/meta", "internal/replcomp"},
		why: "Tab in the REPL: candidates from the command table, the live commands and the meta rows, for the REPL's Completer and the hidden completion answer"},
	{pkg: "internal/meta", may: []string{"catalog", "generated", "render", "internal/console", "internal/top", "internal/meta"},
		why: "the meta commands (:status, :sessions, the console's words, :curl): a table of rows that run through one MetaRun (a client, the streams, the format, the guard's question); it knows no command table, which reads it"},
	{pkg: "internal/devserver", may: []string{"internal/wire", "internal/devserver"},
		why: "the development deployment: it speaks the contract through the wire's shapes, never through the client, so a client bug cannot hide in both sides"},
	{pkg: "internal/resultstream", may: []string{"catalog", "curated", "generated", "render", "internal/resultstream"},
		why: "a call's text result written as it arrives"},
	{pkg: "internal/version", noNet: true, why: "agsh --version"},
	{pkg: "internal/gcpace", noNet: true, why: "the collector's pace, imported by cmd/agsh for its side effect"},
	{pkg: "internal/testcorpus", noNet: true, why: "tests only: where testdata and the shared corpus are"},
	{pkg: "internal/benchdata", noLeaves: true, stdlibOnly: true, noNet: true,
		why: "tests only: the large inputs several packages' benchmarks and memory tests share (a table's rows, a session's record)"},
	{pkg: "internal/compcache", may: []string{"catalog", "internal/privdir"}, why: "shell completion's catalog cache"},
	{pkg: "internal/privdir", noLeaves: true, stdlibOnly: true, noNet: true,
		why: "agsh's own state folders kept private (the user's, no symbolic link, 0700): the completion cache and :status's memory share the one rule"},
	{pkg: "internal/shellcomp", may: []string{"catalog", "curated", "generated", "interp", "internal/command", "internal/meta", "internal/replcomp", "internal/compcache", "internal/version"},
		why: "the login shells' completion scripts and answers"},
	{pkg: "internal/release", may: []string{"internal/testcorpus"}, noNet: true,
		why: "tests only: the release build (.goreleaser.yaml) run by goreleaser in a copy of the repository (testcorpus finds the root)"},
	{pkg: "internal/testmcp", why: "tests only: a stdio MCP server with every content kind"},
	{pkg: "internal/testtier", noLeaves: true, stdlibOnly: true, noNet: true,
		why: "tests only: which tier of the test suite runs a test (the race build, the big tests that run without it)"},
	{pkg: "internal/termquiet", noNet: true, why: "imported by cmd/agsh for its side effect before bubbletea's init"},
	{pkg: "internal/archtest", may: []string{"internal/testcorpus"}, noNet: true,
		why: "these rules, and that the repository's references resolve inside it (testcorpus finds the root)"},
	{pkg: "internal/cli", may: []string{"catalog", "generated", "curated", "interp", "render", "internal"},
		why: "the pipeline: one-shot, script and REPL wiring, calls and error reports; it may use every library but the development deployment"},
	{pkg: "cmd/agsh-devserver", may: []string{"internal/devserver"}, why: "the development deployment's binary: flags and signals"},
	{pkg: "cmd/agsh", may: []string{"internal/cli", "internal/iostreams", "internal/gcpace", "internal/termquiet"},
		why: "main and the process environment only: everything else is internal/cli"},
}

// forbidden are edges no may rule can open: the pipeline never links the
// development deployment.
var forbidden = []struct{ from, to string }{
	{"internal/cli", "internal/devserver"},
	{"internal/cli", "internal/testmcp"},
	{"internal/cli", "internal/archtest"},
	{"internal/cli", "internal/testcorpus"},
}

// TestEveryPackageHasARule: a new package states what it may import.
func TestEveryPackageHasARule(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not found")
	}
	for _, p := range listPackages(t) {
		me, _ := rel(p.path)
		found := false
		for _, rule := range allowed {
			found = found || within(me, rule.pkg)
		}
		if !found {
			t.Errorf("%s has no rule in allowed: add what it may import", me)
		}
	}
}

// isLeaf reports a leaf package.
func isLeaf(p string) bool {
	for _, l := range leaves {
		if p == l {
			return true
		}
	}
	return false
}

type pkgInfo struct {
	path        string
	imports     []string
	deps        []string
	testImports []string // of the package's test files, in and outside the package
}

func listPackages(t *testing.T) []pkgInfo {
	t.Helper()
	out, err := exec.Command("go", "list", "-f",
		"{{.ImportPath}}|{{join .Imports \" \"}}|{{join .Deps \" \"}}|{{join .TestImports \" \"}} {{join .XTestImports \" \"}}",
		module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []pkgInfo
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		parts := strings.SplitN(line, "|", 4)
		if len(parts) != 4 {
			continue
		}
		pkgs = append(pkgs, pkgInfo{path: parts[0], imports: strings.Fields(parts[1]), deps: strings.Fields(parts[2]),
			testImports: strings.Fields(parts[3])})
	}
	return pkgs
}

func rel(p string) (string, bool) {
	if p == module {
		return "", true
	}
	if strings.HasPrefix(p, module+"/") {
		return strings.TrimPrefix(p, module+"/"), true
	}
	return "", false
}

// stdlib reports a package of the standard library: its path's first
// element has no dot.
func stdlib(p string) bool {
	first, _, _ := strings.Cut(p, "/")
	return !strings.Contains(first, ".")
}

func within(p, prefix string) bool { return p == prefix || strings.HasPrefix(p, prefix+"/") }

func TestImportDirections(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not found")
	}
	for _, p := range listPackages(t) {
		me, _ := rel(p.path)
		for _, imp := range p.imports {
			r, ours := rel(imp)
			if !ours {
				for _, rule := range allowed {
					if rule.stdlibOnly && within(me, rule.pkg) && !stdlib(imp) {
						t.Errorf("%s imports %s; it may import the standard library only (%s)", me, imp, rule.why)
					}
				}
				continue
			}
			if within(r, "cmd") {
				t.Errorf("%s imports %s: nothing may import cmd/...", me, r)
			}
			for _, rule := range allowed {
				if !within(me, rule.pkg) {
					continue
				}
				ok := isLeaf(r) && !isLeaf(me) && !rule.noLeaves
				for _, m := range rule.may {
					if within(r, m) {
						ok = true
					}
				}
				for _, f := range forbidden {
					if within(me, f.from) && within(r, f.to) {
						ok = false
					}
				}
				if !ok && rule.noLeaves {
					t.Errorf("%s imports %s; it may import only %v, not even the leaves (%s)", me, r, rule.may, rule.why)
				} else if !ok {
					t.Errorf("%s imports %s; it may import only %v and the leaves %v (%s)", me, r, rule.may, leaves, rule.why)
				}
			}
		}
		for _, rule := range allowed {
			if !rule.noNet || !within(me, rule.pkg) {
				continue
			}
			for _, d := range p.deps {
				if d == "net/http" {
					t.Errorf("%s depends on net/http; it must know nothing of HTTP", me)
				}
			}
		}
	}
}

// importedOnlyBy names packages that only the listed packages may import:
// shell completion's catalog cache is read by shell completion alone, never
// by help or by what decides a call (docs/cli.md#completion-scripts).
var importedOnlyBy = map[string][]string{
	"internal/compcache": {"internal/shellcomp"},
	"internal/testtier":  {}, // tests only (docs/testing.md#tiers)
	"internal/benchdata": {}, // tests only (docs/testing.md#benchmarks)
}

func TestImportedOnlyBy(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not found")
	}
	for _, p := range listPackages(t) {
		me, _ := rel(p.path)
		for _, imp := range p.imports {
			r, ours := rel(imp)
			if !ours {
				continue
			}
			if who, ok := importedOnlyBy[r]; ok && !slices.Contains(who, me) {
				t.Errorf("%s imports %s; only %v may", me, r, who)
			}
		}
	}
}

// testsMayNot are edges the tests of a package may not have either: the
// development deployment's tests check what it answers on the wire, in
// bytes and the wire's shapes; a test that drives the real client against
// it belongs to a package that may import both (internal/cli).
var testsMayNot = []struct{ from, to, why string }{
	{"internal/devserver", "catalog", "the deployment's tests must not lean on the client's decoding"},
	{"cmd/agsh-devserver", "catalog", "the deployment's tests must not lean on the client's decoding"},
}

func TestTestImports(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not found")
	}
	for _, p := range listPackages(t) {
		me, _ := rel(p.path)
		for _, imp := range p.testImports {
			r, ours := rel(imp)
			if !ours {
				continue
			}
			for _, f := range testsMayNot {
				if within(me, f.from) && within(r, f.to) {
					t.Errorf("a test of %s imports %s (%s)", me, r, f.why)
				}
			}
		}
	}
}
