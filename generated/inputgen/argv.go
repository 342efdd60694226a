package inputgen

import (
	"fmt"
	"sort"
	"strings"

	"github.com/agsh-dev/agsh/generated"
)

// Argv writes an input object as flags of cmd, always in the --x=value
// form: strings verbatim (in JSON quotes for a union flag when they look
// like null, a boolean, a number or a quoted string), numbers as JSON
// numbers, null as null, true as the bare flag
// and false as --x=false for valueless flags, each array element as its
// own occurrence, JSON-valued leaves and tuple elements as compact JSON.
// Keys are written in sorted order. It fails on a key no flag stands for.
func Argv(cmd *generated.Command, input map[string]any) ([]string, error) {
	var out []string
	err := writeObject(cmd, nil, input, &out)
	return out, err
}

func writeObject(cmd *generated.Command, path []string, obj map[string]any, out *[]string) error {
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p := append(path[:len(path):len(path)], k)
		val := obj[k]
		f := cmd.LookupPath(p)
		if f == nil {
			sub, ok := val.(map[string]any)
			if !ok {
				return fmt.Errorf("inputgen: no flag for property %s", strings.Join(p, "."))
			}
			if err := writeObject(cmd, p, sub, out); err != nil {
				return err
			}
			continue
		}
		if err := writeFlag(f, val, out); err != nil {
			return err
		}
	}
	return nil
}

func writeFlag(f *generated.Flag, val any, out *[]string) error {
	if f.Repeatable {
		list, ok := val.([]any)
		if !ok {
			return fmt.Errorf("inputgen: %s is repeatable but the value is %T", f.Name, val)
		}
		for _, e := range list {
			*out = append(*out, f.Name+"="+text(f, e))
		}
		return nil
	}
	if f.Boolean() {
		if b, ok := val.(bool); ok && b {
			*out = append(*out, f.Name)
			return nil
		}
	}
	*out = append(*out, f.Name+"="+text(f, val))
	return nil
}

// text is a value's text for its flag.
func text(f *generated.Flag, v any) string {
	switch f.Type {
	case "json":
		return string(compact(v))
	case "union":
		return unionText(v)
	}
	return textOf(v)
}
