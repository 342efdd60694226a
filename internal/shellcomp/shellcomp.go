// Package shellcomp is agsh's completion for the host shell (bash, zsh,
// fish): the script `agsh --completion SHELL` prints, the reading of what
// that script passes to agsh's hidden `--__complete SHELL` launch option,
// and the writing of the answer, each candidate quoted by the host shell's
// rules. What the candidates are is the REPL's completion engine's answer;
// this package only translates between the shells.
package shellcomp

import (
	"fmt"
	"io"
	"strings"

	"github.com/agsh-dev/agsh/internal/exitcode"
)

// Shells are the shells agsh writes a completion script for.
var Shells = []string{"bash", "zsh", "fish"}

// Script answers the completion script for shell, calling prog (the name
// the user types, "agsh") back with --__complete.
func Script(shell, prog string) (string, error) {
	fn := "_" + strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' {
			return r
		}
		return '_'
	}, prog) + "_complete"
	switch shell {
	case "bash":
		return fmt.Sprintf(bashScript, prog, fn), nil
	case "zsh":
		return fmt.Sprintf(zshScript, prog, fn), nil
	case "fish":
		return fmt.Sprintf(fishScript, prog), nil
	}
	return "", fmt.Errorf("--completion must be bash, zsh or fish, not %q", shell)
}

// The scripts pass the command line before the cursor (bash), the words
// (zsh: as typed; fish: tokens before the cursor, unquoted, then the token
// being typed as typed) after "--", so that nothing the user typed is taken
// for an option of agsh's.
const bashScript = `# agsh completion for bash. Load it in ~/.bashrc:
#   source <(%[1]s --completion bash)
%[2]s() {
    local out line cur i
    if [ -n "${COMP_LINE-}" ]; then
        line=${COMP_LINE:0:COMP_POINT}
        cur=${COMP_WORDS[COMP_CWORD]-${2-}}
    elif [ "${COMP_CWORD:--1}" -ge 0 ] && [ "${#COMP_WORDS[@]}" -gt 0 ]; then
        # COMP_WORDS without COMP_LINE (a caller that sets only those):
        # the words up to the cursor, rejoined around the '=' bash split at.
        line=${COMP_WORDS[0]}
        for ((i = 1; i <= COMP_CWORD; i++)); do
            if [ "${COMP_WORDS[i]}" = "=" ] || [ "${COMP_WORDS[i-1]}" = "=" ]; then
                line+=${COMP_WORDS[i]-}
            else
                line+=" ${COMP_WORDS[i]-}"
            fi
        done
        cur=${COMP_WORDS[COMP_CWORD]-}
    else
        # compgen -F: only the word being completed, taken as the first.
        line="%[1]s ${2-}"
        cur=${2-}
    fi
    out=$(command %[1]s --__complete bash -- "$line" "$cur" 2>/dev/null) || return 0
    COMPREPLY=()
    [ -n "$out" ] || return 0
    mapfile -t COMPREPLY <<<"$out"
    if [ "${#COMPREPLY[@]}" -eq 1 ]; then
        case "${COMPREPLY[0]}" in
            */|*=) compopt -o nospace 2>/dev/null ;;
        esac
    fi
    return 0
}
complete -F %[2]s %[1]s
`

const zshScript = `#compdef %[1]s
# agsh completion for zsh. Load it in ~/.zshrc (after compinit):
#   source <(%[1]s --completion zsh)
%[2]s() {
    local -a out spaced unspaced
    out=("${(@f)$(command %[1]s --__complete zsh -- "${(@)words[2,CURRENT]}" 2>/dev/null)}")
    local c
    for c in "${out[@]}"; do
        [[ -z $c ]] && continue
        if [[ $c == */ || $c == *= ]]; then unspaced+=("$c"); else spaced+=("$c"); fi
    done
    (( ${#spaced} )) && compadd -- "${spaced[@]}"
    (( ${#unspaced} )) && compadd -S '' -- "${unspaced[@]}"
    return 0
}
if (( $+functions[compdef] )); then
    compdef %[2]s %[1]s
fi
`

const fishScript = `# agsh completion for fish. Load it in ~/.config/fish/config.fish:
#   %[1]s --completion fish | source
function __%[1]s_complete
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l current (commandline -ct)
    command %[1]s --__complete fish -- $tokens "$current" 2>/dev/null
end
complete -c %[1]s -f -a '(__%[1]s_complete)'
`

// Request is what the host shell asked: the words before the one being
// typed (quotes removed, the program name dropped) and that word.
type Request struct {
	Shell   string
	Words   []string
	Current string
	// drop is the part of the word being typed that bash does not replace
	// (up to its last COMP_WORDBREAKS character, such as '=' or ':').
	drop string
	// quote is the quote left open in the word being typed (bash): readline
	// then replaces only what follows it and closes it itself, so each
	// candidate is written by that quote's rules after keep, the value of
	// the word up to the quote.
	quote byte
	keep  string
}

