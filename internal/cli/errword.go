package cli

import (
	"errors"
	"strings"

	"github.com/agsh-dev/agsh/generated"
)

// errorWord is the index in argv (argv[0] the command's name) of the word
// a usage error is about, for the column of a script's check; 0 (the
// name) when no word is.
func errorWord(argv []string, err error) int {
	var (
		uf *generated.UnknownFlagError
		bv *generated.BadValueError
		mv *generated.MissingValueError
		df *generated.DuplicateFlagError
		op *generated.OperandError
		um *generated.UnknownMemberError
	)
	switch {
	case errors.As(err, &uf):
		return flagWord(argv, uf.Flag)
	case errors.As(err, &bv):
		if strings.HasPrefix(bv.Flag, "member ") {
			return flagWord(argv, "--input-json")
		}
		return flagWord(argv, bv.Flag)
	case errors.As(err, &mv):
		return flagWord(argv, mv.Flag)
	case errors.As(err, &df):
		return flagWord(argv, df.Flag)
	case errors.As(err, &um):
		return flagWord(argv, "--input-json")
	case errors.As(err, &op):
		for i, w := range argv[1:] {
			if w == op.Operand {
				return i + 1
			}
		}
	}
	// An option of agsh's named first in the message (--output, --timeout,
	// --input-json, a launch-only one).
	msg := err.Error()
	if strings.HasPrefix(msg, "--") {
		name, _, _ := strings.Cut(msg, " ")
		return flagWord(argv, strings.TrimSuffix(name, ":"))
	}
	return 0
}

// flagWord is the index of the word that gives flag (--x, --x=v, -A5),
// 0 when none does.
func flagWord(argv []string, flag string) int {
	for i, w := range argv[1:] {
		if w == "--" {
			break
		}
		name, _, _ := strings.Cut(w, "=")
		if name == flag || len(flag) == 2 && strings.HasPrefix(w, flag) && !strings.HasPrefix(w, "--") {
			return i + 1
		}
	}
	return 0
}
