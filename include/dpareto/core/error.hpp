#pragma once
// Error types shared by every module (DESIGN.md §2 "Errors").
// Each carries a one-line message that names the offending value and where it came from
// (file:line, flag, parameter); the CLI prints it and exits non-zero.
#include <stdexcept>
#include <string>

namespace dpareto {

// Base of all errors dpareto raises on purpose.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Invalid user input: flags, files, parameters, configurations.
class InputError : public Error {
 public:
  using Error::Error;
};

// A numerical procedure failed (e.g. Cholesky still not positive definite after jitter).
class NumericalError : public Error {
 public:
  using Error::Error;
};

// A missing external program or library (e.g. gnuplot); the message names the package.
class DependencyError : public Error {
 public:
  using Error::Error;
};

}  // namespace dpareto
