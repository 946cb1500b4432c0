#ifndef RECUR_CLI_COMMANDS_HPP
#define RECUR_CLI_COMMANDS_HPP

#include "arguments.hpp"
#include "families.hpp"

#include <signal.h>

#include <string>
#include <vector>

namespace recur::cli {

extern const CommandSpec eval_command;
extern const CommandSpec gauss_command;
extern const CommandSpec info_command;
extern const CommandSpec basis_command;

/// Each subcommand, once its arguments are parsed; returns the exit status.
int run_eval(const Arguments& arguments);
int run_gauss(const Arguments& arguments);
int run_info(const Arguments& arguments);
int run_basis(const Arguments& arguments);
/// recur eval --degree: a multivariate product basis (basis.cpp).
int run_eval_basis(const Arguments& arguments);

/// The family that --family, --alpha, --beta and --lambda choose, checked
/// (UsageError, or std::invalid_argument from the family's constructor).
FamilyChoice family_choice(const Arguments& arguments);

/// Kokkos for the length of a command, initialized with the --kokkos-*
/// arguments of the command line (and Kokkos' warnings off unless asked
/// for: they would break the one-line error rule).
class KokkosSession {
 public:
  KokkosSession();
  ~KokkosSession();
  KokkosSession(const KokkosSession&)            = delete;
  KokkosSession& operator=(const KokkosSession&) = delete;
};

/// The --kokkos-* arguments of the command line (set by main).
extern std::vector<std::string> kokkos_arguments;

/// Prints one warning line on stderr.
void warn(const std::string& message);

/// While it lives, SIGINT, SIGTERM and SIGHUP wait (in the calling thread)
/// instead of ending the run: around the making of a temporary output and
/// its TemporaryGuard, so that no signal falls between them; and around
/// Kokkos' start, whose threads inherit the mask and so never take them.
/// Threads started earlier (a BLAS library's pool) may take a signal
/// meanwhile: its handler then waits for this object's end before it removes
/// the temporary files. One at a time, never nested.
class HeldSignals {
 public:
  HeldSignals();
  ~HeldSignals();
  HeldSignals(const HeldSignals&)            = delete;
  HeldSignals& operator=(const HeldSignals&) = delete;

 private:
  sigset_t previous_;
};

/// While it lives, a signal that ends the run (Ctrl-C) removes the
/// temporary file at `path`; `slot` is 0 or 1.
class TemporaryGuard {
 public:
  TemporaryGuard(int slot, const std::string& path);
  ~TemporaryGuard();
  TemporaryGuard(const TemporaryGuard&)            = delete;
  TemporaryGuard& operator=(const TemporaryGuard&) = delete;

 private:
  int slot_;
};

/// Whether two paths name the same file (existing or not).
bool same_file(const std::string& a, const std::string& b);

}  // namespace recur::cli

#endif
