// Runs a program as a child process with extra environment variables, its stdout and stderr in
// files: for tests of what happens at exit and across processes.
#pragma once

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

extern char** environ;

namespace switchyard::testing {

struct ChildResult {
  int status = -1;  // exit status, or 128 + signal number
  std::string out, err;
};

class Child {
 public:
  Child(const std::vector<std::string>& args, const std::map<std::string, std::string>& env,
        const std::filesystem::path& output_prefix)
      : out_(output_prefix.string() + ".out"), err_(output_prefix.string() + ".err") {
    std::vector<std::string> vars;
    for (char** e = environ; *e; ++e) {
      const std::string var = *e;
      if (!env.count(var.substr(0, var.find('=')))) vars.push_back(var);
    }
    for (const auto& [name, value] : env) vars.push_back(name + "=" + value);
    std::vector<char*> argv, envp;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    for (auto& v : vars) envp.push_back(v.data());
    envp.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, out_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, 2, err_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int rc = posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) throw std::runtime_error("cannot start " + args[0]);
  }

  ChildResult wait() {
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0) {
    }
    ChildResult r;
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = read(out_);
    r.err = read(err_);
    return r;
  }

 private:
  static std::string read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

  pid_t pid_ = -1;
  std::string out_, err_;
};

}  // namespace switchyard::testing
