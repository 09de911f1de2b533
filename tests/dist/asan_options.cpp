// AddressSanitizer builds only: unwind every allocation's stack in full. Open MPI's libraries
// have no frame pointers, so the fast unwinder stops inside them, before any frame that
// tests/sanitizers/lsan.supp could name, and what MPI leaves at exit would fail the run.
extern "C" const char* __asan_default_options() {
  return "fast_unwind_on_malloc=0";
}
