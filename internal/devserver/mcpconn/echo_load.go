package mcpconn

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// maxEchoFile bounds the size of one tool definition file.
const maxEchoFile = 16 << 20

// echoDef is one tool definition loaded for the echo server.
type echoDef struct {
	connector    string
	file         string
	name         string
	title        string
	description  string
	inputSchema  json.RawMessage // exactly as the file has it
	sdkSchema    json.RawMessage // inputSchema with "type":"object" made sure
	outputSchema json.RawMessage
	annotations  json.RawMessage
	meta         json.RawMessage
	// needsApproval is the file's "needsApproval": the deployment's own
	// declaration, beside MCP's (a call by the scripted agent then parks).
	needsApproval bool
}

// fileTool is a tool definition as a file holds it.
type fileTool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
	Annotations  json.RawMessage `json:"annotations"`
	Meta         json.RawMessage `json:"_meta"`
	// NeedsApproval is not MCP's: agent-sdk declares it on a tool.
	NeedsApproval bool `json:"needsApproval"`
}

// loadEcho loads the definitions of every --echo-tools path, reporting and
// skipping what it cannot use. A directory is one connector named after its
// base name, holding its *.json files (not its subdirectories); a file is
// one connector named after its base name without ".json".
func loadEcho(paths []string, logf func(string, ...any)) []echoDef {
	var defs []echoDef
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			logf("mcp echo: --echo-tools %s: %v", p, unwrapPathError(err))
			continue
		}
		if !info.IsDir() {
			connector := strings.TrimSuffix(filepath.Base(p), ".json")
			defs = append(defs, loadEchoFile(connector, p, logf)...)
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			logf("mcp echo: --echo-tools %s: %v", p, unwrapPathError(err))
			continue
		}
		connector := connectorOfDir(p)
		n := len(defs)
		for _, e := range entries {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
				continue
			}
			defs = append(defs, loadEchoFile(connector, filepath.Join(p, e.Name()), logf)...)
		}
		if len(defs) == n {
			logf("mcp echo: --echo-tools %s: no tool definitions (*.json) in the directory", p)
		}
	}
	return defs
}

// connectorOfDir names a directory's connector: its base name, the absolute
// path's when the path is "." or ends in "..".
func connectorOfDir(p string) string {
	base := filepath.Base(p)
	if base == "." || base == ".." || base == string(filepath.Separator) {
		if abs, err := filepath.Abs(p); err == nil {
			base = filepath.Base(abs)
		}
	}
	return base
}

// unwrapPathError drops the path an *os.PathError repeats.
func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// loadEchoFile loads the tools of one file: a tool object, an array of
// them, or an object with a "tools" array.
func loadEchoFile(connector, path string, logf func(string, ...any)) []echoDef {
	f, err := os.Open(path)
	if err != nil {
		logf("mcp echo: %s: %v; skipped", path, unwrapPathError(err))
		return nil
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxEchoFile+1))
	if err != nil {
		logf("mcp echo: %s: %v; skipped", path, err)
		return nil
	}
	if len(data) > maxEchoFile {
		logf("mcp echo: %s: larger than %d MiB; skipped", path, maxEchoFile>>20)
		return nil
	}
	raws, err := splitToolFile(data)
	if err != nil {
		logf("mcp echo: %s: %v; skipped", path, err)
		return nil
	}
	var defs []echoDef
	for i, raw := range raws {
		where := path
		if len(raws) > 1 {
			where = fmt.Sprintf("%s: tool %d", path, i+1)
		}
		d, err := parseToolDef(raw)
		if err != nil {
			logf("mcp echo: %s: %v; skipped", where, err)
			continue
		}
		d.connector, d.file = connector, path
		defs = append(defs, d)
	}
	return defs
}

// splitToolFile answers the raw tool objects a file holds.
func splitToolFile(data []byte) ([]json.RawMessage, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, fmt.Errorf("empty file")
	}
	if !json.Valid(data) {
		return nil, fmt.Errorf("not valid JSON")
	}
	switch data[0] {
	case '[':
		var list []json.RawMessage
		if err := json.Unmarshal(data, &list); err != nil {
			return nil, err
		}
		return list, nil
	case '{':
		var wrapper struct {
			Tools json.RawMessage `json:"tools"`
			Name  json.RawMessage `json:"name"`
		}
		if err := json.Unmarshal(data, &wrapper); err != nil {
			return nil, err
		}
		if wrapper.Name == nil && nonNull(wrapper.Tools) != nil {
			var list []json.RawMessage
			if err := json.Unmarshal(wrapper.Tools, &list); err != nil {
				return nil, fmt.Errorf(`"tools" is not an array of tool definitions`)
			}
			return list, nil
		}
		return []json.RawMessage{data}, nil
	}
	return nil, fmt.Errorf("want a tool definition object, an array of them, or {\"tools\": [...]}")
}

// parseToolDef checks one tool object: a name and an object inputSchema.
func parseToolDef(raw json.RawMessage) (echoDef, error) {
	var ft fileTool
	if err := json.Unmarshal(raw, &ft); err != nil {
		return echoDef{}, fmt.Errorf("not a tool definition: %v", err)
	}
	if ft.Name == "" {
		return echoDef{}, fmt.Errorf(`no "name"`)
	}
	in := nonNull(ft.InputSchema)
	if in == nil {
		return echoDef{}, fmt.Errorf("tool %q has no inputSchema", ft.Name)
	}
	sdk, err := objectTyped(in)
	if err != nil {
		return echoDef{}, fmt.Errorf("tool %q: inputSchema %v", ft.Name, err)
	}
	return echoDef{
		name: ft.Name, title: ft.Title, description: ft.Description,
		inputSchema: in, sdkSchema: sdk,
		outputSchema: nonNull(ft.OutputSchema), annotations: nonNull(ft.Annotations), meta: nonNull(ft.Meta),
		needsApproval: ft.NeedsApproval,
	}, nil
}

// objectTyped answers schema with its top-level "type" set to "object",
// members in their order (the SDK refuses other input schemas): schema
// itself when it already has exactly one "type", "object"; else a compact
// copy whose first "type" says "object" (appended when there is none) and
// whose repeated "type" members are dropped.
func objectTyped(schema json.RawMessage) (json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(schema))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("is not a JSON object")
	}
	var out bytes.Buffer
	out.WriteByte('{')
	types, objectTypes, n := 0, 0, 0
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("is malformed: %v", err)
		}
		key, _ := tok.(string)
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return nil, fmt.Errorf("is malformed: %v", err)
		}
		if key == "type" {
			types++
			if bytes.Equal(bytes.TrimSpace(val), []byte(`"object"`)) {
				objectTypes++
			}
			if types > 1 {
				continue
			}
			val = json.RawMessage(`"object"`)
		}
		if n > 0 {
			out.WriteByte(',')
		}
		k, _ := json.Marshal(key)
		out.Write(k)
		out.WriteByte(':')
		out.Write(val)
		n++
	}
	if types == 1 && objectTypes == 1 {
		return schema, nil
	}
	if types == 0 {
		if n > 0 {
			out.WriteByte(',')
		}
		out.WriteString(`"type":"object"`)
	}
	out.WriteByte('}')
	return out.Bytes(), nil
}
