// Checks of the package as a whole: a runnable example of the main entry point
// and the import rule.
package interp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/names"
	"github.com/agsh-dev/agsh/interp"
)

// catalog is a one-tool Handler: `monitors` returns a JSON array.
type catalog struct{}

func (catalog) IsTool(name string) bool { return name == "monitors" }
func (catalog) Suggest(name string) []string {
	return names.Suggest(name, append([]string{"monitors"}, append(interp.ShellWords(), interp.FilterNames()...)...))
}
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

// leaf reports the leaf packages every package may import (internal/archtest).
func leaf(dep string) bool {
	switch strings.TrimPrefix(dep, "github.com/agsh-dev/agsh/") {
	case "internal/names", "internal/jsontext", "internal/exitcode", "internal/termsafe":
		return true
	}
	return false
}

// TestImports keeps interp apart from the rest of agsh: it may import its own
// subpackages, agsh's leaf packages and libraries, never tool, catalog or rendering code.
func TestImports(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/agsh-dev/agsh/interp").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "github.com/agsh-dev/agsh/") && !strings.HasPrefix(dep, "github.com/agsh-dev/agsh/interp") && !leaf(dep) {
			t.Errorf("interp depends on %s", dep)
		}
		if dep == "net/http" {
			t.Errorf("interp depends on net/http")
		}
	}
}
