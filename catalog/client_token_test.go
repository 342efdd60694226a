package catalog

import (
	"errors"
	"strings"
	"testing"
)

func TestNewRefusesTokenWithLineBreak(t *testing.T) {
	_, err := New("http://127.0.0.1:1/executor", Options{BearerToken: "abc\ndef-secret", CredentialSource: "AGENT_SHELL_BEARER_TOKEN"})
	var e *Error
	if !errors.As(err, &e) || e.ExitCode() != 4 {
		t.Fatalf("New with a two-line token = %v; want an exit-4 credential error", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "AGENT_SHELL_BEARER_TOKEN") || strings.Contains(msg, "def-secret") {
		t.Errorf("message %q does not name the source, or shows the token", msg)
	}
}
