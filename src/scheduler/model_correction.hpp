// What a candidate measured for one kernel at some sizes, carried to sizes it has not run: the
// model's launch and compute times, each scaled by a factor fitted to those measurements. A cheap
// run at a small size then corrects the prediction at a large one, so the scheduler need not
// run the large size on a device just to learn that its model was wrong.
#pragma once

#include <span>

namespace switchyard::scheduler {

struct ModelCorrection {
  double launch = 1, compute = 1;
  double apply(double launch_s, double compute_s) const {
    return launch * launch_s + compute * compute_s;
  }
};

// One measured size: the model's launch and compute times there and the measured time.
struct MeasuredSize {
  double launch_s = 0, compute_s = 0, measured_s = 0;
};

// The factors that best turn the model into the measurements, in relative error (each size
// counts alike whatever its duration). Two factors where the sizes tell launch and compute apart.
// Where they do not (a single size, or sizes all in the same proportion), the part that makes up
// at least two thirds of the model's time there takes the whole correction and the other keeps
// its model (a tiny run says nothing of bandwidth, a huge one nothing of launch latency); one
// factor for both when neither dominates. {1, 1} without measurements. Clamped to [0.1, 10].
ModelCorrection fit_correction(std::span<const MeasuredSize> sizes);

}  // namespace switchyard::scheduler
