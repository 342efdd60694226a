package fstools

import (
	"context"
	"path"
	"regexp"
	"strings"

	"github.com/agsh-dev/agsh/internal/devserver/tool"
)

// grep's output modes.
const (
	modeContent = "content"
	modeFiles   = "files_with_matches"
	modeCount   = "count"
)

// grepType returns the extensions grep's type name selects (nil: unknown).
func grepType(name string) []string {
	switch name {
	case "go":
		return []string{".go"}
	case "js":
		return []string{".js", ".mjs", ".cjs", ".jsx"}
	case "ts":
		return []string{".ts", ".tsx", ".mts", ".cts"}
	case "py":
		return []string{".py"}
	case "rust":
		return []string{".rs"}
	case "java":
		return []string{".java"}
	case "c":
		return []string{".c", ".h"}
	case "cpp":
		return []string{".cc", ".cpp", ".cxx", ".hpp", ".hh", ".h"}
	case "md":
		return []string{".md", ".markdown"}
	case "json":
		return []string{".json"}
	case "yaml":
		return []string{".yaml", ".yml"}
	case "sh":
		return []string{".sh", ".bash"}
	}
	return nil
}

// grepRequest is a decoded grep call.
type grepRequest struct {
	scanner
	mode         string
	headLimit    int // 0: no limit
	offset       int
	glob         *globPattern
	exts         []string
	target       loc
	targetIsFile bool
}

// parseGrep decodes and checks grep's input.
func (w *workspace) parseGrep(in input) (*grepRequest, error) {
	r := &grepRequest{mode: modeContent}
	pattern, _, err := in.str("pattern")
	if err != nil {
		return nil, err
	}
	ci, err := in.boolean("-i")
	if err != nil {
		return nil, err
	}
	if r.multiline, err = in.boolean("multiline"); err != nil {
		return nil, err
	}
	flags := "(?m)"
	if ci {
		flags += "(?i)"
	}
	if r.multiline {
		flags += "(?s)"
	}
	if _, err := regexp.Compile(pattern); err != nil {
		msg := strings.TrimPrefix(err.Error(), "error parsing regexp: ")
		return nil, tool.BadInput("pattern", "invalid regular expression: %s", msg)
	}
	if r.re, err = regexp.Compile(flags + pattern); err != nil {
		return nil, tool.BadInput("pattern", "invalid regular expression: %s", err)
	}
	r.pre = buildPrefilter(flags + pattern)
	if r.pre == nil {
		r.first = firstBytes(flags + pattern)
	}
	if m, ok, err := in.str("output_mode"); err != nil {
		return nil, err
	} else if ok {
		if m != modeContent && m != modeFiles && m != modeCount {
			return nil, tool.BadInput("output_mode", "must be one of content, files_with_matches, count")
		}
		r.mode = m
	}
	ctx := map[string]int{}
	for _, f := range []string{"-A", "-B", "-C", "head_limit", "offset"} {
		v, _, err := in.integer(f)
		if err != nil {
			return nil, err
		}
		if v < 0 {
			return nil, tool.BadInput(f, "must be at least 0")
		}
		ctx[f] = v
	}
	r.before, r.after = ctx["-C"], ctx["-C"]
	if _, ok := in["-B"]; ok && in["-B"] != nil {
		r.before = ctx["-B"]
	}
	if _, ok := in["-A"]; ok && in["-A"] != nil {
		r.after = ctx["-A"]
	}
	r.headLimit, r.offset = ctx["head_limit"], ctx["offset"]
	r.content = r.mode == modeContent
	r.firstOnly = r.mode == modeFiles
	if g, ok, err := in.str("glob"); err != nil {
		return nil, err
	} else if ok && g != "" {
		cg, err := compileGlob(g)
		if err != nil {
			return nil, tool.BadInput("glob", "%v", err)
		}
		r.glob = &cg
	}
	if t, ok, err := in.str("type"); err != nil {
		return nil, err
	} else if ok && t != "" {
		if r.exts = grepType(t); r.exts == nil {
			return nil, tool.BadInput("type", "unknown type %q (known: go, js, ts, py, rust, java, c, cpp, md, json, yaml, sh)", t)
		}
	}
	return r, nil
}

// wants reports whether the glob and type filters select the file at rel
// (relative to the searched directory).
func (r *grepRequest) wants(rel string) bool {
	if r.glob != nil && !r.glob.match(rel, false) {
		return false
	}
	if r.exts != nil {
		ext := path.Ext(rel)
		for _, e := range r.exts {
			if ext == e {
				return true
			}
		}
		return false
	}
	return true
}

// grep is the body of the grep tool.
func (w *workspace) grep(ctx context.Context, in input) (string, error) {
	r, err := w.parseGrep(in)
	if err != nil {
		return "", err
	}
	p, ok, err := in.str("path")
	if err != nil {
		return "", err
	}
	if !ok || p == "" {
		p = w.rootPath()
	}
	if r.target, err = w.resolve(p); err != nil {
		return "", err
	}
	if r.target.mount >= 0 {
		fi, err := stat(r.target)
		if err != nil {
			return "", err
		}
		r.targetIsFile = !fi.IsDir()
	}
	files, err := w.grepFiles(ctx, r)
	if err != nil {
		return "", err
	}
	return formatGrep(r, files), nil
}
