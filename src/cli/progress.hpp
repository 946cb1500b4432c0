#ifndef RECUR_CLI_PROGRESS_HPP
#define RECUR_CLI_PROGRESS_HPP

#include <chrono>
#include <cstddef>

namespace recur::cli {

/// A progress bar with rate and ETA on stderr, drawn only when stderr is a
/// terminal, and only once a job has run for half a second (short jobs stay
/// silent; RECUR_PROGRESS_DELAY sets another number of seconds). advance()
/// may be called from one thread at a time.
class Progress {
 public:
  Progress(std::size_t total_rows, std::size_t bytes_per_row);
  Progress(const Progress&)            = delete;
  Progress& operator=(const Progress&) = delete;
  ~Progress();

  void advance(std::size_t rows);
  /// Draws 100 % and ends the line (if a bar was drawn).
  void finish();

 private:
  void draw(bool final);

  using Clock = std::chrono::steady_clock;
  bool enabled_;
  bool drawn_ = false;
  std::size_t total_, done_ = 0, bytes_per_row_;
  std::chrono::duration<double> delay_;
  Clock::time_point start_, last_draw_;
};

}  // namespace recur::cli

#endif
