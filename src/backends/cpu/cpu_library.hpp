// Library operations on the CPU (backend.hpp's LibraryOp): one routine per op, chosen here.
#pragma once

#include <memory>

#include "backends/backend.hpp"

namespace switchyard::cpu {

class LibraryRoutine : public Executable {
 public:
  virtual void run(const LibraryArgs& args) const = 0;
};

// Throws DTypeError for a dtype the op does not take.
std::shared_ptr<LibraryRoutine> prepare_library(const LibraryOp& op);

}  // namespace switchyard::cpu
