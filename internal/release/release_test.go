package release

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/internal/testcorpus"
)

// TestSnapshotRelease runs `goreleaser check`, then `goreleaser release
// --snapshot` for the host platform only in a copy of the repository (the
// source tree is never written), and checks what it made: the archive holds
// the binaries, the README, agsh.1 and the completion scripts; its agsh
// prints the version goreleaser recorded in dist/metadata.json, the manual
// page and completion scripts beside it; checksums.txt is right; the Linux
// packages install the same files where man and the shells look; the cask
// names them.
func TestSnapshotRelease(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the snapshot release (a build of both binaries with the release's flags)")
	}
	goreleaser := findGoreleaser(t)
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	root := testcorpus.Root(t)
	work := copyRepository(t, root)
	ctx, cancel := context.WithTimeout(t.Context(), 8*time.Minute)
	defer cancel()

	run(t, ctx, work, goreleaser, "check")
	hostOnly(t, filepath.Join(work, ".goreleaser.yaml"))
	commit(t, ctx, work)
	start := time.Now()
	// Under umask 077, from a copy whose files are the owner's only, every
	// mode the build machine would give is wrong: the archive's and the
	// packages' come from .goreleaser.yaml or the checks below fail.
	if runtime.GOOS == "windows" {
		run(t, ctx, work, goreleaser, "release", "--snapshot", "--clean")
	} else {
		run(t, ctx, work, "/bin/sh", "-c", `umask 077 && exec "$0" "$@"`, goreleaser, "release", "--snapshot", "--clean")
	}
	t.Logf("goreleaser release --snapshot (host only) took %s", time.Since(start).Round(time.Second))

	dist := filepath.Join(work, "dist")
	var meta struct {
		ProjectName string `json:"project_name"`
		Version     string `json:"version"`
	}
	readJSON(t, filepath.Join(dist, "metadata.json"), &meta)
	if meta.ProjectName != "agsh" || meta.Version == "" {
		t.Fatalf("dist/metadata.json: %+v", meta)
	}
	var artifacts []struct {
		Type, Name, Path, Goos string
	}
	readJSON(t, filepath.Join(dist, "artifacts.json"), &artifacts)
	byType := map[string][]string{}
	for _, a := range artifacts {
		byType[a.Type] = append(byType[a.Type], filepath.Join(work, a.Path))
	}
	archives := byType["Archive"]
	if len(archives) != 1 {
		t.Fatalf("want one archive for the host, got %v", archives)
	}

	// The archive: the binaries, the README, agsh.1 and the completions.
	unpacked := t.TempDir()
	names := unpack(t, archives[0], unpacked)
	exe := ""
	if runtime.GOOS == "windows" {
		exe = ".exe"
	}
	want := []string{"README.md", "agsh" + exe, "agsh-devserver" + exe, "agsh.1",
		"completions/_agsh", "completions/agsh.bash", "completions/agsh.fish", "completions/agsh.ps1"}
	slices.Sort(names)
	if !slices.Equal(names, want) {
		t.Errorf("archive %s holds\n  %q\nwant\n  %q", filepath.Base(archives[0]), names, want)
	}
	agsh := filepath.Join(unpacked, "agsh"+exe)

	// Its agsh names the version goreleaser recorded, with a "v" as a Go
	// module version has.
	var v struct{ Program, Version string }
	if err := json.Unmarshal(output(t, agsh, "--version", "--output", "json"), &v); err != nil {
		t.Fatal(err)
	}
	if v.Program != "agsh" || v.Version != "v"+meta.Version {
		t.Errorf("agsh --version --output json: %+v, want version v%s (dist/metadata.json)", v, meta.Version)
	}
	line := strings.TrimSpace(string(output(t, agsh, "--version")))
	if !strings.HasPrefix(line, "agsh v"+meta.Version+" (go") {
		t.Errorf("agsh --version = %q, want agsh v%s (go…)", line, meta.Version)
	}
	t.Logf("agsh --version from the archive: %s", line)

	// What sits beside it is what it prints.
	same := func(file string, args ...string) {
		t.Helper()
		got, err := os.ReadFile(filepath.Join(unpacked, file))
		if err != nil {
			t.Error(err)
			return
		}
		if !bytes.Equal(got, output(t, agsh, args...)) {
			t.Errorf("the archive's %s is not what agsh %s prints", file, strings.Join(args, " "))
		}
	}
	same("agsh.1", "--man")
	same("completions/agsh.bash", "--completion", "bash")
	same("completions/_agsh", "--completion", "zsh")
	same("completions/agsh.fish", "--completion", "fish")
	same("completions/agsh.ps1", "--completion", "pwsh")
	if got, err := os.ReadFile(filepath.Join(root, "agsh.1")); err != nil || !bytes.Equal(got, output(t, agsh, "--man")) {
		t.Errorf("the archive's agsh --man is not the checked-in agsh.1 (%v)", err)
	}

	checkChecksums(t, byType["Checksum"], archives[0])
	if runtime.GOOS == "linux" {
		checkPackages(t, byType["Linux Package"])
	}
	checkCask(t, byType["Homebrew Cask"])
}

