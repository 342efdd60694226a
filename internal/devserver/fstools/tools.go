// Package fstools implements the development deployment's authored workspace
// tools — read, ls, grep, glob, diff and list_changes — over the mounts of
// the virtual workspace, as docs/file-tools.md and
// docs/devserver.md#executor-tools describe.
//
// The workspace is a virtual namespace: each tool.Mount maps an absolute
// virtual path ("/repo") to a real directory, the first mount is the
// workspace root, and "/" is a virtual directory holding the mounts. Paths
// never leave a mount. Dot-files, dot-directories and files ignored by
// .gitignore files (git's semantics, nested files included) are hidden from
// ls, grep and glob; a file with a NUL byte in its first 8 KiB is binary.
//
// Tools returns the tool definitions the server serves; everything else is
// internal.
package fstools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agsh-dev/agsh/internal/devserver/tool"
	"github.com/agsh-dev/agsh/internal/wire"
)

// Tools returns the executor's authored workspace tools over the mounts —
// read, ls, grep, glob, diff and list_changes — in that order. The first
// mount is the workspace root. Every tool has effect "read" and asks the
// server to validate its input against the schema.
func Tools(mounts []tool.Mount) []*tool.Tool {
	w := newWorkspace(mounts)
	text := func(body func(context.Context, input) (string, error)) func(context.Context, *tool.Call) (tool.Result, error) {
		return call(func(ctx context.Context, in input) (tool.Result, error) {
			s, err := body(ctx, in)
			if err != nil {
				return tool.Result{}, err
			}
			return tool.Text(s), nil
		})
	}
	changes := call(func(ctx context.Context, in input) (tool.Result, error) {
		cs, err := w.listChanges(ctx, in)
		if err != nil {
			return tool.Result{}, err
		}
		return tool.JSON(cs)
	})
	return []*tool.Tool{
		authored("read", "Read a file", readDescription, readSchema, text(w.read)),
		authored("ls", "List a directory", lsDescription, lsSchema, text(w.ls)),
		authored("grep", "Search file contents", grepDescription, grepSchema, text(w.grep)),
		authored("glob", "Find files by pattern", globDescription, globSchema, text(w.glob)),
		authored("diff", "Show workspace changes", diffDescription, diffSchema, text(w.diff)),
		withOutput(authored("list_changes", "", listChangesDescription, listChangesSchema, changes), listChangesOutput),
	}
}

// authored builds one read-effect authored tool.
func authored(name, title, desc, schema string, fn func(context.Context, *tool.Call) (tool.Result, error)) *tool.Tool {
	return &tool.Tool{
		Name:        name,
		Title:       title,
		Description: desc,
		InputSchema: json.RawMessage(schema),
		Effect:      "read",
		Source:      wire.Source{Kind: "authored"},
		Validate:    true,
		Call:        fn,
	}
}

// withOutput declares t's output schema.
func withOutput(t *tool.Tool, schema string) *tool.Tool {
	t.OutputSchema = json.RawMessage(schema)
	return t
}

// call adapts a body to the tool contract: the input is decoded
// defensively, an *InputError passes through (400), any other failure is
// an error result with its one-line text, and a panic becomes an error
// result rather than a crash.
func call(body func(context.Context, input) (tool.Result, error)) func(context.Context, *tool.Call) (tool.Result, error) {
	return func(ctx context.Context, c *tool.Call) (res tool.Result, err error) {
		defer func() {
			if p := recover(); p != nil {
				res, err = tool.ErrorText(fmt.Sprintf("internal error: %v", p)), nil
			}
		}()
		var raw json.RawMessage
		if c != nil {
			raw = c.Input
		}
		in, err := decodeInput(raw)
		if err != nil {
			return tool.Result{}, err
		}
		res, err = body(ctx, in)
		if err == nil {
			return res, nil
		}
		var ie *tool.InputError
		if errors.As(err, &ie) {
			return tool.Result{}, ie
		}
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return tool.ErrorText("Cancelled: " + err.Error()), nil
		}
		return tool.ErrorText(err.Error()), nil
	}
}
