#ifndef RECUR_POLICIES_HPP
#define RECUR_POLICIES_HPP

namespace recur {

/// One thread per x, looping over n inside: with LayoutLeft, neighbouring
/// threads store to neighbouring addresses (coalesced on a GPU); with
/// LayoutRight each thread owns a contiguous row (what a CPU cache wants).
struct ThreadPerX {
  static constexpr const char* name() { return "ThreadPerX"; }
};

/// A team computes a tile of rows into team scratch memory, then writes the
/// tile in V's own contiguous order: coalesced stores for LayoutRight (C,
/// NumPy, PyTorch order) on a GPU, where one thread per row stores N elements
/// apart. Rows must fit in team scratch (48 KiB a team on CUDA: N up to about
/// 10 000 floats); for_each_slice functions run unchanged. On CPU execution
/// spaces, where each thread already writes its own rows contiguously, it runs
/// as ThreadPerX (and the kernel label says so).
struct Staged {
  static constexpr const char* name() { return "Staged"; }
};

/// Let recur choose the policy from the backend, V's layout and its shape.
/// The default; today every choice is ThreadPerX.
struct Auto {
  static constexpr const char* name() { return "Auto"; }
};

}  // namespace recur

#endif
