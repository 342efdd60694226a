package fstools

import (
	"context"
	"strconv"
	"strings"

	"github.com/agsh-dev/agsh/internal/devserver/tool"
	"github.com/agsh-dev/agsh/internal/wire"
)

// lsBudget is how many bytes of rows ls prints (indentation and newlines
// counted, the header not) before it collapses directories.
const lsBudget = 10000

// itoa formats n in decimal.
func itoa(n int) string { return strconv.Itoa(n) }

// ls is the body of the ls tool.
func (w *workspace) ls(ctx context.Context, in input) (string, error) {
	target, ok, err := in.str("target_directory")
	if err != nil {
		return "", err
	}
	if !ok || target == "" {
		target = w.rootPath()
	}
	globs, err := in.strings("ignore_globs")
	if err != nil {
		return "", err
	}
	var pats []globPattern
	for i, g := range globs {
		if g != "" {
			cg, err := compileGlob(g)
			if err != nil {
				return "", &tool.InputError{Issues: []wire.Issue{{Path: []any{"ignore_globs", i}, Message: err.Error()}}}
			}
			pats = append(pats, cg)
		}
	}
	l, err := w.resolve(target)
	if err != nil {
		return "", err
	}
	root := &lsNode{name: l.virt, isDir: true, children: []*lsNode{}}
	if err := w.buildLs(ctx, root, l, pats); err != nil {
		return "", err
	}
	header := "- " + strings.TrimSuffix(l.virt, "/") + "/"
	return renderLs(header, root), nil
}

// buildLs fills root with the tree at l (a mount directory or a virtual one).
func (w *workspace) buildLs(ctx context.Context, root *lsNode, l loc, pats []globPattern) error {
	if l.mount < 0 {
	names:
		for _, name := range w.virtualChildren(l.virt) {
			for _, g := range pats {
				if g.match(name, true) {
					continue names
				}
			}
			cl, err := w.resolve(strings.TrimSuffix(l.virt, "/") + "/" + name)
			if err != nil {
				continue
			}
			c := &lsNode{name: name, isDir: true, children: []*lsNode{}}
			if err := w.buildLs(ctx, c, cl, pats); err != nil {
				if ctx.Err() != nil {
					return err
				}
			}
			root.add(c)
		}
		sortNodes(root.children)
		return nil
	}
	wk, err := w.dirWalker(ctx, l)
	if err != nil {
		return err
	}
	t := &lsTree{w: wk, globs: pats, rootRel: l.rel}
	if err := t.build(root, l.rel, wk.stackFor(l.rel)); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return statError(l, err)
	}
	return nil
}

// renderLs lays the tree out: the root's children always, then
// subdirectories expanded breadth-first while the rows stay within the
// budget, the others collapsed to a summary line.
func renderLs(header string, root *lsNode) string {
	rowCost := func(n *lsNode, depth int) int { return 2*depth + 2 + len(n.label()) + 1 }
	sumCost := func(n *lsNode, depth int) int {
		if s := n.summary(); s != "" {
			return 2*(depth+1) + len(s) + 1
		}
		return 0
	}
	used := 0
	for _, c := range root.children {
		used += rowCost(c, 1)
	}
	var b strings.Builder
	b.WriteString(header)
	if used > lsBudget {
		used = 0
		for i, c := range root.children {
			cost := rowCost(c, 1)
			if used+cost > lsBudget {
				b.WriteString("\n  [" + itoa(len(root.children)-i) + " more entries]")
				break
			}
			used += cost
			writeRow(&b, c, 1)
		}
		return b.String()
	}
	expanded := map[*lsNode]bool{root: true}
	type item struct {
		n     *lsNode
		depth int
	}
	var queue []item
	for _, c := range root.children {
		if c.isDir {
			used += sumCost(c, 1)
			queue = append(queue, item{c, 1})
		}
	}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		delta := -sumCost(it.n, it.depth)
		for _, c := range it.n.children {
			delta += rowCost(c, it.depth+1)
			if c.isDir {
				delta += sumCost(c, it.depth+1)
			}
		}
		if used+delta > lsBudget {
			continue
		}
		used += delta
		expanded[it.n] = true
		for _, c := range it.n.children {
			if c.isDir {
				queue = append(queue, item{c, it.depth + 1})
			}
		}
	}
	var walk func(n *lsNode, depth int)
	walk = func(n *lsNode, depth int) {
		for _, c := range n.children {
			writeRow(&b, c, depth)
			if !c.isDir {
				continue
			}
			if expanded[c] {
				walk(c, depth+1)
			} else if s := c.summary(); s != "" {
				b.WriteString("\n" + strings.Repeat("  ", depth+1) + s)
			}
		}
	}
	walk(root, 1)
	return b.String()
}

// writeRow writes one entry row on a new line.
func writeRow(b *strings.Builder, n *lsNode, depth int) {
	b.WriteString("\n")
	b.WriteString(strings.Repeat("  ", depth))
	b.WriteString("- ")
	b.WriteString(n.label())
}
