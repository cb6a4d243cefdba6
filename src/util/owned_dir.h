// util::OwnedDir: an output directory and the manifest of what diffsched
// wrote in it, so that a mode deletes only its own files, never an input and
// never what it did not write (issue 22). One mechanism for every mode that
// fills a directory (campaign --out, export --kmod -o, kernel-check
// --work-dir):
//
//   util::OwnedDir out;
//   if (!out.open("OUT", {.manifest = ".diffsched-owned", .mode = "export --kmod",
//                         .option = "-o", .inputs = {ops, candidate}, .force = force}, &error) ||
//       !out.clean(&error))
//     fail(error);
//   write(out.file("README"), ...);     // recorded in the manifest first, then returned
//   fs::path work = out.tree("work");   // a directory it made: its content is its own
//
// open() takes a directory that is missing (created), empty, or holds this
// mode's manifest. A directory with anything else is refused, naming one
// entry, unless `force`: then only the `claim` names count as the last run's
// (they are what this mode writes). clean() removes what the last run
// recorded: files, and trees with everything in them, except an input, a
// directory that holds one, or a link to one (same inode). The manifest is
// written before each file, so a killed run leaves a true one.
//
// The manifest (OwnedDirOptions::manifest in DIR), one entry a line:
//   # diffsched-owned v1 MODE
//   file REL      a file this run wrote
//   tree REL      a directory this run made, content included
// REL is relative, without "..", with '%', CR and LF as %25, %0D, %0A. A
// line that is not of this form is ignored (never a reason to delete).
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace diffsched::util {

namespace fs = std::filesystem;

struct OwnedEntry {
  enum Kind { kFile, kTree } kind = kFile;
  fs::path rel;
};

struct OwnedDirOptions {
  std::string manifest = ".diffsched-owned";  // its file name inside the directory
  std::string mode;                           // who owns it: another mode's directory is foreign
  std::string option = "-o";                  // how messages name the directory
  std::string what;                           // "a campaign's output directory" (default:
                                              // "written by diffsched MODE")
  std::vector<fs::path> inputs;               // never deleted, nor a directory holding one
  std::vector<OwnedEntry> claim;              // with force: what counts as the last run's
  bool force = false;
};

class OwnedDir {
 public:
  friend bool remove_except(const fs::path&, const std::vector<fs::path>&, std::string*);
  // Takes `dir` for this run (see above); false and *error (one line) if it
  // is refused or cannot be made. A symlink loop or an unreadable path is
  // named as such.
  bool open(const fs::path& dir, OwnedDirOptions options, std::string* error);
  // Removes the last run's entries (never an input) and starts a new
  // manifest; false and *error if one could not be removed.
  bool clean(std::string* error);
  // Records `rel` as this run's file (its parent directories created) and
  // returns dir/rel. An error of the manifest is kept for ok().
  fs::path file(const fs::path& rel);
  // Records `rel` as this run's tree, creates it, returns dir/rel.
  fs::path tree(const fs::path& rel);
  // Records, as this run's, every top-level entry of the directory that is
  // not in `before` (a listing from entries()) and not yet recorded: what a
  // run's children wrote under names the parent does not know in advance.
  void adopt_new(const std::vector<fs::path>& before);
  // The directory's top-level entries (names), the manifest left out.
  std::vector<fs::path> entries() const;
  // The paths protects() keeps (open() sets them from OwnedDirOptions::inputs).
  void set_inputs(const std::vector<fs::path>& inputs);
  // True if `p` is an input, holds one, is a link to one, or lies inside
  // an input directory that is itself inside dir().
  bool protects(const fs::path& p) const;
  // Removes `p` (a file, or a tree with everything in it) except what
  // protects() keeps; true if it kept something. The first error in *error.
  bool remove_unprotected(const fs::path& p, std::string* error) const;
  // False once recording an entry failed (*error: why).
  bool ok(std::string* error) const;

  const fs::path& dir() const { return dir_; }
  const std::vector<OwnedEntry>& last_run() const { return last_; }

 private:
  bool record(OwnedEntry::Kind kind, const fs::path& rel);

  fs::path dir_;
  OwnedDirOptions o_;
  std::vector<fs::path> protected_;                // inputs: absolute, lexical and canonical
  std::vector<std::pair<dev_t, ino_t>> inodes_;    // inputs' inodes
  std::vector<OwnedEntry> last_;                   // the last run's manifest
  std::vector<OwnedEntry> now_;                    // this run's
  std::string error_;
};

// Removes `p` as OwnedDir::remove_unprotected does, never deleting one of
// `inputs` or a directory that holds one: for a mode's own scratch
// directory inside its work directory. False with *error if something
// could not be removed.
bool remove_except(const fs::path& p, const std::vector<fs::path>& inputs, std::string* error);

// True if `p` lies in what the last run of `mode` recorded in `dir`'s
// manifest (`manifest`): a file that run wrote, or anything inside a tree it
// made. Such a file is the tool's own leftover, never an input, even before
// clean() removes it (kernel-check: the header it staged beside a candidate
// in --work-dir/candidate/ is not "the tree's own cpudeadline.h").
bool written_by_last_run(const fs::path& dir, const std::string& manifest,
                         const std::string& mode, const fs::path& p);

// Reads a manifest's text: nullopt-like empty mode if it is not one.
// (Exposed for tests.) `mode` gets the MODE of its first line.
std::vector<OwnedEntry> parse_manifest(const std::string& text, std::string* mode);
std::string manifest_line(const OwnedEntry& e);

}  // namespace diffsched::util
