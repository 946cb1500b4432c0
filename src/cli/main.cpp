// recur: the command-line tool. Subcommands eval, gauss and info; exit
// status 0 on success, 2 for a mistake on the command line, 1 for every other
// failure, with one line on stderr that says what to fix.

#include "commands.hpp"
#include "errors.hpp"
#include "ranks.hpp"

#include <recur/version.hpp>

#include <Kokkos_Core.hpp>

#include <pthread.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <utility>
#include <filesystem>
#include <iostream>
#include <string>
#include <unistd.h>

namespace recur::cli {

std::vector<std::string> kokkos_arguments;

namespace {

constexpr const char* program_usage =
    "usage: recur eval  --family NAME --n N --x X.npy --out V.npy [options]\n"
    "       recur gauss --family NAME --n N --out nodes_weights.npy [options]\n"
    "       recur basis --dims D --degree P --out A.npy [options]\n"
    "       recur info\n"
    "\n"
    "  eval   V(i, n) = p_n(x_i) for every x of a .npy (or text) file, n < N, into a .npy file\n"
    "  gauss  the n-point Gauss rule of a family's weight: an n x 2 .npy file of nodes, weights\n"
    "  basis  the multi-index table of a multivariate basis: a P x D int64 .npy file\n"
    "  info   recur's and Kokkos' versions, backends, devices and memory\n"
    "\n"
    "recur COMMAND --help describes each command. Exit status: 0 done, 2 a mistake on the\n"
    "command line, 1 any other failure (unreadable input, unwritable output, full disk).\n";

// Signal-safe copies of the temporary outputs' paths.
char temporary_paths[2][4096];

// Who may touch the temporary paths: nobody (paths_free); a HeldSignals,
// whose thread may be between making a file and naming it in a guard
// (paths_being_made); a signal handler ending the run (paths_being_removed).
// The signals wait in the HeldSignals' thread, but a thread that a library
// started before main (OpenBLAS' pool does) may take one meanwhile: its
// handler waits for the HeldSignals to end before it reads the paths.
enum : int { paths_free, paths_being_made, paths_being_removed };
std::atomic<int> temporary_paths_state{paths_free};
static_assert(std::atomic<int>::is_always_lock_free, "a signal handler uses it");

extern "C" void remove_temporaries_and_die(int signal) {
  // (A second signal may interrupt this handler in its own thread: it goes
  // on past a state that is already paths_being_removed.)
  for (int expected = paths_free;
       !temporary_paths_state.compare_exchange_weak(expected, paths_being_removed) &&
       expected != paths_being_removed;
       expected = paths_free) {
  }
  for (auto& path : temporary_paths)
    if (path[0] != '\0') ::unlink(path);
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

// One line: Kokkos' messages may span several.
std::string one_line(const char* text) {
  std::string line;
  bool space = false;
  for (const char* c = text; *c; ++c) {
    if (*c == '\n' || *c == '\r' || *c == '\t' || *c == ' ') {
      space = !line.empty();
      continue;
    }
    if (space) line += ' ';
    space = false;
    line += *c;
  }
  return line;
}

const CommandSpec* find_command(const std::string& name) {
  for (const CommandSpec* command : {&eval_command, &gauss_command, &basis_command, &info_command})
    if (name == command->name) return command;
  return nullptr;
}

}  // namespace

TemporaryGuard::TemporaryGuard(int slot, const std::string& path) : slot_(slot) {
  char* target = temporary_paths[slot];
  target[0]    = '\0';
  if (path.empty() || path.size() >= sizeof temporary_paths[slot]) return;
  // The first byte last, so that a signal never sees half a path.
  std::memcpy(target + 1, path.c_str() + 1, path.size());
  target[0] = path[0];
}

TemporaryGuard::~TemporaryGuard() { temporary_paths[slot_][0] = '\0'; }

void warn(const std::string& message) { std::fprintf(stderr, "recur: warning: %s\n", message.c_str()); }

bool same_file(const std::string& a, const std::string& b) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (fs::exists(a, error) && fs::exists(b, error)) {
    const bool same = fs::equivalent(a, b, error);
    if (!error) return same;
  }
  const fs::path ca = fs::weakly_canonical(a, error);
  if (error) return false;
  const fs::path cb = fs::weakly_canonical(b, error);
  return !error && ca == cb;
}

HeldSignals::HeldSignals() {
  sigset_t ending;
  sigemptyset(&ending);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&ending, sig);
  pthread_sigmask(SIG_BLOCK, &ending, &previous_);
  // A handler already removing the files ends the process: this thread
  // waits for that instead of making a file it would not see.
  for (int expected = paths_free;
       !temporary_paths_state.compare_exchange_weak(expected, paths_being_made);
       expected = paths_free)
    if (expected == paths_being_removed) ::pause();
}

