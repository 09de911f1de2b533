# Two commands do all the set-up on a fresh Debian/Ubuntu machine:
#   make demo   installs what is missing, builds, runs `switchyard demo` on every device here
#   make test   installs what is missing, builds, runs the whole test suite
# and, with clang, the guards CI runs after it (each in its own build directory):
#   make sanitize   the suite under AddressSanitizer + UndefinedBehaviorSanitizer (build-asan),
#                   the concurrency tests under ThreadSanitizer (build-tsan)
#   make fuzz       every libFuzzer harness in tests/fuzz for FUZZ_SECONDS each (build-asan)
# and, after `make test` (which runs the conformance suite at this machine's best SIMD target):
#   make conformance-isa   the conformance suite's CPU cases again at each cap of SIMD_CAPS
#   make vulkan            the Vulkan backend's build and tests (build-vulkan)
BUILD_DIR ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
ASAN_DIR ?= build-asan
TSAN_DIR ?= build-tsan
FUZZ_SECONDS ?= 45
# ASan: allocator_may_return_null because tests ask for impossible sizes to check OutOfMemory.
# ASan+UBSan: the suite less install_consumer (an outside CMake project that cannot link an
# instrumented library without the sanitizer flags), QuickCalibration (asserts a floor on the
# measured CPU throughput, which instrumented code does not reach) and the size sweep of Explain
# (expects the measured inline/parallel crossover inside its sizes: instrumentation and a loaded
# machine move it past them), and conformance_native (the CPU conformance cases again with their
# kernels as native code, which the system compiler builds uninstrumented: its host code is the
# CPU cases' own, checked here already; it took 337 s; the test stage runs it), the every-device
# cases on OpenCL (their time, 264 s of 1262, is PoCL's uninstrumented compiler; the OpenCL host
# code runs here in opencl_backend_test, library_kernels_test, fault_matrix_test, fallback_test
# and lifecycle_test) and the GLSL and CUDA codegen builds (137 s in glslang and NVRTC;
# codegen_test's instrumented renderer runs here).
# A failing test runs once more: clang 14's LeakSanitizer tracer now and then crashes ("Tracer
# caught signal 11") at the exit of a test that passed; a real failure fails both times.
ASAN_CTEST_EXCLUDE ?= ^install_consumer$$|^QuickCalibration\.|^Explain\.SizeSweep|^conformance_native$$|^AllDevices/[^ ]*/opencl_0|^Codegen(Glsl|Cuda)\.E
# SWITCHYARD_SIMD caps the CPU backend's SIMD target, and OPENBLAS_CORETYPE OpenBLAS's kernels
# with it (OpenBLAS picks them itself when it loads), so that a result never depends on the
# machine that ran it: simd:openblas pairs. A cap this machine cannot reach is skipped, with a
# message. The OpenCL device compiles for its own target, so only the CPU's cases run again.
# Each cap calibrates into a profile of its own: the capped CPU is another device to the model.
SIMD_CAPS ?= avx2:Haswell sse4:Nehalem
# TSan: the tests that run work from several threads at once (ctest names are Suite.Test), and
# the executables they live in, the only ones built (ctest lists the others as NAME_NOT_BUILT).
TSAN_TESTS ?= Stress|Concurrent|Thread|^Fallback|^Metrics\.|^Trace\.
TSAN_TARGETS ?= calibration_test capture_test cpu_backend_test fallback_test fault_injection_test \
  kernel_cache_test lifecycle_test lifecycle_child metrics_test stress_test
SANITIZER_DIR := $(CURDIR)/tests/sanitizers
SANITIZER_ENV := PATH="/usr/lib/llvm-14/bin:$$PATH" \
  ASAN_OPTIONS=detect_leaks=1:check_initialization_order=1:detect_stack_use_after_return=1:allocator_may_return_null=1 \
  LSAN_OPTIONS=suppressions=$(SANITIZER_DIR)/lsan.supp:print_suppressions=0 \
  UBSAN_OPTIONS=suppressions=$(SANITIZER_DIR)/ubsan.supp:print_stacktrace=1:halt_on_error=1 \
  TSAN_OPTIONS=suppressions=$(SANITIZER_DIR)/tsan.supp:halt_on_error=1:second_deadlock_stack=1
# The Python module is left out: an instrumented library does not load into a plain interpreter.
# RelWithDebInfo's optimisation; of its debug info, the line tables cmake/Sanitizers.cmake adds.
CLANG_FLAGS := -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO='-O2 -DNDEBUG' -DCMAKE_CXX_FLAGS_RELWITHDEBINFO='-O2 -DNDEBUG' \
  -DSWITCHYARD_BUILD_PYTHON=OFF

.PHONY: deps configure build demo test conformance-isa vulkan bench format clean \
        sanitize sanitize-address sanitize-thread fuzz fuzz-build

deps:
	@bash scripts/install-deps.sh
	@bash scripts/python-env.sh

configure: deps
	@cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release \
	  -DPython_EXECUTABLE=$(CURDIR)/.venv/bin/python $(CMAKE_FLAGS) >/dev/null

build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

