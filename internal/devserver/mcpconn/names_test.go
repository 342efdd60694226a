package mcpconn

import (
	"path/filepath"
	"testing"
)

func TestAdvertisedName(t *testing.T) {
	long := "a_very_long_tool_name_that_keeps_going_and_going_past_the_limit_of_64"
	tests := []struct {
		connection, connector, tool string
		want                        string
	}{
		{"datadog", "datadog", "list_monitors", "datadog_list_monitors"},
		{"planner-tools", "datadog", "list_monitors", "datadog_list_monitors"},
		{"fs", "", "read_file", "fs_read_file"},
		{"Local.Test", "", "Echo Raw", "local_test_echo_raw"},
		{"echo", "mcp-github-archived", "create_issue", "mcp-github-archived_create_issue"},
		{"x", "", "héllo/wörld", "x_h_llo_w_rld"},
		{"x", "", long, "x_a_very_long_tool_name_that_keeps_going_and_going_past_the_limi"},
		{"", "", "", "_"},
	}
	for _, tt := range tests {
		got := AdvertisedName(tt.connection, tt.connector, tt.tool)
		if got != tt.want {
			t.Errorf("AdvertisedName(%q, %q, %q) = %q, want %q", tt.connection, tt.connector, tt.tool, got, tt.want)
		}
		if len(got) > 64 {
			t.Errorf("AdvertisedName(%q, %q, %q) is %d long", tt.connection, tt.connector, tt.tool, len(got))
		}
	}
}

func TestNameTakenTwiceIsReported(t *testing.T) {
	bin := testServer(t)
	dir := filepath.Join(t.TempDir(), "tracker")
	writeFiles(t, dir, map[string]string{
		"echo_raw.json": `{"name":"echo_raw","inputSchema":{"type":"object"}}`,
		"other.json":    `{"name":"other","inputSchema":{"type":"object"}}`,
	})
	logs := &logSink{}
	s := startSet(t, Config{MCP: []string{"tracker=" + bin}, EchoTools: []string{dir}, Logf: logs.logf})
	want := `mcp echo: tool "tracker.echo_raw" is left out: its name tracker_echo_raw is already taken by connection tracker, MCP tool echo_raw`
	if got := logs.String(); got != want {
		t.Errorf("reports = %q\nwant %q", got, want)
	}
	planner := s.Tools("planner")
	if got := toolNamed(t, planner, "tracker_echo_raw").Source.Connection; got != "tracker" {
		t.Errorf("tracker_echo_raw comes from %s, want the first claimant tracker", got)
	}
	if got := toolNamed(t, planner, "tracker_other").Source; got.Connection != "echo" || got.Connector != "tracker" {
		t.Errorf("tracker_other source %+v", got)
	}
}
