# Sanitizer and fuzzing builds (clang). Included after the dependencies are found and before any
# project target is defined, so the flags reach every target of this project (library, CLI,
# tests, fuzzers) and nothing else: third-party code comes prebuilt from the system.
#
#   -DSWITCHYARD_SANITIZE=address,undefined   ASan + UBSan; every UB report is fatal
#   -DSWITCHYARD_SANITIZE=thread              TSan
#   -DSWITCHYARD_FUZZ=ON                      libFuzzer harnesses in tests/fuzz (clang, and the
#                                             library gets -fsanitize=fuzzer-no-link coverage)
#
# Run-time options and the suppressions of third-party reports live in tests/sanitizers/.
set(SWITCHYARD_SANITIZE "" CACHE STRING "Sanitizers for project targets: address,undefined | thread")
option(SWITCHYARD_FUZZ "Build the libFuzzer harnesses in tests/fuzz (clang only)" OFF)

set(_sanitizers "${SWITCHYARD_SANITIZE}")
if(SWITCHYARD_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "SWITCHYARD_FUZZ needs clang (libFuzzer): configure with CMAKE_CXX_COMPILER=clang++")
  endif()
  if(_sanitizers MATCHES "thread")
    message(FATAL_ERROR "SWITCHYARD_FUZZ runs with address,undefined, not with thread")
  endif()
  if(_sanitizers STREQUAL "")
    set(_sanitizers "address,undefined")
  endif()
  # Coverage feedback for the fuzzers in every project object; the harnesses link libFuzzer.
  set(_sanitizers "fuzzer-no-link,${_sanitizers}")
endif()

if(NOT _sanitizers STREQUAL "")
  if(_sanitizers MATCHES "thread" AND _sanitizers MATCHES "address")
    message(FATAL_ERROR "SWITCHYARD_SANITIZE: thread cannot be combined with address")
  endif()
  # Line tables are all a sanitizer's report needs (file:line of each frame); full debug info made
  # the instrumented test files compile 20% longer (scheduler_test.cpp: 34 s against 28 s).
  set(_flags -fsanitize=${_sanitizers} -fno-omit-frame-pointer -gline-tables-only)
  if(_sanitizers MATCHES "undefined")
    # A report fails the test instead of scrolling past. float-cast-overflow stays recoverable
    # because UBSan applies suppressions to recoverable checks only, and one is suppressed
    # (tests/sanitizers/ubsan.supp); UBSAN_OPTIONS=halt_on_error=1 keeps its other reports fatal.
    list(APPEND _flags -fno-sanitize-recover=all -fsanitize-recover=float-cast-overflow)
  endif()
  add_compile_options(${_flags})
  add_link_options(-fsanitize=${_sanitizers})
  # For the files that only include a third-party header's host code (VkFFT's 32k lines), which
  # would otherwise be the one project code the sanitizers check: instrumented, the OpenCL one
  # compiled in 144 s, the build's longest step by far. Third-party code is otherwise linked
  # uninstrumented from the system too.
  set(SWITCHYARD_THIRD_PARTY_OPTIONS -fno-sanitize=all)
  # Sanitized builds are for finding bugs, not for timing.
  set(SWITCHYARD_BUILD_BENCHMARKS OFF CACHE BOOL "Build the benchmarks" FORCE)
  message(STATUS "Sanitizers for project targets: ${_sanitizers}")
endif()
unset(_flags)
