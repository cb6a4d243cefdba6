// Reading a patch as kernel developers hold one (issue 25 section 1): a
// git-am mbox, `git format-patch` output (several messages in one mbox are a
// series), a plain unified diff, or a mail-archive page (HTML, or the text
// of one) with the diff in it.
//
//   patch::Parsed p = patch::read_patch_file("0001-sched-deadline.patch");
//   if (!p.ok()) fail(p.error);                // one line: what is wrong and where
//   for (const Patch& one : p.series.patches)
//     for (const FileDiff& f : one.files) use(f.new_path, f.hunks);
//
// What it gives per patch: the subject, the author, the `base-commit:` line
// (git format-patch --base), and per file the old and new paths (the a/ b/
// prefix stripped) and the hunks with their line numbers and lines. A page
// has its tags dropped and its HTML entities unescaped; CRLF line ends
// become LF. Messages without a diff (a cover letter) are skipped.
//
// Malformed input is an error, never a partial patch: empty, binary bytes
// (NUL), no file diff anywhere, a hunk header that does not parse or whose
// counts the lines do not fill, a path that is absolute or climbs out with
// `..`. The reader is linear in the input (a 1 MB line is one line).
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace diffsched::patch {

// One hunk: `@@ -old_start,old_count +new_start,new_count @@ context`.
struct Hunk {
  std::size_t old_start = 0, old_count = 0, new_start = 0, new_count = 0;
  std::string header;   // the whole @@ line, as printed in errors
  std::string context;  // what follows the second @@ (often the function)
  std::vector<std::string> lines;  // each with its ' ', '-', '+' or '\' prefix
};

struct FileDiff {
  std::string old_path, new_path;  // prefix stripped; "" for /dev/null
  bool is_new = false, is_deleted = false, binary = false;
  // git's `rename from`/`copy from`: the new path starts as the old file (a
  // rename removes the old one), then the hunks apply to the new path.
  bool is_rename = false, is_copy = false;
  std::vector<Hunk> hunks;
  // The path the file has in the tree after the patch (new_path, or
  // old_path for a deletion).
  const std::string& path() const { return is_deleted ? old_path : new_path; }
};

struct Patch {
  std::string subject;      // "" for a plain diff
  std::string author;       // the From: header, "" if none
  std::string base_commit;  // the `base-commit:` line's hash, "" if none
  std::vector<FileDiff> files;
};

struct Series {
  std::string form;  // "mbox", "diff" or "html" (a page)
  std::vector<Patch> patches;
};

struct Parsed {
  Series series;
  std::string error;  // "" when ok: one line otherwise
  bool ok() const { return error.empty(); }
};

// Reads `text` (any of the forms above). O(size of text).
Parsed parse_patch(std::string_view text);
// The same for a file ("-": standard input); an unreadable file is an error.
Parsed read_patch_file(const std::string& path);

// A page's text: tags dropped (<br> and block ends become new lines), HTML
// entities (&lt; &gt; &amp; &quot; &#39; &nbsp; &#NN; &#xNN;) unescaped.
std::string html_to_text(std::string_view html);

// The unified diff of one patch, as `patch -p1` reads it: a/ and b/ paths,
// the hunks as parsed. `only_file`/`only_hunk` (>= 0) keep one file and the
// hunks up to and including one (how a failing hunk is named).
std::string unified_diff(const Patch& p, long only_file = -1, long only_hunk = -1);

// The files a patch changes, with the functions each hunk touches.
// `enclosing_functions(text, lines)`: for each 1-based line of a C file in
// kernel style (a definition's body opens and closes with a brace in
// column 0), the name of the function whose definition holds it, or "" at
// file scope. A text heuristic, not a C parser: a macro that defines a
// function is named by its macro line only if it has the same shape.
std::vector<std::string> enclosing_functions(std::string_view text,
                                             const std::vector<std::size_t>& lines);

// The functions one hunk changes, from the hunk alone (no tree): its
// header's context (when it is a definition) and the definitions inside
// it, looked up with enclosing_functions() over its old side for removed
// lines and its new side for added ones; "" for a line at file scope.
// Distinct names in first-seen order.
std::vector<std::string> hunk_functions(const Hunk& h);

}  // namespace diffsched::patch