HeldSignals::~HeldSignals() {
  temporary_paths_state.store(paths_free);
  pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
}

// Kokkos 3.7 renamed three options (--kokkos-threads became
// --kokkos-num-threads, --kokkos-device --kokkos-device-id, --kokkos-ndevices
// --kokkos-num-devices); Kokkos 3.4 ignores the new names without a word and
// Kokkos 4 warns about the old ones. Either name works here: it is passed on
// as the Kokkos recur was built with spells it.
std::string kokkos_spelling(const std::string& argument) {
  static const std::pair<const char*, const char*> renamed[] = {
      {"--kokkos-threads", "--kokkos-num-threads"},
      {"--kokkos-device", "--kokkos-device-id"},
      {"--kokkos-ndevices", "--kokkos-num-devices"}};
  const std::size_t equals = argument.find('=');
  const std::string name   = argument.substr(0, equals);
  const std::string value  = equals == std::string::npos ? "" : argument.substr(equals);
  for (const auto& [old_name, new_name] : renamed) {
    if (name != old_name && name != new_name) continue;
#if KOKKOS_VERSION >= 30700
    return new_name + value;
#else
    return old_name + value;
#endif
  }
  return argument;
}

KokkosSession::KokkosSession() {
  std::vector<std::string> arguments{"recur"};
  bool warnings_named = std::getenv("KOKKOS_DISABLE_WARNINGS") != nullptr;
  for (const std::string& argument : kokkos_arguments) {
    arguments.push_back(kokkos_spelling(argument));
    if (argument.rfind("--kokkos-disable-warnings", 0) == 0) warnings_named = true;
  }
  if (!warnings_named) arguments.push_back("--kokkos-disable-warnings");
  std::vector<char*> argv;
  for (std::string& argument : arguments) argv.push_back(argument.data());
  argv.push_back(nullptr);
  int argc = int(arguments.size());
  const HeldSignals held;
  Kokkos::initialize(argc, argv.data());
}

KokkosSession::~KokkosSession() { Kokkos::finalize(); }

}  // namespace recur::cli

int main(int argc, char* argv[]) {
  using namespace recur::cli;
  // A file size limit (ulimit -f) then fails a write with EFBIG, reported,
  // instead of killing the process.
  std::signal(SIGXFSZ, SIG_IGN);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) std::signal(sig, remove_temporaries_and_die);

  if (argc < 2) {
    std::fputs(program_usage, stderr);
    return 2;
  }
  const std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    std::fputs(program_usage, stdout);
    return 0;
  }
  if (name == "--version") {
    std::printf("recur %s\n", recur::version().c_str());
    return 0;
  }
  const CommandSpec* command = find_command(name);
  if (command == nullptr) {
    std::fprintf(stderr, "recur: error: unknown command '%s'; the commands are eval, gauss, basis and info (see recur --help)\n",
                 name.c_str());
    return 2;
  }
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
      std::fputs(help_text(*command).c_str(), stdout);
      return 0;
    }
    if (std::strncmp(argv[i], "--kokkos-", 9) == 0) kokkos_arguments.emplace_back(argv[i]);
  }
  // Under mpirun or srun, MPI for the whole command; every rank ends with
  // the same status, and only rank 0 prints the message.
  const ranks::Session mpi(argc, argv);
  try {
    const Arguments arguments(*command, argc, argv, 2);
    if (command == &eval_command) return run_eval(arguments);
    if (command == &gauss_command) return run_gauss(arguments);
    if (command == &basis_command) return run_basis(arguments);
    return run_info(arguments);
  } catch (const std::exception& error) {
    // Status 2: a mistake on the command line, or a value recur refuses (the
    // families' parameter checks, extents); 1: any other failure.
    if (ranks::rank() == 0)
      std::fprintf(stderr, "recur %s: error: %s\n", command->name, one_line(error.what()).c_str());
    return ranks::status_of(error);
  }
}
