package fstools

// The tools' descriptions, in our own words.
const (
	readDescription = "Read a text file of the workspace. Lines come numbered (the number right-aligned in six columns, then |). " +
		"Long files are cut at 2000 lines or 50 KiB; a notice tells the offset to continue from."
	lsDescription = "List a directory of the workspace as an indented tree, directories ending in /. " +
		"Large subtrees are summarized; dot-files and files ignored by .gitignore are left out."
	grepDescription = "Search file contents with an RE2 regular expression. Prints matching lines with their numbers, " +
		"the matching files, or per-file counts. Dot-files, ignored and binary files are skipped."
	globDescription = "Find files whose path matches a glob pattern (** matches any number of directories), " +
		"most recently modified first."
	diffDescription        = "Show the uncommitted changes of the workspace (git diff HEAD of each checkout), untracked files left out."
	listChangesDescription = "List the recent commits of the workspace root, newest first, with their changed files."
)

// Input schemas, as docs/file-tools.md gives them (descriptions aside: those
// are ours).
const (
	readSchema = `{"type": "object", "required": ["path"], "properties": {
  "path":   {"type": "string",  "description": "Absolute path of the file."},
  "offset": {"type": "integer", "description": "First line to return: 1-based from the start; negative counts back from the end (-1 is the last line)."},
  "limit":  {"type": "integer", "description": "How many lines to return."}}}`

	lsSchema = `{"type": "object", "required": ["target_directory"], "properties": {
  "target_directory": {"type": "string", "description": "Directory to list."},
  "ignore_globs": {"type": "array", "items": {"type": "string"}, "description": "Glob patterns to leave out; a pattern not starting with **/ gets **/ prepended."}}}`

	grepSchema = `{"type": "object", "required": ["pattern"], "properties": {
  "pattern": {"type": "string", "description": "RE2 regular expression to search for."},
  "path": {"type": "string", "description": "File or directory to search; defaults to the workspace root."},
  "glob": {"type": "string", "description": "Only search files whose path matches this glob; one not starting with **/ gets **/ prepended."},
  "output_mode": {"type": "string", "enum": ["content", "files_with_matches", "count"], "description": "content (matching lines, the default), files_with_matches (paths) or count (matching lines per file)."},
  "-A": {"type": "integer", "description": "Lines of context after each match (content mode)."},
  "-B": {"type": "integer", "description": "Lines of context before each match (content mode)."},
  "-C": {"type": "integer", "description": "Lines of context before and after each match (content mode)."},
  "-i": {"type": "boolean", "description": "Match case-insensitively."},
  "type": {"type": "string", "description": "Only search files of this type: go, js, ts, py, rust, java, c, cpp, md, json, yaml, sh."},
  "head_limit": {"type": "integer", "minimum": 0, "description": "Keep only the first N matching lines (content) or files (other modes); 0 keeps all."},
  "offset": {"type": "integer", "minimum": 0, "description": "Skip the first N matching lines or files before head_limit applies."},
  "multiline": {"type": "boolean", "description": "Let . match newlines and a match span lines."}}}`

	globSchema = `{"type": "object", "required": ["glob_pattern"], "properties": {
  "glob_pattern": {"type": "string", "description": "Pattern; one not starting with **/ gets **/ prepended."},
  "target_directory": {"type": "string", "description": "Directory to search; defaults to the workspace root."}}}`

	diffSchema = `{"type": "object", "properties": {
  "path": {"type": "string", "description": "Limit the diff to this file or directory."}}}`

	listChangesSchema = `{"type": "object", "properties": {
  "limit": {"type": "integer", "minimum": 1, "description": "How many commits to list (default 20)."},
  "author": {"type": "string", "description": "Only commits whose author name or email contains this text (case-insensitive)."}}}`

	listChangesOutput = `{"type": "array", "items": {"type": "object", "required": ["sha", "author", "date", "subject", "files"], "properties": {
  "sha": {"type": "string", "description": "Commit hash."},
  "author": {"type": "string", "description": "Author name."},
  "date": {"type": "string", "format": "date-time", "description": "Author date, ISO 8601."},
  "subject": {"type": "string", "description": "First line of the message."},
  "files": {"type": "array", "items": {"type": "string"}, "description": "Paths the commit changed."}}}}`
)