demo: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS) --target switchyard-cli
	@$(BUILD_DIR)/tools/switchyard demo

test: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

conformance-isa: build
	@for cap in $(SIMD_CAPS); do \
	  simd=$${cap%%:*}; blas=$${cap#*:}; \
	  target=$$(SWITCHYARD_SIMD=$$simd $(BUILD_DIR)/tools/switchyard info --json | \
	    sed -n 's/.*"simd_target": "\(.*\)".*/\1/p'); \
	  if [ "$$target" != "$$(echo $$simd | tr a-z A-Z)" ]; then \
	    echo "conformance-isa: skipping SWITCHYARD_SIMD=$$simd: this machine's best is $$target"; \
	    continue; \
	  fi; \
	  echo "conformance-isa: SWITCHYARD_SIMD=$$simd OPENBLAS_CORETYPE=$$blas"; \
	  SWITCHYARD_SIMD=$$simd OPENBLAS_CORETYPE=$$blas SWITCHYARD_PROFILE=$(BUILD_DIR)/profile-$$simd.json \
	    $(BUILD_DIR)/tests/conformance_test \
	    --gtest_filter='*/cpu_*' --gtest_brief=1 || exit 1; \
	done

# The Vulkan backend, built apart while it is off by default (src/backends/vulkan/CMakeLists.txt):
# its own tests, the conformance suite and the fault matrix on its device (lavapipe in CI), and
# the explain, metrics and fallback tests with it beside the others, and its calibration. The
# conformance cases run as JOBS shards at once: one process compiled their shaders on one core
# for 523 s of the stage's 574.
VULKAN_DIR ?= build-vulkan
VULKAN_TESTS := vulkan_backend_test conformance_test fault_matrix_test explain_test metrics_test \
  fallback_test calibration_test
vulkan: deps
	@cmake -S . -B $(VULKAN_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release -DSWITCHYARD_VULKAN=ON \
	  -DSWITCHYARD_BUILD_PYTHON=OFF -DSWITCHYARD_BUILD_BENCHMARKS=OFF $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(VULKAN_DIR) -j $(JOBS) --target $(VULKAN_TESTS) switchyard-cli
	@cd $(VULKAN_DIR)/tests && export SWITCHYARD_REQUIRE_BACKENDS=cpu,opencl,vulkan && \
	  ./vulkan_backend_test --gtest_brief=1 && \
	  bash $(CURDIR)/tests/run_shards.sh $(JOBS) ./conformance_test --gtest_filter='*vulkan*' \
	    --gtest_brief=1 && \
	  ./fault_matrix_test --gtest_filter='*vulkan*' --gtest_brief=1 && \
	  ./explain_test --gtest_brief=1 && ./metrics_test --gtest_brief=1 && \
	  ./fallback_test --gtest_brief=1 && \
	  ./calibration_test --gtest_filter='QuickCalibration.*' --gtest_brief=1

sanitize: sanitize-address sanitize-thread

# The benchmarks are left out: nothing under test runs them, and building them instrumented only
# lengthens CI.
$(ASAN_DIR)/build.ninja:
	@bash scripts/install-deps.sh
	@cmake -S . -B $(ASAN_DIR) -G Ninja $(CLANG_FLAGS) $(CMAKE_FLAGS) \
	  -DSWITCHYARD_SANITIZE=address,undefined -DSWITCHYARD_FUZZ=ON \
	  -DSWITCHYARD_BUILD_BENCHMARKS=OFF >/dev/null

sanitize-address: $(ASAN_DIR)/build.ninja
	@cmake --build $(ASAN_DIR) -j $(JOBS)
	@cd $(ASAN_DIR) && $(SANITIZER_ENV) ctest --output-on-failure -j $(JOBS) -E '$(ASAN_CTEST_EXCLUDE)' \
	  --repeat until-pass:2

$(TSAN_DIR)/build.ninja:
	@bash scripts/install-deps.sh
	@cmake -S . -B $(TSAN_DIR) -G Ninja $(CLANG_FLAGS) $(CMAKE_FLAGS) \
	  -DSWITCHYARD_SANITIZE=thread >/dev/null

sanitize-thread: $(TSAN_DIR)/build.ninja
	@cmake --build $(TSAN_DIR) -j $(JOBS) --target $(TSAN_TARGETS)
	@cd $(TSAN_DIR) && $(SANITIZER_ENV) ctest --output-on-failure -j $(JOBS) -R '$(TSAN_TESTS)'

fuzz-build: $(ASAN_DIR)/build.ninja
	@cmake --build $(ASAN_DIR) -j $(JOBS) --target fuzz_expression fuzz_dlpack fuzz_profile fuzz_kernel_cache

fuzz: fuzz-build
	@$(SANITIZER_ENV) bash tests/fuzz/run.sh $(ASAN_DIR)/tests/fuzz $(FUZZ_SECONDS)

bench: build
	@bash bench/run.sh $(BUILD_DIR)

format:
	@git ls-files '*.cpp' '*.hpp' | xargs clang-format -i

clean:
	@rm -rf $(BUILD_DIR) $(ASAN_DIR) $(TSAN_DIR)
