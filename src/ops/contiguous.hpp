// Materialised, C-contiguous storage for the operations that read memory directly (library
// calls, reinterpreting complex storage).
#pragma once

#include "switchyard/array.hpp"

namespace switchyard {

// `a` itself when it is stored C-contiguous; otherwise its value computed (or copied) into
// fresh contiguous storage. The result is never pending.
Array contiguous_storage(const Array& a);

}  // namespace switchyard
