// Package fstools implements the development deployment's authored workspace
// tools — read, ls, grep, glob, diff and list_changes — over the mounts of the
// virtual workspace, as spec/file-tools.md and spec/devserver.md describe.
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
