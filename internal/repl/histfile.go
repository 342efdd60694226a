package repl

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// The history file holds one entry per line. An entry of several lines (a
// continued input) is stored on one line with "\n" for each newline and
// "\\" for each backslash.

// loadHistory reads the history file, oldest entry first, leaving out any
// entry that contains a secret. A missing file is an empty history. When the
// file holds more than limit entries it is rewritten with the newest limit.
func loadHistory(path string, limit int, secrets []string) ([]string, error) {
	if path == "" {
		return nil, nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var entries []string
	dropped := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), len(data)+1)
	for sc.Scan() {
		e := decodeHistoryLine(sc.Text())
		if strings.TrimSpace(e) == "" {
			continue
		}
		if containsSecret(e, secrets) || hasControl(e) {
			dropped = true
			continue
		}
		if len(entries) > 0 && entries[len(entries)-1] == e {
			continue
		}
		entries = append(entries, e)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if over := len(entries) - limit; over > 0 || dropped {
		if over > 0 {
			entries = entries[over:]
		}
		if err := rewriteHistory(path, entries); err != nil {
			return entries, err
		}
	}
	return entries, nil
}

// appendHistory adds one entry at the end of the file, creating its
// directory (0700) and the file (0600) when needed. An entry that contains a
// secret, or a control character (a name Tab inserted from the deployment's
// listing may hold one), is never written: it stays in this session's
// history only.
func appendHistory(path, entry string, secrets []string) error {
	if path == "" || strings.TrimSpace(entry) == "" || containsSecret(entry, secrets) || hasControl(entry) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	if fi, err := f.Stat(); err == nil && fi.Mode().Perm()&0o077 != 0 {
		_ = f.Chmod(0o600)
	}
	_, werr := f.WriteString(encodeHistoryLine(entry) + "\n")
	cerr := f.Close()
	if werr != nil {
		return werr
	}
	return cerr
}

// rewriteHistory replaces the file with entries, atomically.
func rewriteHistory(path string, entries []string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".history-*")
	if err != nil {
		return err
	}
	var b strings.Builder
	for _, e := range entries {
		b.WriteString(encodeHistoryLine(e))
		b.WriteByte('\n')
	}
	_, werr := tmp.WriteString(b.String())
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp.Name(), 0o600)
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		_ = os.Remove(tmp.Name())
	}
	return werr
}

func encodeHistoryLine(entry string) string {
	if !strings.ContainsAny(entry, "\\\n\r") {
		return entry
	}
	var b strings.Builder
	for i := 0; i < len(entry); i++ {
		switch c := entry[i]; c {
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func decodeHistoryLine(line string) string {
	if !strings.Contains(line, `\`) {
		return line
	}
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c != '\\' || i+1 == len(line) {
			b.WriteByte(c)
			continue
		}
		i++
		switch line[i] {
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case '\\':
			b.WriteByte('\\')
		default:
			b.WriteByte('\\')
			b.WriteByte(line[i])
		}
	}
	return b.String()
}

// containsSecret reports whether s contains any non-empty secret, also
// once its words are unquoted and unescaped ('tok_'"abc", tok\_abc,
// "tok_"abc), or a credential given on the line itself (--bearer-token's
// value: refused on a command line, but a credential all the same).
func containsSecret(s string, secrets []string) bool {
	bare := unquoted(s)
	if strings.Contains(s, "--bearer-token") || strings.Contains(bare, "--bearer-token") {
		return true
	}
	for _, sec := range secrets {
		if sec != "" && (strings.Contains(s, sec) || strings.Contains(bare, sec)) {
			return true
		}
	}
	return false
}

// hasControl reports a control character but newline and tab (C0, DEL,
// C1) or a byte that is not UTF-8: what would drive a terminal when the
// file is shown, or read back as something else.
func hasControl(s string) bool {
	for _, r := range s {
		if r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f {
			return true
		}
	}
	return !utf8.ValidString(s)
}

// unquoted is s without its quotes and backslashes: every word as the
// shell reads it, or a little more (a backslash inside double quotes that
// the shell keeps is dropped too, which can only make a match likelier).
func unquoted(s string) string {
	if !strings.ContainsAny(s, `'"\`) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++ // a line continuation joins the word
			}
		case '\'', '"':
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// maskSecrets replaces every non-empty secret in s with ***.
func maskSecrets(s string, secrets []string) string {
	for _, sec := range secrets {
		if sec != "" {
			s = strings.ReplaceAll(s, sec, "***")
		}
	}
	return s
}
