#include "progress.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace recur::cli {

namespace {

std::string rate_text(double bytes_per_second) {
  const char* units[] = {"B/s", "kB/s", "MB/s", "GB/s", "TB/s"};
  int unit            = 0;
  while (bytes_per_second >= 1000 && unit < 4) {
    bytes_per_second /= 1000;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %s", bytes_per_second, units[unit]);
  return text;
}

std::string duration_text(double seconds) {
  const long s = long(seconds + 0.5);
  char text[32];
  if (s >= 3600)
    std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  else
    std::snprintf(text, sizeof text, "%ld:%02ld", s / 60, s % 60);
  return text;
}

// The seconds a run lasts before its bar is drawn: RECUR_PROGRESS_DELAY
// when it holds a number >= 0, else half a second.
std::chrono::duration<double> progress_delay() {
  const char* text = std::getenv("RECUR_PROGRESS_DELAY");
  if (text != nullptr) {
    char* end           = nullptr;
    const double value = std::strtod(text, &end);
    if (end != text && *end == '\0' && value >= 0 && value < 1e9)
      return std::chrono::duration<double>(value);
  }
  return std::chrono::duration<double>(0.5);
}

}  // namespace

Progress::Progress(std::size_t total_rows, std::size_t bytes_per_row)
    : enabled_(::isatty(STDERR_FILENO) == 1 && total_rows > 0),
      total_(total_rows),
      bytes_per_row_(bytes_per_row),
      delay_(progress_delay()),
      start_(Clock::now()),
      last_draw_(start_) {}

Progress::~Progress() {
  // A run that ends in an error leaves the bar's line before the message.
  if (drawn_) std::fputc('\n', stderr);
}

void Progress::advance(std::size_t rows) {
  done_ += rows;
  if (!enabled_) return;
  const auto now = Clock::now();
  if (now - start_ < delay_ || (drawn_ && now - last_draw_ < std::chrono::milliseconds(100)))
    return;
  last_draw_ = now;
  draw(false);
}

void Progress::finish() {
  if (drawn_) {
    draw(true);
    std::fputc('\n', stderr);
    drawn_ = false;
  }
}

void Progress::draw(bool final) {
  constexpr int width   = 30;
  const double fraction = total_ ? double(done_) / double(total_) : 1.0;
  const double seconds  = std::chrono::duration<double>(Clock::now() - start_).count();
  const double rate     = seconds > 0 ? double(done_) * double(bytes_per_row_) / seconds : 0;
  const int filled      = int(fraction * width);
  std::string bar(std::size_t(filled), '#');
  bar.resize(width, ' ');
  std::string tail = rate_text(rate);
  if (final)
    tail += ", " + duration_text(seconds);
  else if (done_ > 0)
    tail += ", ETA " + duration_text(seconds * (1 - fraction) / fraction);
  std::fprintf(stderr, "\r%3d%% [%s] %s   ", int(fraction * 100), bar.c_str(), tail.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

}  // namespace recur::cli
