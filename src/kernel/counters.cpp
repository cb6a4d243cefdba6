#include "kernel/counters.h"

namespace diffsched::kernel {

AccessCounters& access_counters() {
  thread_local AccessCounters counters;
  return counters;
}

}  // namespace diffsched::kernel
