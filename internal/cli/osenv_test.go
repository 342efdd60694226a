package cli

import (
	"io/fs"
	"os"
	"syscall"

	// As cmd/agsh does: the test binary runs as agsh (AGSH_TEST_AS_AGSH).
	_ "github.com/agsh-dev/agsh/internal/gcpace"
	_ "github.com/agsh-dev/agsh/internal/termquiet"
)

// osEnv is the test binary's own process environment, for the tests that
// run it as agsh (AGSH_TEST_AS_AGSH, testscript).
type osEnv struct{}

func (osEnv) Getenv(k string) string            { return os.Getenv(k) }
func (osEnv) LookupEnv(k string) (string, bool) { return os.LookupEnv(k) }
func (osEnv) Environ() []string                 { return os.Environ() }
func (osEnv) ReadFile(p string) ([]byte, error) { return os.ReadFile(p) }
func (osEnv) HomeDir() string                   { h, _ := os.UserHomeDir(); return h }
func (osEnv) Self() string                      { p, _ := os.Executable(); return p }
func (osEnv) Open(p string) (fs.File, error) {
	return os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
