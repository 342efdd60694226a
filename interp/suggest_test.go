package interp

import (
	"testing"

	"github.com/agsh-dev/agsh/internal/names"
)

func TestUnknownCommandMessage(t *testing.T) {
	cases := []struct{ name, want string }{
		{"rea", `unknown command "rea"; did you mean read?`},
		{"hea", `unknown command "hea"; did you mean head?`},
		{"heap", `unknown command "heap"; did you mean head or help?`},
		{"ex", `unknown command "ex"; did you mean exit?`},
		{"tial", `unknown command "tial"; did you mean tail?`},
		{"kubectl", `unknown command "kubectl"; run help for the list of commands`},
	}
	for _, tc := range cases {
		if got := unknownCommand(tc.name, names.Suggest(tc.name, []string{"read", "head", "help", "tail", "exit"})); got != tc.want {
			t.Errorf("unknownCommand(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}
