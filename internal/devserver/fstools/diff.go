package fstools

import (
	"context"
	"errors"
	"strings"
)

// diff is the body of the diff tool: `git diff HEAD` of each mount that is
// a checkout (in mount order), or of the one holding path.
func (w *workspace) diff(ctx context.Context, in input) (string, error) {
	p, ok, err := in.str("path")
	if err != nil {
		return "", err
	}
	if !ok || p == "" {
		p = "/"
	}
	l, err := w.resolve(p)
	if err != nil {
		return "", err
	}
	if l.mount >= 0 {
		dir := w.mounts[l.mount].Dir
		if err := checkout(ctx, dir, w.mounts[l.mount].Path); err != nil {
			return "", err
		}
		spec := l.rel
		if spec == "" {
			spec = "."
		}
		out, err := gitDiff(ctx, dir, spec)
		if err != nil {
			return "", err
		}
		return string(out), nil
	}
	// A virtual directory: every checkout mount below it.
	prefix := strings.TrimSuffix(l.virt, "/") + "/"
	var b strings.Builder
	found := false
	var refused error // the first mount whose .git was refused
	for _, m := range w.mounts {
		if !strings.HasPrefix(m.Path, prefix) {
			continue
		}
		if err := checkout(ctx, m.Dir, m.Path); err != nil {
			var rc refusedCheckout
			if refused == nil && errors.As(err, &rc) {
				refused = err
			}
			continue
		}
		found = true
		out, err := gitDiff(ctx, m.Dir, ".")
		if err != nil {
			return "", err
		}
		b.Write(out)
	}
	if !found && refused != nil {
		return "", refused
	}
	if !found {
		return "", errorf("Not a git checkout: %s", w.rootPath())
	}
	return b.String(), nil
}
