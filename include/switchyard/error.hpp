// Typed errors. Every failure Switchyard reports derives from switchyard::Error; the message
// says what was expected, what was given and, where it helps, what to do.
#pragma once

#include <stdexcept>
#include <string>

namespace switchyard {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Shapes that cannot be combined: mismatched, impossible broadcasts, bad reshapes, rank limits.
class ShapeError : public Error {
 public:
  using Error::Error;
};

// A dtype or dtype pair an operation does not support.
class DTypeError : public Error {
 public:
  using Error::Error;
};

// An axis, index or slice bound outside what the array has.
class IndexError : public Error {
 public:
  using Error::Error;
};

// An axis outside the array's rank (NumPy's AxisError, which is both an IndexError and a
// ValueError; in Python this one is too).
class AxisError : public IndexError {
 public:
  using IndexError::IndexError;
};

// A bad argument value: negative or overflowing size, zero step, empty reduction without identity.
class ValueError : public Error {
 public:
  using Error::Error;
};

// A matrix a factorisation cannot take: singular (solve, inv), not positive definite
// (cholesky), or an iteration that did not converge (svd, eigh). NumPy's numpy.linalg.LinAlgError,
// which is also a ValueError.
class LinAlgError : public ValueError {
 public:
  using ValueError::ValueError;
};

// A bad SWITCHYARD_* environment value or configuration.
class ConfigError : public Error {
 public:
  using Error::Error;
};

// An allocation that did not succeed (host or device); names the device and the sizes.
class OutOfMemory : public Error {
 public:
  using Error::Error;
};

// A device or driver error; the message keeps the backend's own error name.
class DeviceError : public Error {
 public:
  using Error::Error;
};

// A kernel that failed to build; the message carries the build log.
class CompileError : public Error {
 public:
  using Error::Error;
};

// A backend asked for by name that is not available on this machine.
class BackendUnavailable : public Error {
 public:
  using Error::Error;
};

// Every candidate device failed a piece of work; the message lists each attempt and its cause.
class AllDevicesFailed : public Error {
 public:
  using Error::Error;
};

// Text that does not parse (an expression, a setting); names the position and what was expected.
class ParseError : public Error {
 public:
  using Error::Error;
};

// A DLPack tensor Switchyard cannot take (device, dtype, lanes) or a capsule used twice.
class DLPackError : public Error {
 public:
  using Error::Error;
};

}  // namespace switchyard
