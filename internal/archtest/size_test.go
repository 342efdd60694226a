package archtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The composition root stays wiring (issue 18): cmd/agsh's non-test code
// is at most maxRootLines lines, and no function there (a declared one or a
// function literal) is longer than maxRootFunc lines. A feature puts its
// logic in a library or internal/ package and only its wiring here.
const (
	rootDir      = "../../cmd/agsh"
	maxRootLines = 1000
	maxRootFunc  = 60
)

func TestCompositionRootSize(t *testing.T) {
	problems, err := rootProblems(rootDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// TestCompositionRootSizeCatches: the bounds hold against a package that
// breaks them — a 61-line function, a 61-line function literal, 1,001
// lines — and a test file counts for nothing.
func TestCompositionRootSizeCatches(t *testing.T) {
	dir := t.TempDir()
	body := func(n int) string { return strings.Repeat("\t_ = 0\n", n-2) }
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	a := "package main\n\nfunc long() {\n" + body(maxRootFunc+1) + "}\n\nvar lit = func() {\n" + body(maxRootFunc+1) + "}\n\nfunc ok() {\n" + body(maxRootFunc) + "}\n"
	write("a.go", a)
	write("b.go", "package main\n"+strings.Repeat("\n", maxRootLines-strings.Count(a, "\n")))
	write("big_test.go", "package main\n"+strings.Repeat("\n", 5000))
	problems, err := rootProblems(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(problems, "\n")
	for _, want := range []string{"func long is 61 lines", "func literal at a.go:65 is 61 lines", "holds 1001 lines"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q among the problems:\n%s", want, got)
		}
	}
	if strings.Contains(got, "func ok") || len(problems) != 3 {
		t.Errorf("problems:\n%s", got)
	}
}

// rootProblems checks the non-test Go files of dir against the bounds.
func rootProblems(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("no Go files in %s: %v", dir, err)
	}
	var problems []string
	total := 0
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		total += strings.Count(string(src), "\n")
		file, err := parser.ParseFile(fset, f, src, 0)
		if err != nil {
			return nil, err
		}
		base := filepath.Base(f)
		ast.Inspect(file, func(n ast.Node) bool {
			var name string
			switch fn := n.(type) {
			case *ast.FuncDecl:
				name = "func " + fn.Name.Name
			case *ast.FuncLit:
				name = fmt.Sprintf("func literal at %s:%d", base, fset.Position(fn.Pos()).Line)
			default:
				return true
			}
			start, end := fset.Position(n.Pos()).Line, fset.Position(n.End()).Line
			if lines := end - start + 1; lines > maxRootFunc {
				problems = append(problems, fmt.Sprintf("%s: %s is %d lines; at most %d in cmd/agsh", base, name, lines, maxRootFunc))
			}
			return true
		})
	}
	if total > maxRootLines {
		problems = append(problems, fmt.Sprintf("cmd/agsh holds %d lines of non-test code; at most %d (put logic in a library or internal/ package)", total, maxRootLines))
	}
	return problems, nil
}
