package interp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/agsh-dev/agsh/interp"
)

// catalog is a one-tool Handler: `monitors` returns a JSON array.
type catalog struct{}

func (catalog) IsTool(name string) bool { return name == "monitors" }
func (catalog) ToolNames() []string     { return []string{"monitors"} }
func (catalog) Call(ctx context.Context, argv []string, last bool, stdout, stderr io.Writer) (interp.Value, interp.Result) {
	v := `[{"name":"api latency","status":"Alert"},{"name":"disk","status":"OK"},{"name":"api errors","status":"OK"}]`
	return interp.Value{JSON: json.RawMessage(v), IsJSON: true}, interp.Result{}
}
func (catalog) Help(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stdout, "monitors    List monitors")
	return 0
}

func ExampleRunner_RunScript() {
	r := &interp.Runner{Handler: catalog{}, Stdout: os.Stdout, Stderr: os.Stdout, Prefix: "agsh: "}
	status := r.RunScript(context.Background(), `
monitors | grep api | jq -r '.[].name'
monitors | grep -c OK
monitrs
monitors | grep -c nothing || help
`)
	fmt.Println("status", status)
	// Output:
	// api latency
	// api errors
	// 2
	// agsh: line 4: unknown command "monitrs"; did you mean monitors?
	// 0
	// monitors    List monitors
	// status 0
}
