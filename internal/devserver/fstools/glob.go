package fstools

import (
	"context"
	"github.com/agsh-dev/agsh/internal/devserver/tool"
	"os"
	"sort"
	"strings"
)

// globHit is one file glob found.
type globHit struct {
	rel   string // relative to the target directory
	mtime int64
}

// glob is the body of the glob tool.
func (w *workspace) glob(ctx context.Context, in input) (string, error) {
	pattern, _, err := in.str("glob_pattern")
	if err != nil {
		return "", err
	}
	target, ok, err := in.str("target_directory")
	if err != nil {
		return "", err
	}
	if !ok || target == "" {
		target = w.rootPath()
	}
	l, err := w.resolve(target)
	if err != nil {
		return "", err
	}
	g, err := compileGlob(pattern)
	if err != nil {
		return "", tool.BadInput("glob_pattern", "%v", err)
	}
	var hits []globHit
	err = w.eachFile(ctx, l, func(mount int, e entry, rel string) error {
		if !g.match(rel, false) {
			return nil
		}
		fi, err := os.Stat(e.real)
		if err != nil {
			return nil
		}
		hits = append(hits, globHit{rel: rel, mtime: fi.ModTime().UnixNano()})
		return nil
	})
	if err != nil {
		return "", err
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].mtime != hits[j].mtime {
			return hits[i].mtime > hits[j].mtime
		}
		return hits[i].rel < hits[j].rel
	})
	var b strings.Builder
	noun := "files"
	if len(hits) == 1 {
		noun = "file"
	}
	b.WriteString("Result of search in '" + l.virt + "' (total " + itoa(len(hits)) + " " + noun + "):")
	for _, h := range hits {
		b.WriteString("\n- " + h.rel)
	}
	return b.String(), nil
}

// eachFile walks the visible files under the directory l — every mount
// below it when l is virtual — calling fn with each file's path relative
// to l. A missing directory or a file is an error.
func (w *workspace) eachFile(ctx context.Context, l loc, fn func(mount int, e entry, rel string) error) error {
	if l.mount < 0 {
		prefix := strings.TrimSuffix(l.virt, "/") + "/"
		order := make([]int, len(w.mounts))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool { return w.mounts[order[a]].Path < w.mounts[order[b]].Path })
		for _, i := range order {
			m := w.mounts[i]
			if !strings.HasPrefix(m.Path, prefix) {
				continue
			}
			wk := &walker{ctx: ctx, ws: w, mount: i}
			base := strings.TrimPrefix(m.Path, prefix)
			err := wk.walkFiles("", nil, func(e entry) error {
				return fn(i, e, base+"/"+e.rel)
			})
			if err != nil {
				return err
			}
		}
		return nil
	}
	wk, err := w.dirWalker(ctx, l)
	if err != nil {
		return err
	}
	return wk.walkFiles(l.rel, wk.stackFor(l.rel), func(e entry) error {
		rel := e.rel
		if l.rel != "" {
			rel = rel[len(l.rel)+1:]
		}
		return fn(l.mount, e, rel)
	})
}
