// The harness's side of the result record (src/kcheck/record.h):
// what the modes ran, written only once their checks are complete, and the
// current input, kept in a shared mapping so that kernel-check knows it when
// the process ends inside it.
//
//   start_record();                      // first thing: token out of the environment
//   record().programs++; ...             // the modes count what they ran
//   finish(kHarnessOk);                  // writes the record, then _exit(status)
//
// Nothing a candidate does after the record is written (an atexit handler,
// a destructor) runs: finish() ends the process with _exit().
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "kcheck/record.h"

namespace diffsched::kcheck {

void start_record();
tools::HarnessRecord& record();
tools::CurrentInput& current_input();

// Writes the record now (a sanitizer's death callback, the fuzzer's exit).
void write_record_now();

// The record as it would be written, for a signal handler to write with
// write_prepared() (open/write/rename only): prepared once, outside it.
std::string prepared_record(const tools::HarnessRecord& r);
void write_prepared(const std::string& text);

// The record (its outcome from `status` unless a mode set one), then the
// process ends with `status`, flushing stdio but running no exit handler.
[[noreturn]] void finish(int status);

// cpudl_init() failed in a program where nothing was made to fail: recorded
// as init-failed with `what`, exit kHarnessCouldNotRun.
[[noreturn]] void stop_on_init_failure(const std::string& what);

}  // namespace diffsched::kcheck
