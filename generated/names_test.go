package generated

import "testing"

func TestKebab(t *testing.T) {
	tests := []struct{ in, want string }{
		{"perPage", "per-page"},
		{"HTTPServer", "http-server"},
		{"URLs", "urls"},
		{"IDs", "ids"},
		{"redactPII", "redact-pii"},
		{"commitID", "commit-id"},
		{"endRfc3339", "end-rfc3339"},
		{"dryRun", "dry-run"},
		{"deduplicateSimilarURLs", "deduplicate-similar-urls"},
		{"XMLHttpRequest", "xml-http-request"},
		{"$filter", "filter"},
		{"", "arg"},
		{"---", "arg"},
		{"org_slug", "org-slug"},
		{"org__slug", "org-slug"},
		{"_private_", "private"},
		{"telemetry.context", "telemetry-context"},
		{"already-kebab", "already-kebab"},
		{"v2Api", "v2-api"},
		{"a1B", "a1-b"},
		{"ABc", "abc"},
		{"AServer", "a-server"},
		{"UPPER", "upper"},
		{"with space", "with-space"},
		{"ünïcode", "n-code"},
		{"日本", "arg"},
		{"-X", "x"},
		{"--Verbose", "verbose"},
	}
	for _, tt := range tests {
		if got := Kebab(tt.in); got != tt.want {
			t.Errorf("Kebab(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestLiteralFlag(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"-i", true},
		{"-A", true},
		{"-2", true},
		{"--x", true},
		{"--ignore-case", true},
		{"--2fa", true},
		{"-", false},
		{"--", false},
		{"-ab", false},
		{"-_", false},
		{"--Upper", false},
		{"--a_b", false},
		{"---x", false},
		{"--x=", false},
		{"x", false},
	}
	for _, tt := range tests {
		if got := literalFlag(tt.in); got != tt.want {
			t.Errorf("literalFlag(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
