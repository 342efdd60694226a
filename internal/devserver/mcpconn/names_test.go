package mcpconn

import "testing"

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
