package fstools

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// genWords is the vocabulary of generated source-like files.
var genWords = []string{
	"func", "import", "error", "return", "id", "foo", "bar", "abc", "a1c", "value",
	"Handler", "ERROR", "Func", "x", "xx", "nil", "123", "4567", "ctx", "err",
	"package", "main", "if", "for", "range", "struct", "type", "string", "int", "go",
}

// genTree makes a deterministic tree of n files of about size bytes each,
// spread over nested directories: path → content. Some files lack a final
// newline, one uses CRLF, and empty lines are common.
func genTree(seed uint64, n, size int) map[string]string {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	files := make(map[string]string, n)
	exts := []string{".go", ".md", ".txt", ".ts", ".py", ".json", ".yaml", ".sh", ".rs", ".c"}
	for i := range n {
		dir := fmt.Sprintf("d%d/s%d", i%7, i%13)
		if i%5 == 0 {
			dir = fmt.Sprintf("d%d", i%7)
		}
		name := fmt.Sprintf("%s/f%04d%s", dir, i, exts[i%len(exts)])
		var b strings.Builder
		for b.Len() < size {
			words := r.IntN(9)
			for w := 0; w < words; w++ {
				if w > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(genWords[r.IntN(len(genWords))])
			}
			b.WriteByte('\n')
		}
		s := b.String()
		switch {
		case i%11 == 3:
			s = strings.TrimSuffix(s, "\n")
		case i%17 == 5:
			s = strings.ReplaceAll(s, "\n", "\r\n")
		}
		files[name] = s
	}
	files["empty.txt"] = ""
	files["newline.txt"] = "\n"
	return files
}
