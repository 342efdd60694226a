package archtest

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/agsh-dev/agsh"

// leaves are the small leaf packages every agsh package may import: they
// import nothing of agsh themselves. Each holds one fact that several
// packages need, so that no import rule forces a second copy of it.
var leaves = []string{
	"internal/names",    // kebab-casing, did-you-mean suggestions
	"internal/exitcode", // the exit-status table
	"internal/jsontext", // the ordered JSON reader
}

// allowed lists, per package prefix (relative to the module), the agsh
// packages it may import besides the leaves. Every package but cmd/agsh
// (the composition root, which may import everything) has a rule
// (TestEveryPackageHasARule).
var allowed = []struct {
	pkg   string
	may   []string
	noNet bool
}{
	{pkg: "internal/names", may: nil, noNet: true},
	{pkg: "internal/exitcode", may: nil, noNet: true},
	{pkg: "internal/jsontext", may: nil, noNet: true},
	{pkg: "catalog", may: nil},
	{pkg: "generated", may: []string{"catalog", "generated"}},
	{pkg: "curated", may: []string{"generated", "catalog", "curated"}},
	{pkg: "interp", may: []string{"interp"}, noNet: true},
	{pkg: "render", may: []string{"render"}, noNet: true},
	{pkg: "internal/iostreams", may: nil},
	{pkg: "internal/termbg", may: nil, noNet: true},
	{pkg: "internal/pager", may: nil, noNet: true},
	{pkg: "internal/spin", may: nil, noNet: true},
	{pkg: "internal/repl", may: []string{"interp", "render", "catalog", "generated", "curated", "internal/repl", "internal/iostreams"}},
	{pkg: "internal/command", may: []string{"catalog", "generated", "curated", "interp", "render", "internal/repl", "internal/command"}},
	{pkg: "internal/devserver", may: []string{"catalog", "internal/devserver"}},
	{pkg: "internal/resultstream", may: []string{"catalog", "curated", "generated", "render", "internal/resultstream"}},
	{pkg: "internal/version", may: nil, noNet: true},
	{pkg: "internal/gcpace", may: nil, noNet: true},
	{pkg: "internal/testcorpus", may: nil, noNet: true},
	{pkg: "internal/compcache", may: []string{"catalog"}},
	{pkg: "internal/shellcomp", may: []string{"catalog", "generated", "interp", "internal/command", "internal/compcache", "internal/version"}},
	{pkg: "internal/testmcp", may: nil},
	{pkg: "internal/termquiet", may: nil, noNet: true},
	{pkg: "internal/archtest", may: nil, noNet: true},
	{pkg: "cmd/agsh-devserver", may: []string{"internal/devserver"}},
}

// TestEveryPackageHasARule: a new package states what it may import.
func TestEveryPackageHasARule(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not found")
	}
	for _, p := range listPackages(t) {
		me, _ := rel(p.path)
		if me == "cmd/agsh" {
			continue
		}
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
	path    string
	imports []string
	deps    []string
}

func listPackages(t *testing.T) []pkgInfo {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}|{{join .Imports \" \"}}|{{join .Deps \" \"}}", module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []pkgInfo
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		parts := strings.SplitN(line, "|", 3)
		if len(parts) != 3 {
			continue
		}
		pkgs = append(pkgs, pkgInfo{path: parts[0], imports: strings.Fields(parts[1]), deps: strings.Fields(parts[2])})
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
				continue
			}
			if within(r, "cmd") {
				t.Errorf("%s imports %s: nothing may import cmd/...", me, r)
			}
			for _, rule := range allowed {
				if !within(me, rule.pkg) {
					continue
				}
				ok := isLeaf(r) && !isLeaf(me)
				for _, m := range rule.may {
					if within(r, m) {
						ok = true
					}
				}
				if !ok {
					t.Errorf("%s imports %s; it may import only %v and the leaves %v", me, r, rule.may, leaves)
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
// by help or by what decides a call (issue 17).
var importedOnlyBy = map[string][]string{
	"internal/compcache": {"internal/shellcomp"},
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
