// The host's C compiler as the CPU's code generator: C from codegen (Dialect::C) → a shared
// object of native code, vectorised by the compiler, with vector math from glibc's libmvec.
//
// Chosen by measurement (a fused a*b + sin(c)*2.5 - sqrt(|a|) over float32, one thread): gcc -O3
// with libmvec ran at 0.97-1.09x the speed of the same loop written by hand with Highway, and
// compiled in about 60 ms.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace switchyard::cpu::native {

class Compiler {
 public:
  // Finds the compiler ($SWITCHYARD_CC, else `cc`) and the vector math it can call. Never
  // throws: a missing or broken compiler makes the compiler unavailable, with the reason.
  Compiler();

  bool available() const { return reason_.empty(); }
  const std::string& unavailable_reason() const { return reason_; }
  // "gcc (Debian 12.2.0-14) 12.2.0; libmvec 2.36": goes into the kernel cache's keys.
  const std::string& version() const { return version_; }
  // The flags and the vector math declared, also part of the keys.
  std::string options() const;

  // The shared object for `source`; CompileError carrying the compiler's log when it fails.
  std::vector<std::byte> compile(const std::string& source) const;

 private:
  std::string command_, reason_, version_;
  std::string vector_math_;  // declarations of the libmvec functions present on this machine
  std::vector<std::string> flags_;
};

}  // namespace switchyard::cpu::native
