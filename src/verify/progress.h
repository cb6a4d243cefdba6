// Progress reports of long verification runs, and a clock.
//
//   ProgressFn progress = [](const Progress& p) { fmt::print(stderr, "{}\n", p.line); };
//   verify_cpudl(bounds, lockstep, progress);  // called about every 5 s
#pragma once

#include <chrono>
#include <functional>
#include <string>

namespace diffsched::verify {

struct Progress {
  double seconds = 0;  // since the run started
  std::string line;    // "depth 9: 123456 states, 4.5M transitions, ..."
};

using ProgressFn = std::function<void(const Progress&)>;

// Seconds since construction; due() is true about every `period` seconds.
class Stopwatch {
 public:
  explicit Stopwatch(double period = 5.0) : period_(period) {}
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  bool due() {
    const double s = seconds();
    if (s < next_) return false;
    next_ = s + period_;
    return true;
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  double period_;
  double next_ = period_;
};

// 12345678 -> "12.3M", 4567 -> "4567", 3.2e15 -> "3.2e+15".
std::string human_count(unsigned long long n);

}  // namespace diffsched::verify
