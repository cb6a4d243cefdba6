// JSON forms of traces and verdicts (for `diffsched replay --json`).
//
//   JsonTrace<cpudl::Subject> trace;   run_lockstep(..., &trace);
//   nlohmann::json doc = {{"ops", trace.ops()}, {"verdict", verdict_json(v)}};
//
// One object per op: its index and text, every side's state (heap slots as
// {cpu, dl}, masks as cpulists), the model, and find/pick answers.
#pragma once

#include <nlohmann/json.hpp>

#include "engine/runner.h"

namespace diffsched::io {

// A subject's step_json() (src/subjects/<name>/print.h) is found by
// argument-dependent lookup where a trace is instantiated.
nlohmann::json verdict_json(const Verdict& v);

template <class S>
class JsonTrace final : public Observer<S> {
 public:
  void on_op(std::size_t index, const typename S::Op& op, const typename S::Lockstep& ls,
             const Verdict&) override {
    ops_.push_back(step_json(index, op, ls));
  }
  const nlohmann::json& ops() const { return ops_; }

 private:
  nlohmann::json ops_ = nlohmann::json::array();
};

}  // namespace diffsched::io