// ParseRequest reads the arguments after `--__complete SHELL --`.
func ParseRequest(shell string, args []string) (Request, error) {
	r := Request{Shell: shell}
	switch shell {
	case "bash":
		if len(args) != 2 {
			return r, fmt.Errorf("--__complete bash takes the line and the current word")
		}
		sp := splitLine(args[0])
		words, raw := sp.words, sp.raw
		if len(words) > 0 {
			words = words[1:]
		}
		r.Words, r.Current = words, sp.cur
		if sp.quote != 0 {
			r.keep, r.quote = sp.keep, sp.quote
		} else if bashCur := args[1]; strings.HasSuffix(raw, bashCur) && !strings.HasPrefix(raw, bashCur) {
			r.drop = raw[:len(raw)-len(bashCur)]
		}
	case "zsh":
		if len(args) == 0 {
			return r, nil
		}
		for _, w := range args[:len(args)-1] {
			u, _, _ := SplitLine(w + " ")
			r.Words = append(r.Words, strings.Join(u, " "))
		}
		_, r.Current, _ = SplitLine(args[len(args)-1])
	case "fish":
		if len(args) == 0 {
			return r, nil
		}
		r.Words = append(r.Words, args[:len(args)-1]...)
		_, r.Current, _ = SplitLine(args[len(args)-1])
	default:
		return r, fmt.Errorf("--__complete must name bash, zsh or fish, not %q", shell)
	}
	return r, nil
}

// SplitLine splits a POSIX shell command line (the text before the cursor)
// into words with quotes and backslashes removed. The last word is the one
// being typed (cur, "" after a blank), raw is its text as typed.
func SplitLine(line string) (words []string, cur, raw string) {
	sp := splitLine(line)
	return sp.words, sp.cur, sp.raw
}

// split is a command line split by splitLine.
type split struct {
	words    []string
	cur, raw string
	// quote is the quote left open in the last word (0: none); keep is
	// that word's text before it, quotes and backslashes removed.
	quote byte
	keep  string
}

func splitLine(line string) (sp split) {
	var b strings.Builder
	inWord := false
	start, openAt := 0, 0
	var quote byte
	words := []string(nil)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				b.WriteByte(c)
			}
		case quote == '"':
			switch {
			case c == '"':
				quote = 0
			case c == '\\' && i+1 < len(line) && strings.IndexByte("\"\\$`", line[i+1]) >= 0:
				i++
				b.WriteByte(line[i])
			default:
				b.WriteByte(c)
			}
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, b.String())
				b.Reset()
				inWord = false
			}
		default:
			if !inWord {
				inWord, start = true, i
			}
			switch {
			case c == '\'' || c == '"':
				quote, openAt = c, b.Len()
			case c == '\\' && i+1 < len(line):
				i++
				b.WriteByte(line[i])
			case c == '\\':
			default:
				b.WriteByte(c)
			}
		}
	}
	sp.words = words
	if inWord {
		sp.cur, sp.raw = b.String(), line[start:]
		if quote != 0 {
			sp.quote, sp.keep = quote, sp.cur[:openAt]
		}
	}
	return sp
}

// Format writes the answer: one candidate a line, quoted for the shell
// (bash: backslashes, without the part of the word bash does not replace;
// zsh and fish quote what they insert themselves). Candidates holding a
// newline are left out: no shell reads them back whole.
func (r Request) Format(candidates []string) string {
	var b strings.Builder
	for _, c := range candidates {
		if strings.ContainsAny(c, "\n\r") {
			continue
		}
		if r.Shell == "bash" && r.quote != 0 {
			if !strings.HasPrefix(c, r.keep) {
				continue
			}
			c = quoteInside(c[len(r.keep):], r.quote)
		} else if r.Shell == "bash" {
			c = BashQuote(c)
			if r.drop != "" {
				if !strings.HasPrefix(c, r.drop) {
					continue
				}
				c = c[len(r.drop):]
			}
		}
		b.WriteString(c)
		b.WriteByte('\n')
	}
	return b.String()
}

// quoteInside writes s to stand inside an open quote q: in double quotes a
// backslash before ", \, $ and `; in single quotes each ' closes the quote,
// is written escaped and reopens it.
func quoteInside(s string, q byte) string {
	if q == '\'' {
		return strings.ReplaceAll(s, "'", `'\''`)
	}
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\"\\$`", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// BashQuote escapes every character bash would read specially in a word
// with a backslash (a tilde only at the start), as bash's own completion of
// file names does.
func BashQuote(s string) string {
	var b strings.Builder
	for i, r := range s {
		if strings.ContainsRune(" \t\"'\\|&;()<>$`!*?[]{}#^,", r) || r == '~' && i == 0 {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Launch writes what --completion SHELL prints, the script, and answers
// the exit status.
func Launch(w io.Writer, shell string) int {
	script, err := Script(shell, "agsh")
	if err != nil {
		return exitcode.Usage
	}
	_, _ = io.WriteString(w, script)
	return exitcode.OK
}
