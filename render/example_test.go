package render_test

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/agsh-dev/agsh/render"
)

func ExampleWrite() {
	result := json.RawMessage(`"[{\"id\":1,\"name\":\"alpha\"},{\"id\":2,\"name\":\"東京\",\"ok\":true}]"`)
	v := render.FromResult(result)
	if msg, isErr := render.ErrorMessage(v); isErr {
		render.WriteError(os.Stderr, msg, render.Options{})
		return
	}
	render.Write(os.Stdout, os.Stderr, v, render.Options{Width: 80})
	// Output:
	// ID  NAME   OK
	// 1   alpha
	// 2   東京   true
}

func ExampleWrite_propertyView() {
	v := render.FromResult(json.RawMessage(`{"name":"mon","threshold":0.50,"tags":["a","b"],"owner":{"id":7}}`))
	render.Write(os.Stdout, os.Stderr, v, render.Options{})
	// Output:
	// name:      mon
	// threshold: 0.50
	// tags:
	//   - a
	//   - b
	// owner:
	//   id: 7
}

func ExampleErrorMessage() {
	v := render.FromResult(json.RawMessage(`{"ok":false,"error":"not_found","message":"no such monitor","code":"E404"}`))
	msg, ok := render.ErrorMessage(v)
	fmt.Println(ok)
	render.WriteError(os.Stdout, msg, render.Options{})
	// Output:
	// true
	// Error: no such monitor (E404)
}

func ExampleWriteJSON() {
	render.WriteJSON(os.Stdout, render.FromResult(json.RawMessage(`{"b":1.50,"a":[true]}`)))
	// Output:
	// {
	//   "b": 1.50,
	//   "a": [
	//     true
	//   ]
	// }
}

func ExampleSafe() {
	fmt.Println(render.Safe("title\x1b]0;pwned\x07 ok\r\n"))
	// Output:
	// title\x1b]0;pwned\x07 ok
}

func ExampleWriteHelp() {
	render.WriteHelp(os.Stdout, render.HelpPage{
		Name: "read", Title: "Read a file", Synopsis: "read [options...] <path>",
		Description: "Reads a file. Pass <path to file>.",
		Operands:    []render.HelpItem{{Term: "<path>", Description: "The absolute path."}},
		Options: []render.HelpItem{{Term: "--offset <integer>", Description: "First line.",
			Facts: render.FactsLine(false, json.RawMessage(`1`), nil, "")}},
		Notes: []string{"Effect: read (performs no writes)."},
	}, render.Options{Width: 80})
	// Output:
	// NAME
	//     read - Read a file
	//
	// SYNOPSIS
	//     read [options...] <path>
	//
	// DESCRIPTION
	//     Reads a file. Pass <path to file>.
	//
	// OPERANDS
	//     <path>
	//         The absolute path.
	//
	// OPTIONS
	//     --offset <integer>
	//         First line.
	//         Default: 1.
	//
	// NOTES
	//     Effect: read (performs no writes).
}

func ExampleWriteIndex() {
	render.WriteIndex(os.Stdout, render.IndexPage{
		Name:     "change-monitor-executor",
		Commands: []render.IndexRow{{Name: "read", Title: "Read a file"}, {Name: "diff", Title: "Show workspace changes"}},
		Groups:   []render.IndexGroup{{Name: "datadog", Rows: []render.IndexRow{{Name: "datadog_list_monitors", Title: "List monitors"}}}},
	}, render.Options{Width: 80})
	// Output:
	// NAME
	//     change-monitor-executor
	//
	// COMMANDS
	//     diff                     Show workspace changes
	//     read                     Read a file
	//
	// DATADOG
	//     datadog_list_monitors    List monitors
	//
	// Run any command with --help for its synopsis and options.
}
