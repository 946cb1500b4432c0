#ifndef RECUR_CLI_ERRORS_HPP
#define RECUR_CLI_ERRORS_HPP

#include <stdexcept>

namespace recur::cli {

/// A mistake on the command line (exit status 2); every other failure is
/// exit status 1.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace recur::cli

#endif
