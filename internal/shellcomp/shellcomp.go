// Package shellcomp is agsh's completion for the host shell (bash, zsh,
// fish, PowerShell): the script `agsh --completion SHELL` prints, the
// reading of what that script passes to agsh's hidden `--__complete SHELL`
// launch option, and the writing of the answer, each candidate quoted by the
// host shell's rules (docs/cli.md#completion-scripts). What the candidates
// are is the REPL's completion engine's answer; this package only
// translates between the shells, and keeps out every candidate that could
// drive the terminal or the shell: one holding a control, bidi or
// zero-width character, a tab or a line break is never written.
package shellcomp

import (
	"encoding/base64"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/agsh-dev/agsh/internal/exitcode"
	"github.com/agsh-dev/agsh/internal/termsafe"
)

// Shells are the shells agsh writes a completion script for.
var Shells = []string{"bash", "zsh", "fish", "pwsh"}

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
	case "pwsh":
		return fmt.Sprintf(pwshScript, prog, pwshWordsVar), nil
	}
	return "", fmt.Errorf("--completion must be bash, zsh, fish or pwsh, not %q", shell)
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
    local -a out spaced unspaced spacedd unspacedd
    out=("${(@f)$(command %[1]s --__complete zsh -- "${(@)words[2,CURRENT]}" 2>/dev/null)}")
    local l c d described=0
    for l in "${out[@]}"; do
        [[ -z $l ]] && continue
        c=${l%%%%$'\t'*}
        d=$c
        if [[ $l == *$'\t'* ]]; then d="$c  -- ${l#*$'\t'}"; described=1; fi
        if [[ $c == */ || $c == *= ]]; then
            unspaced+=("$c"); unspacedd+=("$d")
        else
            spaced+=("$c"); spacedd+=("$d")
        fi
    done
    local -a list
    (( described )) && list=(-l)
    (( ${#spaced} )) && compadd "${list[@]}" -d spacedd -- "${spaced[@]}"
    (( ${#unspaced} )) && compadd "${list[@]}" -S '' -d unspacedd -- "${unspaced[@]}"
    return 0
}
if (( $+functions[compdef] )); then
    compdef %[2]s %[1]s
fi
# Installed as _%[1]s in a directory of $fpath (the release packages do), this
# file is the body of the function compinit autoloads: complete this Tab too.
if [[ ${funcstack[1]-} == _%[1]s ]]; then
    %[2]s "$@"
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

// pwshWordsVar is the variable the PowerShell script hands the words in:
// each word base64 (UTF-8), separated by spaces. Words on a native
// command's argv do not survive every PowerShell (an empty word is dropped,
// an embedded quote mangled by the older ones); a variable does, in any
// console encoding.
const pwshWordsVar = "AGSH_COMPLETE_WORDS"

// The PowerShell script: the words before the cursor as typed (quotes
// included), then the word being completed; each answer line is three
// base64 fields (the text that replaces the word, quoted by PowerShell's
// rules; the text the list shows; the tooltip), so that no console encoding
// changes them.
const pwshScript = `# agsh completion for PowerShell. Load it in your profile ($PROFILE):
#   %[1]s --completion pwsh | Out-String | Invoke-Expression
Register-ArgumentCompleter -Native -CommandName '%[1]s' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)
    $words = @(foreach ($e in $commandAst.CommandElements) {
        if ($e.Extent.EndOffset -lt $cursorPosition) { $e.Extent.Text }
    })
    $words = @($words | Select-Object -Skip 1) + @([string]$wordToComplete)
    $env:%[2]s = ($words | ForEach-Object { [Convert]::ToBase64String([Text.Encoding]::UTF8.GetBytes($_)) }) -join ' '
    try {
        $out = @(& '%[1]s' --__complete pwsh 2>$null)
    } finally {
        Remove-Item -Path Env:%[2]s -ErrorAction SilentlyContinue
    }
    foreach ($line in $out) {
        $f = @($line -split ' ')
        if ($f.Count -ne 3) { continue }
        $t = @($f | ForEach-Object { [Text.Encoding]::UTF8.GetString([Convert]::FromBase64String($_)) })
        [System.Management.Automation.CompletionResult]::new($t[0], $t[1], 'ParameterValue', $t[2])
    }
}
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
	case "pwsh":
		if len(args) == 0 {
			return r, nil
		}
		for _, w := range args[:len(args)-1] {
			v, _ := pwshUnquote(w)
			r.Words = append(r.Words, v)
		}
		r.Current, r.quote = pwshUnquote(args[len(args)-1])
	default:
		return r, fmt.Errorf("--__complete must name bash, zsh, fish or pwsh, not %q", shell)
	}
	return r, nil
}

// PwshWords reads the words the PowerShell script hands over in its
// variable (base64 words separated by spaces); false when they are not
// that.
func PwshWords(v string) ([]string, bool) {
	var words []string
	for _, f := range strings.Split(v, " ") {
		b, err := base64.StdEncoding.DecodeString(f)
		if err != nil || !utf8.Valid(b) {
			return nil, false
		}
		words = append(words, string(b))
	}
	return words, true
}

// pwshUnquote reads a PowerShell argument as typed: a single-quoted string
// (” for a quote), a double-quoted one or a bare word (a backtick escapes
// the next character); the quote still open at its end, if any, is open.
// Variables are not expanded: completion cannot know them.
func pwshUnquote(w string) (value string, open byte) {
	var b strings.Builder
	var quote byte
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case quote == '\'':
			if c == '\'' && i+1 < len(w) && w[i+1] == '\'' {
				b.WriteByte('\'')
				i++
			} else if c == '\'' {
				quote = 0
			} else {
				b.WriteByte(c)
			}
		case quote == '"' && c == '"' && i+1 < len(w) && w[i+1] == '"':
			b.WriteByte('"')
			i++
		case quote == '"' && c == '"':
			quote = 0
		case c == '`' && i+1 < len(w):
			i++
			b.WriteByte(w[i])
		case quote == 0 && (c == '\'' || c == '"'):
			quote = c
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), quote
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

// Candidate is one completion: the value the word becomes and what the
// list shows beside it (zsh, fish and PowerShell show descriptions).
type Candidate struct {
	Value, Description string
}

// MaxCandidates bounds the candidates one answer writes: a directory of a
// million names is not a list anyone reads, and the shell would freeze
// building it.
const MaxCandidates = 1000

// maxDescription bounds a description's bytes.
const maxDescription = 160

// Format writes the answer: one candidate a line, quoted for the shell
// (bash: backslashes, without the part of the word bash does not replace;
// zsh and fish quote what they insert themselves, and read "value<TAB>
// description"; PowerShell gets the replacement text quoted by its rules).
// A candidate that is not plain (termsafe.Plain: a control, bidi or
// zero-width character, a tab, a line break) is left out: no shell inserts
// it safely, and an escaped name could not be called. Descriptions are
// escaped, on one line. At most MaxCandidates are written.
func (r Request) Format(candidates []Candidate) string {
	var b strings.Builder
	n := 0
	for _, cand := range candidates {
		c := cand.Value
		if !termsafe.Plain(c) {
			continue
		}
		if n == MaxCandidates {
			break
		}
		desc := description(cand.Description)
		switch {
		case r.Shell == "bash" && r.quote != 0:
			if !strings.HasPrefix(c, r.keep) {
				continue
			}
			c = closeQuote(quoteInside(c[len(r.keep):], r.quote), r.quote, strings.HasSuffix(c, "/") || strings.HasSuffix(c, "="))
		case r.Shell == "bash":
			c = BashQuote(c)
			if r.drop != "" {
				if !strings.HasPrefix(c, r.drop) {
					continue
				}
				c = c[len(r.drop):]
			}
		case r.Shell == "pwsh":
			list := c
			if list == "" {
				list = "''"
			}
			if desc == "" {
				desc = list
			}
			enc := base64.StdEncoding.EncodeToString
			c = enc([]byte(PwshQuote(c))) + " " + enc([]byte(list)) + " " + enc([]byte(desc))
		case desc != "":
			c += "\t" + desc
		}
		n++
		b.WriteString(c)
		b.WriteByte('\n')
	}
	return b.String()
}

// description is a candidate's description for the list: escaped, on one
// line, at most maxDescription bytes (cut at a character, with "…").
func description(d string) string {
	d = strings.TrimSpace(termsafe.OneLine(d))
	if len(d) <= maxDescription {
		return d
	}
	cut := maxDescription
	for cut > 0 && !utf8.RuneStart(d[cut]) {
		cut--
	}
	return d[:cut] + "…"
}

// quoteInside writes s to stand inside an open quote q: in double quotes a
// backslash before ", \, $ and `, and each run of ! outside the quote,
// backslashed (interactive bash expands a ! inside double quotes, and a
// backslash there would stay in the word); in single quotes each ' closes
// the quote, is written escaped and reopens it.
func quoteInside(s string, q byte) string {
	if q == '\'' {
		return strings.ReplaceAll(s, "'", `'\''`)
	}
	var b strings.Builder
	bang := false
	for _, r := range s {
		if r == '!' && !bang {
			b.WriteByte('"')
		} else if r != '!' && bang {
			b.WriteByte('"')
		}
		bang = r == '!'
		if strings.ContainsRune("\"\\$`!", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	if bang {
		b.WriteByte('"')
	}
	return b.String()
}

// closeQuote makes sure the word is closed once readline has inserted w
// after the quote q the user opened: readline appends q itself, unless w
// already ends in q. When w ends in q and leaves the quote open (a
// reopened quote, as after '\” or "\!"), q is added to close it; a
// directory or a flag's "=" (more) stays open to type on.
func closeQuote(w string, q byte, more bool) string {
	if more || w == "" || w[len(w)-1] != q {
		return w
	}
	if quoteOpenAfter(w, q) {
		return w + string(q)
	}
	return w
}

// quoteOpenAfter reports whether the quote q opened before w is still (or
// again) open after it, by bash's rules.
func quoteOpenAfter(w string, q byte) bool {
	quote := q
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			}
		case quote == '"':
			if c == '\\' {
				i++
			} else if c == '"' {
				quote = 0
			}
		case c == '\\':
			i++
		case c == '\'' || c == '"':
			quote = c
		}
	}
	return quote != 0
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

// PwshQuote writes s as one PowerShell argument: as it is when it holds
// only letters, digits and _ . / : = + -, else in single quotes, where nothing expands
// ($( and the backtick are special only in double quotes) and a quote —
// PowerShell takes the typographic ones U+2018–U+201B for one too — is
// doubled. A directory's path is left open to type on, as a flag's "=".
func PwshQuote(s string) string {
	plain := s != ""
	for i := 0; i < len(s) && plain; i++ {
		c := s[i]
		plain = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_./:=+-", c) >= 0
	}
	if plain {
		return s
	}
	var b strings.Builder
	b.WriteByte('\'')
	for _, r := range s {
		if r == '\'' || r >= 0x2018 && r <= 0x201b {
			b.WriteRune(r)
		}
		b.WriteRune(r)
	}
	if !strings.HasSuffix(s, "/") {
		b.WriteByte('\'')
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
