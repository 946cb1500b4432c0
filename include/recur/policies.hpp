#ifndef RECUR_POLICIES_HPP
#define RECUR_POLICIES_HPP

namespace recur {

/// One thread per x, looping over n inside: with LayoutLeft, neighbouring
/// threads store to neighbouring addresses (coalesced on a GPU); with
/// LayoutRight each thread owns a contiguous row (what a CPU cache wants).
struct ThreadPerX {
  static constexpr const char* name() { return "ThreadPerX"; }
};

/// Let recur choose the policy from the backend, V's layout and its shape.
/// The default; today every choice is ThreadPerX.
struct Auto {
  static constexpr const char* name() { return "Auto"; }
};

}  // namespace recur

#endif
