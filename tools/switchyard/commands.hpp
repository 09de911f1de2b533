// The subcommands of the `switchyard` program.
#pragma once

namespace switchyard::cli {

int info(bool json);
int demo();
int calibrate(bool quick);

}  // namespace switchyard::cli
