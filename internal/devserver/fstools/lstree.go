package fstools

import (
	"path"
	"sort"
	"strings"
)

// lsNode is one entry of the tree ls renders.
type lsNode struct {
	name     string
	isDir    bool
	children []*lsNode // sorted; nil for files and unentered directories
	files    int       // visible files in the subtree
	exts     map[string]int
}

// lsTree builds the visible tree under a directory for ls.
type lsTree struct {
	w       *walker
	globs   []globPattern
	rootRel string // the target's path inside its mount
}

// build reads the directory rel and, recursively, its subdirectories.
func (t *lsTree) build(n *lsNode, rel string, stack ignoreStack) error {
	ents, stack, err := t.w.list(rel, stack)
	if err != nil {
		if ctxErr := t.w.ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		if rel == t.rootRel {
			return err
		}
		return nil // an unreadable subdirectory shows as empty
	}
	n.children = []*lsNode{}
	for _, e := range ents {
		if t.excluded(e) {
			continue
		}
		c := &lsNode{name: e.name, isDir: e.isDir}
		if e.isDir && !e.symlink {
			if err := t.build(c, e.rel, stack); err != nil {
				return err
			}
		}
		if !e.isDir {
			c.files = 1
			c.exts = map[string]int{extLabel(e.name): 1}
		}
		n.add(c)
	}
	sortNodes(n.children)
	return nil
}

// excluded reports whether an ignore_globs pattern matches e, matched
// relative to the listed directory.
func (t *lsTree) excluded(e entry) bool {
	if len(t.globs) == 0 {
		return false
	}
	rel := e.rel
	if t.rootRel != "" {
		rel = strings.TrimPrefix(rel, t.rootRel+"/")
	}
	for _, g := range t.globs {
		if g.match(rel, e.isDir) {
			return true
		}
	}
	return false
}

// add appends child c and folds its file counts into n.
func (n *lsNode) add(c *lsNode) {
	n.children = append(n.children, c)
	n.files += c.files
	if len(c.exts) > 0 && n.exts == nil {
		n.exts = map[string]int{}
	}
	for k, v := range c.exts {
		n.exts[k] += v
	}
}

// sortNodes sorts siblings case-insensitively with a directory's "/"
// counted, ties broken byte-wise.
func sortNodes(ns []*lsNode) {
	sort.Slice(ns, func(i, j int) bool {
		a, b := strings.ToLower(ns[i].label()), strings.ToLower(ns[j].label())
		if a != b {
			return a < b
		}
		return ns[i].label() < ns[j].label()
	})
}

// label is the entry's name, with a trailing "/" for directories.
func (n *lsNode) label() string {
	if n.isDir {
		return n.name + "/"
	}
	return n.name
}

// extLabel is the summary's name for a file's extension: "*.go", or
// "*no-ext" when the name has no dot (or ends with one).
func extLabel(name string) string {
	ext := path.Ext(name)
	if len(ext) <= 1 {
		return "*no-ext"
	}
	return "*" + ext
}

// summary is a collapsed directory's line (without indent):
// "[12 files in subtree: 7 *.go, 3 *.md, 2 *no-ext]"; "" when it holds no
// files.
func (n *lsNode) summary() string {
	if n.files == 0 {
		return ""
	}
	type kv struct {
		k string
		v int
	}
	var all []kv
	for k, v := range n.exts {
		all = append(all, kv{k, v})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].v != all[j].v {
			return all[i].v > all[j].v
		}
		return all[i].k < all[j].k
	})
	if len(all) > 3 {
		all = all[:3]
	}
	parts := make([]string, len(all))
	for i, e := range all {
		parts[i] = itoa(e.v) + " " + e.k
	}
	return "[" + itoa(n.files) + " files in subtree: " + strings.Join(parts, ", ") + "]"
}
