package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The composition root stays wiring (issue 18): cmd/agsh's non-test code
// is at most maxRootLines lines, and no function there is longer than
// maxRootFunc lines. A feature puts its logic in a library or internal/
// package and only its wiring here.
const (
	rootDir      = "../../cmd/agsh"
	maxRootLines = 1000
	maxRootFunc  = 60
)

func TestCompositionRootSize(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(rootDir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files in %s: %v", rootDir, err)
	}
	total := 0
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		total += strings.Count(string(src), "\n")
		file, err := parser.ParseFile(fset, f, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			start, end := fset.Position(fn.Pos()).Line, fset.Position(fn.End()).Line
			if n := end - start + 1; n > maxRootFunc {
				t.Errorf("%s: func %s is %d lines; at most %d in cmd/agsh", filepath.Base(f), fn.Name.Name, n, maxRootFunc)
			}
		}
	}
	if total > maxRootLines {
		t.Errorf("cmd/agsh holds %d lines of non-test code; at most %d (put logic in a library or internal/ package)", total, maxRootLines)
	}
}
