#ifndef RECUR_POLICIES_HPP
#define RECUR_POLICIES_HPP

namespace recur {

/// One thread per x, looping over n inside: with LayoutLeft, neighbouring
/// threads store to neighbouring addresses (coalesced on a GPU); with
/// LayoutRight each thread owns a contiguous row (what a CPU cache wants).
/// For three-term families and PowerSums a thread takes a small block of
/// consecutive x in lockstep instead: 8 on CPUs, and on GPUs 16 bytes of them
/// when V's columns are contiguous (one 16-byte store per n). Same values.
struct ThreadPerX {
  static constexpr const char* name() { return "ThreadPerX"; }
};

/// A team computes a tile of rows into team scratch memory, then writes the
/// tile in V's own contiguous order: coalesced stores for LayoutRight (C,
/// NumPy, PyTorch order) on a GPU, where one thread per row stores N elements
/// apart. Families with a linear recurrence (three-term ones, PowerSums) are
/// staged 32 terms of n at a time, their state kept in registers, so any N
/// works; for_each_slice functions and other direct families stage whole rows,
/// which must fit in team scratch (48 KiB a team on CUDA: N up to about
/// 10 000 floats). On CPU execution
/// spaces, where each thread already writes its own rows contiguously, it runs
/// as ThreadPerX (and the kernel label says so).
struct Staged {
  static constexpr const char* name() { return "Staged"; }
};

/// Carries the recurrence along n in parallel, for few x and long rows (say
/// M = 16, N = 2^24), where one thread per x would leave a GPU idle. Each row
/// is cut into chunks; the chunks' transfer matrices (the linear map from the
/// state (p_n, p_{n-1}) at a chunk's start to the state at its end) are
/// composed by a blocked scan along each row, and every chunk then runs its part of
/// the recurrence from its own start (on GPUs, for V whose rows are not
/// contiguous, in one pass: tiles of chunks that look back along their rows
/// for their starting states; not for double-double). For three-term families and PowerSums;
/// no derivatives. Chunk starts come from products of transfer matrices, so
/// results differ from the sequential recurrence by rounding (tested at the
/// same tolerance as ThreadPerX against 60-digit references).
struct ScanAlongN {
  /// Terms a chunk; 0 chooses: 1024 on CPUs; on a GPU 512 for V whose rows
  /// are not contiguous (1024 for PowerSums where M <= 16) and 1024 for
  /// row-contiguous V, shortened (down to 128) for small M x N so that the
  /// GPU has a chunk for every eighth of the threads it holds at once
  /// (PowerSums' column slices: every 32nd).
  int chunk = 0;
  static constexpr const char* name() { return "ScanAlongN"; }
};

/// Let recur choose the policy from the backend, V's layout and its shape
/// (the default). recur::auto_policy(space, family, V) says what it chooses.
struct Auto {
  static constexpr const char* name() { return "Auto"; }
};

/// The working precision, the argument after the policy (or in its place)
/// of recur::evaluate, recur::evaluate_streamed and recur::series.
/// Accurate (the default): double results are computed in double-double
/// arithmetic and float results in double, so that a value's error is that of
/// its rounding to V's type plus a few of the working precision's ulps times
/// the recurrence's own error growth (docs/accuracy.md).
struct Accurate {
  static constexpr const char* name() { return "Accurate"; }
};

/// Plain arithmetic in V's own type: several times faster for double results
/// where double-double is compute bound (three-term families on every GPU and
/// CPU), somewhat faster for float results where a GPU stages row slices,
/// with errors that grow with n as the recurrence's rounding errors do (like
/// n² near x = ±1 for the Jacobi-type families: up to 2e-10 in double and of
/// order 1 in float at N = 2000, relative to the row's scale; measured per
/// family in docs/accuracy.md). In float, x beyond 2^64 is outside the domain
/// (NaN rows). PowerSums sums in float for float results (in double for
/// double results, and its derivatives in double, either way).
struct Fast {
  static constexpr const char* name() { return "Fast"; }
};

/// The policies Auto chooses from, by name.
enum class PolicyKind { ThreadPerX, Staged, ScanAlongN };

inline const char* name(PolicyKind kind) {
  switch (kind) {
    case PolicyKind::Staged: return Staged::name();
    case PolicyKind::ScanAlongN: return ScanAlongN::name();
    default: return ThreadPerX::name();
  }
}

}  // namespace recur

#endif
