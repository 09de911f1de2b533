#include "backends/cpu/native/native_compiler.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "core/config.hpp"
#include "switchyard/error.hpp"

extern char** environ;

namespace switchyard::cpu::native {
namespace {

namespace fs = std::filesystem;

// A directory of its own under the system's temporary directory, removed with its files.
class ScratchDirectory {
 public:
  ScratchDirectory() {
    std::string pattern = (fs::temp_directory_path() / "switchyard-cc-XXXXXX").string();
    if (!::mkdtemp(pattern.data()))
      throw CompileError("native code: cannot create a temporary directory under " +
                         fs::temp_directory_path().string() + ": " + std::strerror(errno));
    path_ = pattern;
  }
  ~ScratchDirectory() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// Runs `argv` with its output into `log`; the exit status, or -1 when it could not start.
int run(const std::vector<std::string>& argv, const fs::path& log) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  pid_t pid = 0;
  const int started = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (started != 0) return -1;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The functions libmvec may vectorise, with their argument counts.
struct VectorFunction {
  const char* name;
  int arity;
};
constexpr VectorFunction kVectorMath[] = {
    {"sin", 1},   {"cos", 1},   {"tan", 1},   {"exp", 1},   {"log", 1},   {"pow", 2},
    {"asin", 1},  {"acos", 1},  {"atan", 1},  {"atan2", 2}, {"sinh", 1},  {"cosh", 1},
    {"tanh", 1},  {"asinh", 1}, {"acosh", 1}, {"atanh", 1}, {"exp2", 1},  {"exp10", 1},
    {"expm1", 1}, {"log2", 1},  {"log10", 1}, {"log1p", 1}, {"hypot", 2}, {"cbrt", 1},
};

// GCC calls a function declared `omp declare simd` by its x86-64 vector ABI names, one per
// ISA (b: SSE, c: AVX, d: AVX2, e: AVX-512) and lane count; a declaration is written only for
// a function libmvec has in every one of them.
std::string vector_math_declarations() {
  void* libmvec = ::dlopen("libmvec.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!libmvec) return {};
  std::string out;
  for (const VectorFunction& f : kVectorMath)
    for (const bool single : {true, false}) {
      const std::string v(static_cast<std::size_t>(f.arity), 'v');
      const std::string suffix = single ? "f" : "";
      const std::array<std::string, 4> lanes =
          single ? std::array<std::string, 4>{"bN4", "cN8", "dN8", "eN16"}
                 : std::array<std::string, 4>{"bN2", "cN4", "dN4", "eN8"};
      bool all = true;
      for (const std::string& l : lanes)
        all = all && ::dlsym(libmvec, ("_ZGV" + l + v + "_" + f.name + suffix).c_str());
      if (!all) continue;
      const std::string T = single ? "float" : "double";
      out += "#pragma omp declare simd notinbranch\n" + T + " " + f.name + suffix + "(" + T +
             (f.arity == 2 ? ", " + T : "") + ");\n";
    }
  ::dlclose(libmvec);
  return out;
}

// -march for the CPU backend's SIMD target, capped as SWITCHYARD_SIMD says (simd_target.hpp),
// so that capped runs reproduce a smaller machine's results here too.
std::string march() {
  const char* text = env_value("SWITCHYARD_SIMD");
  const std::string target = text ? text : "best";
  if (target == "sse4") return "-march=nehalem";
  if (target == "avx2") return "-march=haswell";
  if (target == "avx3") return "-march=skylake-avx512";
  return "-march=native";
}

}  // namespace

Compiler::Compiler() {
  const char* configured = env_value("SWITCHYARD_CC");
  command_ = configured ? configured : "cc";
  // -ffp-contract=off: no fused multiply-adds the program did not ask for, so results round as
  // NumPy's do; -fno-math-errno lets math calls vectorise; C's math is otherwise untouched.
  flags_ = {"-std=c11", "-O3",           march(),           "-fPIC",
            "-shared",  "-fopenmp-simd", "-fno-math-errno", "-ffp-contract=off",
            "-w"};
  try {
    ScratchDirectory dir;
    const int status = run({command_, "--version"}, dir.path() / "version.txt");
    const std::string text = read_file(dir.path() / "version.txt");
    if (status != 0) {
      reason_ = "the C compiler `" + command_ + "` " +
                (status < 0 ? std::string("could not be run") : "failed: " + text.substr(0, 200)) +
                " (SWITCHYARD_CC names another)";
      return;
    }
    version_ = text.substr(0, text.find('\n'));
  } catch (const Error& e) {
    reason_ = e.what();
    return;
  }
  vector_math_ = vector_math_declarations();
  if (!vector_math_.empty()) {
    flags_.push_back("-include");
    flags_.push_back("sy_vector_math.h");
    version_ += "; libmvec";
  }
}

std::string Compiler::options() const {
  std::string s;
  for (const std::string& f : flags_) s += f + " ";
  return s + vector_math_;
}

std::vector<std::byte> Compiler::compile(const std::string& source) const {
  if (!available()) throw CompileError("native code: " + reason_);
  ScratchDirectory dir;
  std::ofstream(dir.path() / "kernel.c") << source;
  std::ofstream(dir.path() / "sy_vector_math.h") << vector_math_;
  std::vector<std::string> argv = {command_};
  argv.insert(argv.end(), flags_.begin(), flags_.end());
  for (std::string& a : argv)
    if (a == "sy_vector_math.h") a = (dir.path() / a).string();
  argv.insert(argv.end(), {(dir.path() / "kernel.c").string(), "-o",
                           (dir.path() / "kernel.so").string(), "-lm"});
  if (!vector_math_.empty()) argv.push_back("-lmvec");
  const fs::path log = dir.path() / "log.txt";
  const int status = run(argv, log);
  if (status != 0)
    throw CompileError(
        "native code: `" + command_ + "` " +
        (status < 0 ? "could not be run" : "failed (exit " + std::to_string(status) + ")") + ":\n" +
        read_file(log));
  const std::string object = read_file(dir.path() / "kernel.so");
  std::vector<std::byte> out(object.size());
  std::memcpy(out.data(), object.data(), object.size());
  return out;
}

}  // namespace switchyard::cpu::native
