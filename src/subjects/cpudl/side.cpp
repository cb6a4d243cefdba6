#include "subjects/cpudl/side.h"

#include "subjects/cpudl/kernel_side.h"

namespace diffsched::cpudl {


std::unique_ptr<Side> make_reference_side() {
  return std::make_unique<KernelModelSide<kernel::SwapHeapify>>("reference");
}

std::unique_ptr<Side> make_optimized_side() {
  return std::make_unique<KernelModelSide<kernel::HoleHeapify>>("optimized");
}

}  // namespace diffsched::cpudl
