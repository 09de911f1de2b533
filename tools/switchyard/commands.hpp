// The subcommands of the `switchyard` program.
#pragma once

#include <string>

namespace switchyard::cli {

int info(bool json);
int demo();
int calibrate(bool quick);
int explain(const std::string& op, double n_elements, const std::string& resident);

}  // namespace switchyard::cli
