package fstools

import (
	"bytes"
	"context"
	"strconv"
	"strings"
)

// change is one commit as list_changes answers it.
type change struct {
	SHA     string   `json:"sha"`
	Author  string   `json:"author"`
	Date    string   `json:"date"`
	Subject string   `json:"subject"`
	Files   []string `json:"files"`
}

// listChanges is the body of list_changes: the root mount's recent
// commits, newest first.
func (w *workspace) listChanges(ctx context.Context, in input) ([]change, error) {
	limit, ok, err := in.integer("limit")
	if err != nil {
		return nil, err
	}
	if !ok {
		limit = 20
	}
	if limit < 1 {
		return nil, errorf("limit must be at least 1")
	}
	author, _, err := in.str("author")
	if err != nil {
		return nil, err
	}
	if len(w.mounts) == 0 {
		return nil, errorf("Not a git checkout: %s", w.rootPath())
	}
	dir := w.mounts[0].Dir
	if err := checkout(ctx, dir, w.mounts[0].Path); err != nil {
		return nil, err
	}
	if !hasHead(ctx, dir) {
		return []change{}, nil
	}
	args := []string{"-c", "core.quotePath=false", "log", "-z", "--no-color", "--no-show-signature", "--name-only",
		"--format=%x1e%H%x00%an%x00%aI%x00%s%x00", "-n", strconv.Itoa(limit)}
	if author != "" {
		args = append(args, "--fixed-strings", "--regexp-ignore-case", "--author="+author)
	}
	args = append(args, "HEAD", "--")
	// A root mount below the top of its checkout lists the commits that
	// touch it.
	if prefix, err := runGit(ctx, dir, "rev-parse", "--show-prefix"); err == nil && strings.TrimSpace(string(prefix)) != "" {
		args = append(args, ".")
	}
	out, err := runGit(ctx, dir, args...)
	if err != nil {
		return nil, err
	}
	return parseLog(out), nil
}

// parseLog parses `git log -z --name-only` output in the format above:
// each commit starts with a record separator and its hash, then the author,
// date and subject, then NUL-terminated file names.
func parseLog(out []byte) []change {
	changes := []change{}
	fields := bytes.Split(out, []byte{0})
	for i := 0; i < len(fields); i++ {
		tok := strings.TrimLeft(string(fields[i]), "\n")
		if !strings.HasPrefix(tok, "\x1e") || !isHex(tok[1:]) || i+3 >= len(fields) {
			if tok != "" && len(changes) > 0 {
				c := &changes[len(changes)-1]
				c.Files = append(c.Files, tok)
			}
			continue
		}
		changes = append(changes, change{
			SHA:     tok[1:],
			Author:  string(fields[i+1]),
			Date:    string(fields[i+2]),
			Subject: string(fields[i+3]),
			Files:   []string{},
		})
		i += 3
	}
	return changes
}

// isHex reports whether s is a non-empty lower-case hex string.
func isHex(s string) bool {
	if len(s) < 4 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !('0' <= s[i] && s[i] <= '9' || 'a' <= s[i] && s[i] <= 'f') {
			return false
		}
	}
	return true
}
