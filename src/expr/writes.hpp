// Writes into storage that pending work reads. A pending node has the value it had when it was
// built (NumPy's eager semantics), so before storage is written, or lent out to code that may
// write it, the pending nodes that read it are realised. ArrayFire evaluates its pending JIT
// nodes before a write for the same reason.
#pragma once

#include "expr/node.hpp"

namespace switchyard {
class Buffer;
}

namespace switchyard::expr {

// Realises every pending node that reads `storage`, before it is written. `value`, the node about
// to be written there (held by the writer alone), may read the storage itself: readers that only
// its graph holds stay pending and are computed by the write's own kernel, so `a += b * c` stays
// one pass over memory.
void realize_readers(Buffer& storage, const NodePtr& value = {});

}  // namespace switchyard::expr
