package interp

// filterHelp are the pages `help head` (and the other filters) print, in the
// layout of a tool's help.
var filterHelp = map[string]string{
	"head": `NAME
    head - the first lines or elements of its pipe (a local filter)

SYNOPSIS
    … | head [-n N | -N]

DESCRIPTION
    The first N lines of text, or the first N elements of an array (an object
    is read as the lines of its property view). Gives the same kind as it gets.

OPTIONS
    -n N, -N
        How many (default 10).
`,
	"tail": `NAME
    tail - the last lines or elements of its pipe (a local filter)

SYNOPSIS
    … | tail [-n N | -N | -n +N]

DESCRIPTION
    The last N lines of text, or the last N elements of an array (an object is
    read as the lines of its property view); with -n +N, from line or element
    N on. Gives the same kind as it gets.

OPTIONS
    -n N, -N
        How many (default 10).

    -n +N
        Start at line or element N (1-based).
`,
	"wc": `NAME
    wc - count the lines, words and bytes of its pipe (a local filter)

SYNOPSIS
    … | wc [-l] [-w] [-c]

DESCRIPTION
    Counts the lines, words and bytes of text; each element of an array counts
    as one line of its compact JSON. Prints the counts asked for, in the order
    lines, words, bytes, separated by one space.

OPTIONS
    -l  lines
    -w  words
    -c  bytes
`,
	"grep": `NAME
    grep - select the lines or elements of its pipe that match (a local filter)

SYNOPSIS
    … | grep [-i] [-v] [-c] [-n] [-E | -F] [-w] [-x] PATTERN

DESCRIPTION
    Keeps the lines of text, or the elements of an array whose compact JSON,
    that match PATTERN (RE2 syntax). Selecting nothing exits 1.

OPTIONS
    -i  ignore case
    -v  keep the lines that do not match
    -c  print the count of selected lines or elements
    -n  prefix each line with its number (not for arrays)
    -E  RE2 regular expression (the default)
    -F  PATTERN is a fixed string
    -w  match whole words only
    -x  match whole lines only
    -e PATTERN
        the pattern, even when it begins with -
`,
	"jq": `NAME
    jq - run a jq filter on its pipe (a local filter, gojq)

SYNOPSIS
    … | jq [-r] [-c] [FILTER]

DESCRIPTION
    Runs FILTER (default .) on the structured value, or on text parsed as JSON,
    and prints each result as the gojq command does: pretty-printed, one per
    line.

OPTIONS
    -r  print strings raw
    -c  print each result compact, on one line
`,
}

// FilterHelp returns the help page of a local filter; ok is false when name
// is none.
func FilterHelp(name string) (page string, ok bool) {
	page, ok = filterHelp[name]
	return page, ok
}
