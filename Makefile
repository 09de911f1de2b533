# Two commands do all the set-up on a fresh Debian/Ubuntu machine:
#   make demo   installs what is missing, builds, runs `switchyard demo` on every device here
#   make test   installs what is missing, builds, runs the whole test suite
BUILD_DIR ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: deps configure build demo test bench format clean

deps:
	@bash scripts/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS) >/dev/null

build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

demo: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS) --target switchyard-cli
	@$(BUILD_DIR)/tools/switchyard demo

test: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

bench: build
	@bash bench/run.sh $(BUILD_DIR)

format:
	@git ls-files '*.cpp' '*.hpp' | xargs clang-format -i

clean:
	@rm -rf $(BUILD_DIR)
