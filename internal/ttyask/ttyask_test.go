package ttyask

import (
	"context"
	"testing"
)

func TestKey(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Answer
		echo string
	}{
		{"y", Yes, "y\n"}, {"Y", Yes, "y\n"}, {"yes", Yes, "y\n"},
		{"n", No, "n\n"}, {"N", No, "n\n"}, {"\r", No, "\n"}, {"\n", No, "\n"},
		{"x", No, "\n"}, {"\x1b[A", No, "\n"}, {" ", No, "\n"},
		{"\x03", Interrupt, "^C\n"}, {"\x04", EOF, "\n"}, {"", EOF, "\n"},
	} {
		if got := Key([]byte(tt.in)); got != tt.want {
			t.Errorf("Key(%q) = %v, want %v", tt.in, got, tt.want)
		}
		if got := Echo(Key([]byte(tt.in)), []byte(tt.in)); got != tt.echo {
			t.Errorf("Echo(%q) = %q, want %q", tt.in, got, tt.echo)
		}
	}
}

func TestAskNotATerminal(t *testing.T) {
	if _, err := Ask(context.Background(), -1, nil, "?"); err != ErrNotTerminal {
		t.Errorf("err = %v", err)
	}
}
