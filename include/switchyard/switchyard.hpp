// Switchyard: numerical work on every device a machine has, each kernel placed where it finishes
// soonest. This header includes the whole public API.
#pragma once

#include "switchyard/algorithms.hpp"
#include "switchyard/array.hpp"
#include "switchyard/calibration.hpp"
#include "switchyard/capture.hpp"
#include "switchyard/complex.hpp"
#include "switchyard/device.hpp"
#include "switchyard/dlpack.hpp"
#include "switchyard/dtype.hpp"
#include "switchyard/error.hpp"
#include "switchyard/explain.hpp"
#include "switchyard/expr.hpp"
#include "switchyard/fallback.hpp"
#include "switchyard/fft.hpp"
#include "switchyard/linalg.hpp"
#include "switchyard/metrics.hpp"
#include "switchyard/ops.hpp"
#include "switchyard/pipeline.hpp"
#include "switchyard/runtime.hpp"
#include "switchyard/shape.hpp"
