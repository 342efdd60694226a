package catalog

import (
	"strings"
	"testing"
)

func TestParseTarget(t *testing.T) {
	tests := []struct {
		in   string
		want Target
		code string
		err  string
	}{
		{in: "http://127.0.0.1:39400/executor", want: Target{URL: "http://127.0.0.1:39400/executor"}},
		{in: "  https://agents.example.com/planner/ ", want: Target{URL: "https://agents.example.com/planner"}},
		{in: "HTTP://localhost:3000", want: Target{URL: "http://localhost:3000"}},
		{in: "https://u:p@h.example/x", want: Target{URL: "https://u:p@h.example/x"}},
		{in: "change-monitor-executor", want: Target{Name: "change-monitor-executor"}},
		{in: "my_agent.v2", want: Target{Name: "my_agent.v2"}},
		{in: "", code: CodeNoTarget,
			err: "no target deployment"},
		{in: "   ", code: CodeNoTarget,
			err: "no target deployment"},
		{in: "127.0.0.1:39400", code: CodeUsage,
			err: `target "127.0.0.1:39400" has no scheme; did you mean http://127.0.0.1:39400/<agent>?`},
		{in: "localhost:39400/executor", code: CodeUsage,
			err: `target "localhost:39400/executor" has no scheme; did you mean http://localhost:39400/executor?`},
		{in: "localhost", code: CodeUsage,
			err: `target "localhost" has no scheme; did you mean http://localhost/<agent>?`},
		{in: "agents.example.com:8443", code: CodeUsage,
			err: `target "agents.example.com:8443" has no scheme; did you mean http://agents.example.com:8443/<agent>?`},
		{in: "[::1]:8080", code: CodeUsage,
			err: `target "[::1]:8080" has no scheme; did you mean http://[::1]:8080/<agent>?`},
		{in: "10.0.0.5", code: CodeUsage,
			err: `target "10.0.0.5" has no scheme; did you mean http://10.0.0.5/<agent>?`},
		{in: "ops:secret@localhost:3000", code: CodeUsage,
			err: `target "localhost:3000" has no scheme; did you mean http://localhost:3000/<agent>?`},
		{in: "ftp://host/x", code: CodeUsage,
			err: "target ftp://host/x: only http:// and https:// URLs are supported"},
		{in: "http://", code: CodeUsage,
			err: `target "http://" has no host; expected http://host:port/<agent>`},
		{in: "my agent", code: CodeUsage,
			err: `target "my agent" is neither an http:// or https:// URL nor a deployment name (letters, digits, '-', '_' and '.')`},
	}
	for _, tt := range tests {
		got, err := ParseTarget(tt.in)
		if tt.err != "" {
			wantError(t, err, tt.code, ExitUsage, tt.err)
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseTarget(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
	}
}

func TestIsLoopback(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "LOCALHOST.": true, "api.localhost": true, "127.0.0.1": true, "127.8.9.1": true,
		"::1": true, "[::1]": true, "10.0.0.1": false, "example.com": false, "localhost.example.com": false, "": false,
	} {
		if got := isLoopback(host); got != want {
			t.Errorf("isLoopback(%q) = %v, want %v", host, got, want)
		}
	}
}

func TestParseTargetIPv6Hint(t *testing.T) {
	_, err := ParseTarget("::1")
	if err == nil || !strings.Contains(err.Error(), "http://[::1]/<agent>") {
		t.Errorf("ParseTarget(::1) = %v; want the bracketed hint", err)
	}
	_, err = ParseTarget("[::1]:3000/executor")
	if err == nil || !strings.Contains(err.Error(), "http://[::1]:3000/executor") {
		t.Errorf("ParseTarget([::1]:3000/executor) = %v", err)
	}
}
