#include <CLI/CLI.hpp>
#include <cstdio>

#include "switchyard/error.hpp"
#include "commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"switchyard: runs numerical work on every device this machine has"};
  app.require_subcommand(1);

  bool json = false;
  auto* info = app.add_subcommand("info", "Host, SIMD target, backends and devices, settings");
  info->add_flag("--json", json, "print JSON for scripts");
  app.add_subcommand("demo", "Runs a small computation on every usable device and times it");

  CLI11_PARSE(app, argc, argv);
  try {
    if (info->parsed()) return switchyard::cli::info(json);
    return switchyard::cli::demo();
  } catch (const switchyard::Error& e) {
    std::fprintf(stderr, "switchyard: %s\n", e.what());
    return 2;
  }
}
