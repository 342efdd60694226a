package devserver

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/agsh-dev/agsh/internal/wire"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// schemaFor compiles the tool's input schema on first use and keeps it. A
// schema cannot reach outside itself: no loader is installed, so a remote or
// file $ref fails to compile.
func (e *entry) schemaFor() (*jsonschema.Schema, error) {
	e.compileOnce.Do(func() {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(e.schema))
		if err != nil {
			e.compileErr = err
			return
		}
		c := jsonschema.NewCompiler()
		loc := "urn:agsh-devserver:tool:" + e.t.Name
		if err := c.AddResource(loc, doc); err != nil {
			e.compileErr = err
			return
		}
		e.compiled, e.compileErr = c.Compile(loc)
	})
	return e.compiled, e.compileErr
}

// validate checks input (a JSON object) against the tool's schema and
// returns the issues found, sorted by path; nil when the input is valid.
func (e *entry) validate(input []byte) ([]wire.Issue, error) {
	sch, err := e.schemaFor()
	if err != nil {
		return nil, fmt.Errorf("the input schema of %s does not compile: %v", e.t.Name, err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(input))
	if err != nil {
		return []wire.Issue{{Path: []any{}, Message: "input is not valid JSON"}}, nil
	}
	verr := sch.Validate(inst)
	if verr == nil {
		return nil, nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(verr, &ve) {
		return []wire.Issue{{Path: []any{}, Message: verr.Error()}}, nil
	}
	p := message.NewPrinter(language.English)
	var issues []wire.Issue
	collectIssues(ve, inst, p, &issues)
	if len(issues) == 0 {
		issues = []wire.Issue{{Path: []any{}, Message: ve.ErrorKind.LocalizedString(p)}}
	}
	sort.SliceStable(issues, func(i, j int) bool { return pathKey(issues[i].Path) < pathKey(issues[j].Path) })
	return issues, nil
}

// collectIssues turns the leaves of a validation error tree into issues.
func collectIssues(ve *jsonschema.ValidationError, inst any, p *message.Printer, out *[]wire.Issue) {
	if len(ve.Causes) > 0 {
		for _, c := range ve.Causes {
			collectIssues(c, inst, p, out)
		}
		return
	}
	path := instancePath(inst, ve.InstanceLocation)
	switch k := ve.ErrorKind.(type) {
	case *kind.Required:
		for _, m := range k.Missing {
			*out = append(*out, wire.Issue{Path: appendPath(path, m), Message: "required"})
		}
	case *kind.AdditionalProperties:
		for _, prop := range k.Properties {
			*out = append(*out, wire.Issue{Path: appendPath(path, prop), Message: "unknown property"})
		}
	case *kind.Enum:
		want := make([]string, len(k.Want))
		for i, w := range k.Want {
			want[i] = string(marshal(w))
		}
		*out = append(*out, wire.Issue{Path: path, Message: "must be one of " + strings.Join(want, ", ")})
	case *kind.Const:
		*out = append(*out, wire.Issue{Path: path, Message: "must be " + string(marshal(k.Want))})
	case *kind.Type:
		*out = append(*out, wire.Issue{Path: path, Message: "expected " + strings.Join(k.Want, " or ")})
	default:
		*out = append(*out, wire.Issue{Path: path, Message: ve.ErrorKind.LocalizedString(p)})
	}
}

// instancePath converts an instance location to issue path elements:
// property names stay strings, indexes into arrays become numbers.
func instancePath(inst any, loc []string) []any {
	path := make([]any, 0, len(loc))
	cur := inst
	for _, tok := range loc {
		switch v := cur.(type) {
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(v) {
				path = append(path, tok)
				cur = nil
				continue
			}
			path = append(path, i)
			cur = v[i]
		case map[string]any:
			path = append(path, tok)
			cur = v[tok]
		default:
			path = append(path, tok)
			cur = nil
		}
	}
	return path
}

func appendPath(path []any, name string) []any {
	return append(append(make([]any, 0, len(path)+1), path...), name)
}

// pathKey orders issue paths.
func pathKey(path []any) string {
	parts := make([]string, len(path))
	for i, p := range path {
		parts[i] = fmt.Sprint(p)
	}
	return strings.Join(parts, "\x00")
}

// issuesMessage summarizes issues in one line.
func issuesMessage(tool string, issues []wire.Issue) string {
	if len(issues) == 0 {
		return "invalid input for " + tool
	}
	first := issues[0]
	where := pathKey(first.Path)
	where = strings.ReplaceAll(where, "\x00", ".")
	if where == "" {
		where = "input"
	}
	msg := fmt.Sprintf("invalid input for %s: %s: %s", tool, where, first.Message)
	if n := len(issues) - 1; n > 0 {
		msg += fmt.Sprintf(" (and %d more)", n)
	}
	return msg
}