// findGoreleaser is the goreleaser to run: on PATH, else where `go
// install` puts it. Absent, the test is skipped, except in CI, which
// installs it (.ci/run).
func findGoreleaser(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("goreleaser"); err == nil {
		return p
	}
	if out, err := exec.Command("go", "env", "GOBIN", "GOPATH").Output(); err == nil {
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		var dirs []string
		if lines[0] != "" {
			dirs = append(dirs, lines[0])
		}
		if len(lines) > 1 && lines[1] != "" {
			dirs = append(dirs, filepath.Join(filepath.SplitList(lines[1])[0], "bin"))
		}
		for _, d := range dirs {
			p := filepath.Join(d, "goreleaser")
			if _, err := os.Stat(p); err == nil {
				return p
			}
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("goreleaser is not installed; .ci/run installs it (make tools)")
	}
	t.Skip("goreleaser is not installed (make tools installs it)")
	return ""
}

// copyRepository copies the files git would see in root — tracked, and
// new ones not ignored, as they are in the work tree — into a new
// directory: goreleaser writes dist/ and completions/ there. The copies
// are readable by their owner only (0600, or 0700 when executable).
func copyRepository(t *testing.T, root string) string {
	t.Helper()
	out, err := exec.Command("git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("git ls-files: %v", err)
		}
		t.Skipf("the source is not a git checkout (git ls-files: %v)", err)
	}
	dst := t.TempDir()
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		src := filepath.Join(root, name)
		fi, err := os.Lstat(src)
		if err != nil || !fi.Mode().IsRegular() {
			continue // deleted in the work tree, or a link
		}
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		to := filepath.Join(dst, name)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, data, fi.Mode().Perm()&0o700|0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// hostOnly narrows the builds of the configuration to the host: the goos
// and goarch lines of .goreleaser.yaml become the host's.
func hostOnly(t *testing.T, config string) {
	t.Helper()
	data, err := os.ReadFile(config)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	for _, r := range []struct{ line, host string }{
		{"goos: [linux, darwin, windows]", "goos: [" + runtime.GOOS + "]"},
		{"goarch: [amd64, arm64]", "goarch: [" + runtime.GOARCH + "]"},
	} {
		if n := strings.Count(s, r.line); n != 1 {
			t.Fatalf(".goreleaser.yaml has %d lines %q, want 1 (this test narrows it to the host)", n, r.line)
		}
		s = strings.Replace(s, r.line, r.host, 1)
	}
	if err := os.WriteFile(config, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// commit makes the copy a repository of one commit with the project's
// remote, as goreleaser reads its state from git.
func commit(t *testing.T, ctx context.Context, dir string) {
	t.Helper()
	for _, args := range [][]string{
		{"init", "-q"},
		{"add", "-A"},
		{"-c", "user.name=agsh test", "-c", "user.email=test@agsh.invalid", "-c", "commit.gpgsign=false", "commit", "-q", "-m", "snapshot"},
		{"remote", "add", "origin", "https://github.com/agsh-dev/agsh.git"},
	} {
		run(t, ctx, dir, "git", args...)
	}
}

// run runs a command in dir, failing the test with its output when it
// fails. Publishing tokens are kept from it, and the go command from the
// network: everything it builds is in the module cache already.
func run(t *testing.T, ctx context.Context, dir, name string, args ...string) {
	t.Helper()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if !strings.HasSuffix(k, "_TOKEN") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "GOPROXY=off", "GOFLAGS=-mod=readonly")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

// output is the standard output of the binary run with args.
func output(t *testing.T, bin string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v", filepath.Base(bin), strings.Join(args, " "), err)
	}
	return out
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// unpack extracts a .tar.gz or .zip archive into dir and answers the
// names of its files.
func unpack(t *testing.T, archive, dir string) []string {
	t.Helper()
	var names []string
	write := func(name string, mode os.FileMode, r io.Reader) {
		if !filepath.IsLocal(name) {
			t.Fatalf("%s: entry %q is outside the archive's folder", archive, name)
		}
		names = append(names, filepath.ToSlash(name))
		to := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_EXCL, mode.Perm()|0o600)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(f, r); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if strings.HasSuffix(archive, ".zip") {
		zr, err := zip.OpenReader(archive)
		if err != nil {
			t.Fatal(err)
		}
		defer zr.Close()
		for _, f := range zr.File {
			if f.FileInfo().IsDir() {
				continue
			}
			r, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			write(f.Name, f.Mode(), r)
			r.Close()
		}
		return names
	}
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return names
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			// The modes and owner are .goreleaser.yaml's, never the
			// build machine's umask.
			want := int64(0o644)
			if name := path.Base(h.Name); name == "agsh" || name == "agsh-devserver" {
				want = 0o755
			}
			if h.Mode&0o7777 != want || h.Uname != "root" || h.Gname != "root" {
				t.Errorf("%s: %s is %04o %s/%s, want %04o root/root", filepath.Base(archive), h.Name, h.Mode&0o7777,
					h.Uname, h.Gname, want)
			}
			write(h.Name, h.FileInfo().Mode(), tr)
		}
	}
}

// checkChecksums: checksums.txt has the archive's SHA-256.
func checkChecksums(t *testing.T, files []string, archive string) {
	t.Helper()
	if len(files) != 1 {
		t.Errorf("want one checksums file, got %v", files)
		return
	}
	sums, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	if want := hex.EncodeToString(sum[:]) + "  " + filepath.Base(archive) + "\n"; !strings.Contains(string(sums), want) {
		t.Errorf("%s lacks %q:\n%s", filepath.Base(files[0]), want, sums)
	}
}

// checkPackages: a deb and an rpm are made; the deb (read with dpkg-deb
// where it is installed) puts the binaries on PATH, the manual page where
// man looks and the completions where the shells do.
func checkPackages(t *testing.T, pkgs []string) {
	t.Helper()
	var deb, rpm string
	for _, p := range pkgs {
		switch filepath.Ext(p) {
		case ".deb":
			deb = p
		case ".rpm":
			rpm = p
		}
	}
	if deb == "" || rpm == "" {
		t.Errorf("want a deb and an rpm, got %v", pkgs)
		return
	}
	if _, err := exec.LookPath("dpkg-deb"); err != nil {
		return
	}
	out, err := exec.Command("dpkg-deb", "--contents", deb).Output()
	if err != nil {
		t.Fatalf("dpkg-deb --contents: %v", err)
	}
	// dpkg-deb lists "-rwxr-xr-x root/root … ./usr/bin/agsh": the modes
	// and owner are .goreleaser.yaml's, never the build machine's umask.
	lines := strings.Split(string(out), "\n")
	for _, file := range []string{"./usr/bin/agsh", "./usr/bin/agsh-devserver", "./usr/share/man/man1/agsh.1",
		"./usr/share/bash-completion/completions/agsh", "./usr/share/zsh/vendor-completions/_agsh",
		"./usr/share/fish/vendor_completions.d/agsh.fish", "./usr/share/doc/agsh/README.md"} {
		i := slices.IndexFunc(lines, func(l string) bool { return strings.HasSuffix(l, " "+file) })
		if i < 0 {
			t.Errorf("the deb lacks %s:\n%s", file, out)
			continue
		}
		want := "-rw-r--r-- root/root "
		if strings.HasPrefix(file, "./usr/bin/") {
			want = "-rwxr-xr-x root/root "
		}
		if !strings.HasPrefix(lines[i], want) {
			t.Errorf("the deb's %s is %q, want %q…", file, lines[i], want)
		}
	}
}

// checkCask: the cask installs both binaries, the manual page and the
// completions, at paths the archive has.
func checkCask(t *testing.T, casks []string) {
	t.Helper()
	if len(casks) != 1 {
		t.Errorf("want one cask, got %v", casks)
		return
	}
	data, err := os.ReadFile(casks[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{`binary "agsh"`, `binary "agsh-devserver"`, `manpage "agsh.1"`,
		`bash_completion "completions/agsh.bash"`, `zsh_completion "completions/_agsh"`, `fish_completion "completions/agsh.fish"`} {
		if !strings.Contains(string(data), "  "+line+"\n") {
			t.Errorf("the cask lacks %s:\n%s", line, data)
		}
	}
	if strings.Contains(string(data), "rename ") {
		t.Errorf("the cask renames files (the archive is wrapped in a folder, which the cask's other paths do not name):\n%s", data)
	}
}
