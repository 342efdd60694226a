package mcpconn

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

func TestParseMCPFlag(t *testing.T) {
	tests := []struct {
		flag    string
		name    string
		argv    []string
		wantErr string
	}{
		{flag: "fs=npx -y @modelcontextprotocol/server-filesystem /tmp/x", name: "fs", argv: []string{"npx", "-y", "@modelcontextprotocol/server-filesystem", "/tmp/x"}},
		{flag: `my-tools=./server --dir "a dir" 'b c' d\ e`, name: "my-tools", argv: []string{"./server", "--dir", "a dir", "b c", "d e"}},
		{flag: "x=cmd --opt=1 a=b", name: "x", argv: []string{"cmd", "--opt=1", "a=b"}},
		{flag: "x=echo $HOME `id`", name: "x", argv: []string{"echo", "$HOME", "`id`"}},
		{flag: "x=  spaced   out  ", name: "x", argv: []string{"spaced", "out"}},
		{flag: "no-equals", wantErr: `--mcp "no-equals": want NAME=COMMAND ARGS…`},
		{flag: "=cmd", wantErr: `--mcp "=cmd": the connection name before '=' is empty`},
		{flag: "x=", wantErr: `--mcp "x=": the command after '=' is empty`},
		{flag: "x=   ", wantErr: `--mcp "x=   ": the command after '=' is empty`},
		{flag: "x=''", wantErr: `--mcp "x=''": the command after '=' is empty`},
		{flag: "npx -y s=x", wantErr: `--mcp "npx -y s=x": connection name "npx -y s" may hold only letters, digits, '_', '-' and '.'`},
		{flag: `x=cmd "open`, wantErr: `--mcp "x=cmd \"open": unbalanced quotes in the command`},
		{flag: "x=cmd a | b", wantErr: `--mcp "x=cmd a | b": the command holds an unquoted shell operator (;, &, |, < or >); no shell runs it, quote the character`},
		{flag: "x=cmd; rm", wantErr: `--mcp "x=cmd; rm": the command holds an unquoted shell operator (;, &, |, < or >); no shell runs it, quote the character`},
	}
	for _, tt := range tests {
		spec, err := parseMCPFlag(tt.flag)
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("parseMCPFlag(%q) error = %v, want %s", tt.flag, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("parseMCPFlag(%q): %v", tt.flag, err)
			continue
		}
		if spec.name != tt.name || !reflect.DeepEqual(spec.argv, tt.argv) {
			t.Errorf("parseMCPFlag(%q) = %q %q, want %q %q", tt.flag, spec.name, spec.argv, tt.name, tt.argv)
		}
	}
}

func TestStartRefusesMalformedFlags(t *testing.T) {
	tests := []struct {
		cfg  Config
		want string
	}{
		{Config{MCP: []string{"a=x", "A=y"}}, `--mcp "A=y": connection name "A" is already used by --mcp "a=x"`},
		{Config{MCP: []string{"datadog=x"}}, `--mcp "datadog=x": connection name "datadog" is already used by the built-in datadog connection`},
		{Config{MCP: []string{"Echo=x"}}, `--mcp "Echo=x": connection name "Echo" is already used by the --echo-tools connection`},
		{Config{MCP: []string{"bad"}}, `--mcp "bad": want NAME=COMMAND ARGS…`},
		{Config{EchoTools: []string{""}}, `--echo-tools: the path is empty`},
	}
	for _, tt := range tests {
		s, err := Start(context.Background(), tt.cfg)
		if err == nil {
			_ = s.Close()
			t.Errorf("Start(%+v) succeeded, want %s", tt.cfg, tt.want)
			continue
		}
		if err.Error() != tt.want {
			t.Errorf("Start(%+v) = %v, want %s", tt.cfg, err, tt.want)
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("error spans lines: %q", err)
		}
	}
}
