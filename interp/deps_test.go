package interp

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImports keeps interp apart from the rest of agsh: it may import its own
// subpackages and libraries, never tool, catalog or rendering code.
func TestImports(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/agsh-dev/agsh/interp").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "github.com/agsh-dev/agsh/") && !strings.HasPrefix(dep, "github.com/agsh-dev/agsh/interp") {
			t.Errorf("interp depends on %s", dep)
		}
		if dep == "net/http" {
			t.Errorf("interp depends on net/http")
		}
	}
}
