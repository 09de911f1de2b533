// The calibration profile loader (scheduler/profile.hpp) on arbitrary file contents. Its
// contract: never throw for a bad file, only warn and return nullopt. A profile it accepts must
// survive a save and a reload with every model intact.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "fuzz_support.hpp"
#include "scheduler/profile.hpp"

namespace {

namespace fs = std::filesystem;
using switchyard::scheduler::MachineIdentity;

// Fixed, so that the seed corpus matches on every machine.
const MachineIdentity& identity() {
  static const MachineIdentity id{"fuzz cpu", {{"cpu:0", "fuzz cpu", "1"}}};
  return id;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  switchyard::fuzz::quiet_cpu_runtime();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fs::path path = switchyard::fuzz::scratch_directory() / "profile.json";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  const auto loaded = switchyard::scheduler::load_profile(path, identity());
  if (!loaded) return 0;
  const fs::path again = switchyard::fuzz::scratch_directory() / "saved.json";
  switchyard::scheduler::save_profile(loaded->models, loaded->history, again, identity());
  const auto reloaded = switchyard::scheduler::load_profile(again, identity());
  if (!reloaded || reloaded->models.size() != loaded->models.size()) {
    std::fprintf(stderr, "an accepted profile with %zu models %s after a save and a reload\n",
                 loaded->models.size(), reloaded ? "changed its model count" : "was refused");
    std::abort();
  }
  return 0;
}
