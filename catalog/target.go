package catalog

import (
	"net"
	"strings"
)

// Target is where a run sends its requests: exactly one of URL (a direct
// deployment, http:// or https://, the agent mount included) and Name (a
// production deployment name, resolved with Resolve).
type Target struct {
	URL  string
	Name string
}

// NoTarget is the no_target error (exit 2) of a run without a target; the
// program adds how to give one.
func NoTarget() *Error {
	return &Error{ErrCode: CodeNoTarget, Exit: ExitUsage, Message: "no target deployment"}
}

// ParseTarget reads the value of --target / AGENT_SHELL_TARGET. An
// http:// or https:// value is a URL (trailing slash dropped); a value
// without a scheme that looks like host:port, localhost… or an IP address
// is a usage error hinting at the URL; anything else is a production name.
// An empty value is the no_target error (exit 2).
func ParseTarget(s string) (Target, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Target{}, NoTarget()
	}
	lower := strings.ToLower(s)
	if strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://") {
		u, err := parseTargetURL(s)
		if err != nil {
			return Target{}, err
		}
		return Target{URL: u.String()}, nil
	}
	if strings.Contains(s, "://") {
		return Target{}, usageError("target %s: only http:// and https:// URLs are supported", stripUserinfo(s))
	}
	if looksLikeHost(s) {
		hint := "http://" + bracketIPv6(s)
		if !strings.Contains(s, "/") {
			hint += "/<agent>"
		}
		return Target{}, usageError("target %q has no scheme; did you mean %s?", stripUserinfo(s), stripUserinfo(hint))
	}
	if !validName(s) {
		return Target{}, usageError("target %q is neither an http:// or https:// URL nor a deployment name "+
			"(letters, digits, '-', '_' and '.')", s)
	}
	return Target{Name: s}, nil
}

// looksLikeHost reports host:port, localhost…, or an IP address, with or
// without a path.
func looksLikeHost(s string) bool {
	host := s
	if i := strings.IndexAny(host, "/?#"); i >= 0 {
		host = host[:i]
	}
	if at := strings.LastIndex(host, "@"); at >= 0 {
		host = host[at+1:]
	}
	if strings.HasPrefix(strings.ToLower(host), "localhost") {
		return true
	}
	if net.ParseIP(strings.Trim(host, "[]")) != nil {
		return true
	}
	if h, port, err := net.SplitHostPort(host); err == nil && h != "" && port != "" && allDigits(port) {
		return true
	}
	return false
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// validName accepts a deployment name: ASCII letters, digits, '-', '_'
// and '.'.
func validName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return s != ""
}

// isLoopback reports a loopback host: "localhost" (or a name under it) or
// a loopback IP address.
func isLoopback(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(h, "[]"))
	return ip != nil && ip.IsLoopback()
}

// bracketIPv6 puts a bare IPv6 address (the host part before any path) in
// brackets, as a URL needs: "::1" → "[::1]".
func bracketIPv6(s string) string {
	host, rest := s, ""
	if i := strings.IndexAny(s, "/?#"); i >= 0 {
		host, rest = s[:i], s[i:]
	}
	if strings.Count(host, ":") >= 2 && !strings.HasPrefix(host, "[") {
		if ip := net.ParseIP(host); ip != nil {
			return "[" + host + "]" + rest
		}
	}
	return s
}
