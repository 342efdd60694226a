package generated

import "github.com/agsh-dev/agsh/internal/names"

// Suggest returns up to three flags close to name, best first (see
// names.SuggestFlag: agsh's one did-you-mean ranking, for flags).
func Suggest(name string, flags []string) []string { return names.SuggestFlag(name, flags) }
