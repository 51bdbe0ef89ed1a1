// Error types shared by every strobe module, and the exit status each maps to.
#pragma once

#include <stdexcept>
#include <string>

namespace strobe {

/// Exit statuses of the `strobe` command (DESIGN.md §5).
enum class ExitCode : int { Ok = 0, Failure = 1, BadInput = 2 };

/// Base of all strobe errors; carries the exit status the CLI should return.
class Error : public std::runtime_error {
 public:
  Error(ExitCode code, const std::string& what) : std::runtime_error(what), code_(code) {}
  /// The process exit status this error maps to.
  ExitCode code() const { return code_; }

 private:
  ExitCode code_;
};

/// Bad user input: a corrupt file, a bad argument, an unknown config key. Exit status 2.
class InputError : public Error {
 public:
  explicit InputError(const std::string& what) : Error(ExitCode::BadInput, what) {}
};

/// A simulated kernel did something illegal (out-of-bounds access, unknown instruction). Exit 1.
class FaultError : public Error {
 public:
  explicit FaultError(const std::string& what) : Error(ExitCode::Failure, what) {}
};

/// A feature that strobe does not implement yet. Exit status 1, message starts "not implemented: ".
class NotImplementedError : public Error {
 public:
  explicit NotImplementedError(const std::string& what) : Error(ExitCode::Failure, "not implemented: " + what) {}
};

}  // namespace strobe
