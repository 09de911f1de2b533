// Linked into every test executable of a ThreadSanitizer build (tests/CMakeLists.txt).
// Debian's libtbb is not instrumented: TSan cannot see the synchronisation inside TBB's task
// hand-offs and would report every parallel_for body as racing with its caller. With TBB held to
// one thread, parallel work runs on the thread that asked for it, and the concurrency TSan checks
// is the tests' own threads meeting in the project's code and locks.
#include <tbb/global_control.h>

namespace {
const tbb::global_control one_tbb_thread(tbb::global_control::max_allowed_parallelism, 1);
}  // namespace
