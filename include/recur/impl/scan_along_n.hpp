#ifndef RECUR_IMPL_SCAN_ALONG_N_HPP
#define RECUR_IMPL_SCAN_ALONG_N_HPP

#include <recur/families.hpp>
#include <recur/impl/kokkos_compat.hpp>
#include <recur/impl/lockstep.hpp>
#include <recur/impl/three_term.hpp>

#include <Kokkos_Core.hpp>

#if defined(__CUDACC__)
#include <cuda_pipeline.h>
#endif

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace recur::impl {

// The ScanAlongN policy. A recurrence whose state is a pair (u0, u1) that
// each step maps linearly, (u0, u1) -> A_n (u0, u1), has, over a chunk of L
// steps, the transfer matrix A_{n0+L-1} ... A_{n0}. Starting states of all
// chunks are an exclusive prefix product of these matrices along each row:
//  1. every (row, chunk) computes its chunk's transfer matrix by running the
//     recurrence from (1, 0) and from (0, 1);
//  2. a blocked scan of the products along each row (BlockProducts,
//     TopStarts, BlockStarts below);
//  3. every (row, chunk) runs its L steps from its starting state and writes
//     them.
// The scan is recur's own, not Kokkos::parallel_scan: Kokkos' CUDA backend
// joins partial results as join(later, earlier) (Kokkos_Cuda_ReduceScan.hpp,
// 4.6), right for commutative operations only, and matrix products do not
// commute (a Kokkos::parallel_scan version passed on CPUs and failed on CUDA).
// The recurrences come in scan form (scan_form.hpp); states and matrix
// columns carry binary exponents (numbers.hpp), so chunks whose values leave
// double's range compose without overflowing.

template <class W, class MemorySpace, class Prefactor>
const ThreeTermKernel<W, MemorySpace, Prefactor>& scan_form(
    const ThreeTermKernel<W, MemorySpace, Prefactor>& kernel) {
  return kernel;
}
template <class W>
const PowerSumsScan<W>& scan_form(const PowerSumsScan<W>& kernel) {
  return kernel;
}

// Whether the kernel evaluating a family has a scan form.
template <class Kernel, class = void>
struct has_scan_form : std::false_type {};
template <class Kernel>
struct has_scan_form<Kernel, std::void_t<decltype(scan_form(std::declval<const Kernel&>()))>>
    : std::true_type {};

// A chunk's transfer matrix: column j is the image of the unit state e_j,
// each column a state with its own binary exponent.
template <class W>
struct Transfer {
  Scaled<W> c0, c1;
};

// a b + c d, where an exact zero factor contributes nothing: the zeros of a
// transfer matrix are structural (He_odd(0) is 0, as in the sequential
// recurrence's step()).
template <class W>
KOKKOS_FORCEINLINE_FUNCTION W dot(const W& a, const W& b, const W& c, const W& d) {
  const bool first = !is_zero(a) && !is_zero(b), second = !is_zero(c) && !is_zero(d);
  if (first && second) return a * b + c * d;
  if (first) return a * b;
  if (second) return c * d;
  return constant<W>(0);
}

// m s: the columns weighted by the state's components, their exponents
// brought to the larger one first (a weight that underflows there is
// negligible), then scaled back below the limit.
template <class W>
KOKKOS_FUNCTION Scaled<W> apply(const Transfer<W>& m, const Scaled<W>& s) {
  W w0 = s.u0, w1 = s.u1;
  const bool use0 = !is_zero(w0), use1 = !is_zero(w1);
  int top = use0 ? m.c0.e : m.c1.e;
  if (use0 && use1) {
    top = m.c0.e > m.c1.e ? m.c0.e : m.c1.e;
    if (m.c0.e != top) w0 = times_power_of_two(w0, m.c0.e - top);
    if (m.c1.e != top) w1 = times_power_of_two(w1, m.c1.e - top);
  }
  Scaled<W> r{dot(m.c0.u0, w0, m.c1.u0, w1), dot(m.c0.u1, w0, m.c1.u1, w1),
              saturate_exponent((long long)top + s.e)};
  keep_both_in_range(r);
  return r;
}

// later ∘ earlier: the product later · earlier.
template <class W>
KOKKOS_FORCEINLINE_FUNCTION Transfer<W> compose(const Transfer<W>& later,
                                                const Transfer<W>& earlier) {
  return {apply(later, earlier.c0), apply(later, earlier.c1)};
}

// The basis of a row's transfer matrices and chunk states. Where the steps
// tend to a double root (ThreeTermKernel::double_roots: p_n(1) = 1 for
// Legendre at every n), the transfer matrix of L steps is close to a Jordan
// block with entries of size L, and its entries' rounding splits the double
// eigenvalue by about L sqrt(eps): a row at x = 1 composed over 2^24 terms
// came out 6e7 times too large in double working numbers (float results,
// Accurate), while the recurrence itself holds it to an ulp
// (docs/accuracy.md, "At x = ±1 over long rows"). Rows within 2^-10 of such
// a point x0 therefore carry the state (p_n, d_n), d_n = p_n - sigma p_{n-1}
// (sigma = 1 at x0 = 1 and 0, -1 at x0 = -1), through the same recurrence
// written in differences:
//   d_{n+1} = g p_n + sigma c d_n,  p_{n+1} = sigma p_n + d_{n+1},
//   g = f - sigma (1 + c) = a (x - x0) + e,  e = a x0 + b - sigma (1 + c),
// where e is formed from the table's a, b, c with its cancellation exact
// ((a - 1) - c, Sterbenz), so that at x = x0 the matrix keeps its exact
// zero below the diagonal and composing never splits the root. Passes 1 and
// 2 run in that basis; pass 3 turns each start back into (p_n, p_{n-1}) and
// runs the recurrence as every policy does. Double-double working numbers
// (Accurate double) keep (p_n, p_{n-1}): their rounding is far below the
// split at any N.
struct Basis {
  int sigma = 0;  // 0: (p_n, p_{n-1})
  double x0 = 0;
};
inline constexpr double difference_band = 0x1p-10;
// (Scan forms with a member double_roots: ThreeTermKernel and the one
// pass's RoundScan over it.)
template <class Scan, class = void>
struct has_double_roots : std::false_type {};
template <class Scan>
struct has_double_roots<Scan, std::void_t<decltype(std::declval<const Scan&>().double_roots)>>
    : std::true_type {};
template <class Scan>
KOKKOS_FORCEINLINE_FUNCTION Basis transfer_basis(const Scan& scan, double x) {
  if constexpr (has_double_roots<Scan>::value &&
                std::is_floating_point_v<typename Scan::number_type>) {
    if (scan.double_roots == DoubleRoots::at_plus_minus_1) {
      if (kokkos_math::fabs(x - 1) <= difference_band) return {1, 1.0};
      if (kokkos_math::fabs(x + 1) <= difference_band) return {-1, -1.0};
    } else if (scan.double_roots == DoubleRoots::at_0) {
      if (kokkos_math::fabs(x) <= difference_band) return {1, 0.0};
    }
  } else {
    (void)scan, (void)x;
  }
  return {};
}
// A state from (p_n, p_{n-1}) into the row's basis, and back.
// (p_n - sigma p_{n-1}, and sigma (p_n - d_n): exact at the root, where d_n
// is small.)
template <class W>
KOKKOS_FORCEINLINE_FUNCTION Scaled<W> into_basis(const Basis& basis, Scaled<W> s) {
  if constexpr (std::is_floating_point_v<W>) {
    if (basis.sigma != 0) s.u1 = s.u0 - W(basis.sigma) * s.u1;
  }
  return s;
}
template <class W>
KOKKOS_FORCEINLINE_FUNCTION Scaled<W> out_of_basis(const Basis& basis, Scaled<W> s) {
  if constexpr (std::is_floating_point_v<W>) {
    if (basis.sigma != 0) s.u1 = W(basis.sigma) * (s.u0 - s.u1);
  }
  return s;
}
// One step of the recurrence in differences (Basis) on a state (p, d).
template <class W>
struct DifferenceStep {
  W g, sc, sigma;
  template <class K>
  KOKKOS_FORCEINLINE_FUNCTION DifferenceStep(const K& k, const Basis& basis, double x) {
    sigma = W(basis.sigma);
    // e = a x0 + b - sigma (1 + c): at x0 = 0, (b - 1) - c; at x0 = sigma,
    // sigma ((a - 1) - c) + b. Each first difference is exact near the
    // root (Sterbenz), so e is the table's own defect, rounded once.
    const W e = basis.x0 == 0 ? (k.b - W(1)) - k.c : multiply_add(sigma, (k.a - W(1)) - k.c, k.b);
    g  = multiply_add(k.a, W(x - basis.x0), e);
    sc = sigma * k.c;
  }
  KOKKOS_FORCEINLINE_FUNCTION void operator()(Scaled<W>& s) const {
    const W d = multiply_add(g, s.u0, sc * s.u1);
    s.u0      = multiply_add(sigma, s.u0, d);
    s.u1      = d;
  }
};

// The transfer matrices m of steps [begin, end) at B values of x carried
// across those steps, in lockstep (one load a step serves them all): each
// column carried by the recurrence. The arithmetic is that of one x at a
// time, and where the checks fall changes no value (scan_form.hpp), so a
// matrix does not depend on the other lanes. U: loads ahead (0: the scan
// form's lookahead). basis: each row's (transfer_basis of its x, worked out
// once by the caller: the one pass carries a chunk a round at a time).
template <int U, int B, class Scan>
KOKKOS_FUNCTION void carry_transfers(const Scan& scan, const double (&x)[B],
                                     const Basis (&basis)[B], int begin, int end,
                                     Transfer<typename Scan::number_type> (&m)[B]) {
  using W         = typename Scan::number_type;
  bool every_step = false, differences = false;
  for (int r = 0; r < B; ++r) {
    every_step  = every_step || scan.checks_every_step(x[r]);
    differences = differences || basis[r].sigma != 0;
  }
  const auto check = [&] {
    for (int r = 0; r < B; ++r) {
      keep_both_in_range(m[r].c0);
      keep_both_in_range(m[r].c1);
    }
  };
  if constexpr (std::is_floating_point_v<W> && !std::is_empty_v<typename Scan::step_type>) {
    if (differences) {  // (rare: rows near a double root; the basis of each row)
      for_steps<true, U>(
          scan, begin, end, every_step,
          [&](int, const typename Scan::step_type& k, auto block) {
            for (int r = 0; r < B; ++r) {
              if (basis[r].sigma != 0) {
                const DifferenceStep<W> step(k, basis[r], x[r]);
                step(m[r].c0);
                step(m[r].c1);
              } else {
                scan.advance(x[r], k, m[r].c0, block);
                scan.advance(x[r], k, m[r].c1, block);
              }
            }
          },
          check, [] { return true; });
      return;
    }
  }
  for_steps<true, U>(
      scan, begin, end, every_step,
      [&](int, const typename Scan::step_type& k, auto block) {
        for (int r = 0; r < B; ++r) {
          scan.advance(x[r], k, m[r].c0, block);
          scan.advance(x[r], k, m[r].c1, block);
        }
      },
      check, [] { return true; });
}
// The transfer matrices of steps [begin, end): the images of the unit
// states (in each row's basis).
template <int B, class Scan>
KOKKOS_FUNCTION void chunk_transfers(const Scan& scan, const double (&x)[B], int begin, int end,
                                     Transfer<typename Scan::number_type> (&m)[B]) {
  using W = typename Scan::number_type;
  Basis basis[B];
  for (int r = 0; r < B; ++r) {
    m[r]     = {{constant<W>(1), constant<W>(0), 0}, {constant<W>(0), constant<W>(1), 0}};
    basis[r] = transfer_basis(scan, x[r]);
  }
  carry_transfers<deep_lookahead<Scan>>(scan, x, basis, begin, end, m);
}
// For power sums (1, 0) is a fixed point, so only the image of (0, 1) needs
// the recurrence (the same operations as above, so the same values).
template <int B, class W>
KOKKOS_FUNCTION void chunk_transfers(const PowerSumsScan<W>& scan, const double (&x)[B], int begin,
                                     int end, Transfer<W> (&m)[B]) {
  bool every_step = false;
  Scaled<W> b[B];
  for (int r = 0; r < B; ++r) {
    b[r]       = {0, 1, 0};
    every_step = every_step || scan.checks_every_step(x[r]);
  }
  for_steps<true, deep_lookahead<PowerSumsScan<W>>>(
      scan, begin, end, every_step,
      [&](int, typename PowerSumsScan<W>::step_type k, auto block) {
        for (int r = 0; r < B; ++r) scan.advance(x[r], k, b[r], block);
      },
      [&] {
        for (int r = 0; r < B; ++r) keep_both_in_range(b[r]);
      },
      [] { return true; });
  for (int r = 0; r < B; ++r) m[r] = {{1, 0, 0}, b[r]};
}

// Layout of the work: rows of M x chunks, chunk c of row i covering terms
// [c L, min((c + 1) L, N)).
struct Chunking {
  std::int64_t M;
  int N;
  int L;
  int C;  // chunks a row
  KOKKOS_FUNCTION int begin(int c) const { return c * L; }
  KOKKOS_FUNCTION int end(int c) const { return c * L + L < N ? c * L + L : N; }
};

// A work item of passes 1 and 3: B neighbouring rows [i0, i0 + rows) of
// chunk c, carried in lockstep (rows < B only in a chunk's last group; its
// idle lanes repeat row i0). On GPUs B rows share each coefficient load, so
// a warp has B times the distinct coefficients in flight: with one row a
// thread, the 16 rows of a chunk loaded the same ones, and the passes
// waited on them (H200, M = 16, N = 2^24: double He_n/sqrt(n!) 5.97 against
// 5.70 ms, docs/performance.md).
template <int B>
struct RowGroup {
  std::int64_t i0;
  int rows, c;
  // Item k = c G + g (G groups a row: the groups of one chunk side by side,
  // reading the same coefficients at the same time), or k = g C + c (a
  // thread's chunks one after the other in memory, on CPUs).
  KOKKOS_FUNCTION RowGroup(std::int64_t k, const Chunking& shape, bool rows_fastest) {
    const std::int64_t groups = (shape.M + B - 1) / B;
    const std::int64_t g      = rows_fastest ? k % groups : k / shape.C;
    c                         = int(rows_fastest ? k / groups : k % shape.C);
    i0                        = g * B;
    rows                      = shape.M - i0 < B ? int(shape.M - i0) : B;
  }
  KOKKOS_FUNCTION std::int64_t row(int r) const { return i0 + (r < rows ? r : 0); }
};

// The scan's levels: level l + 1 holds products of blocks of scan_block
// consecutive matrices of level l, per row. A level's arrays (matrices and
// starting states) keep the members of a row's blocks interleaved: member j of
// block b at j * up + b, so that the threads of the passes that walk along
// blocks (one thread a block, its members in order) read and write
// neighbouring entries at each step. The top level (at most scan_block
// entries a row, up = 1) is in plain order.
inline constexpr int scan_block = 32;
struct Level {
  int n;              // entries a row
  int up;             // blocks a row: the next level's n (1 at the top)
  std::int64_t row;   // a row's span: up * scan_block, or n at the top
  KOKKOS_FUNCTION std::int64_t at(std::int64_t i, int c) const {
    return i * row + std::int64_t(c % scan_block) * up + c / scan_block;
  }
};

// Pass 1, work items as in RowGroup (rows fastest); matrices stored at level
// 0's at(i, c).
template <int B, class T, class Scan, class XView, class MemorySpace>
struct ChunkTransfers {
  using W = typename Scan::number_type;
  Scan scan;
  XView x;
  Kokkos::View<Transfer<W>*, MemorySpace> transfers;
  Chunking shape;
  Level level;

  KOKKOS_FUNCTION void operator()(std::int64_t k) const {
    const RowGroup<B> group(k, shape, true);
    double xs[B];
    for (int r = 0; r < B; ++r) xs[r] = double(x(group.row(r)));
    const int end = shape.end(group.c) < shape.N - 1 ? shape.end(group.c) : shape.N - 1;
    Transfer<W> m[B];
    chunk_transfers(scan, xs, shape.begin(group.c), end, m);
    for (int r = 0; r < B; ++r)
      if (r < group.rows) transfers(level.at(group.i0 + r, group.c)) = m[r];
  }
};

// Pass 2, a blocked scan: level l + 1 holds the products of blocks of
// scan_block consecutive matrices of level l (level 0: the chunks'), per row,
// up to a level of at most scan_block matrices a row; then starting states go
// down the levels, scan_block sequential steps at each. On CPUs a thread takes
// a block; on GPUs a team of scan_block threads does (tag InTeams), loading
// the block's members at once into scratch, where one thread then composes
// them: a thread walking a block from memory waited out one load a step
// (H200: about 20 us a level however few the blocks). Both compose in the
// same order, so they give the same values. Read-only Views are marked
// Restrict so that loads can run ahead of the stores of a sequential loop.
template <class W, class MemorySpace>
using TransfersIn =
    Kokkos::View<const Transfer<W>*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Restrict>>;
struct InTeams {};

// The members of block b of row i in `level`: [first, first + count).
struct Block {
  std::int64_t i;
  int b, first, count;
  KOKKOS_FUNCTION Block(std::int64_t k, const Level& level, const Level& up)
      : i(k / up.n), b(int(k % up.n)), first(b * scan_block),
        count(level.n - first < scan_block ? level.n - first : scan_block) {}
};

template <class ExecSpace, class W>
struct BlockProducts {
  using MemorySpace = typename ExecSpace::memory_space;
  using member_type = typename Kokkos::TeamPolicy<ExecSpace, InTeams>::member_type;
  TransfersIn<W, MemorySpace> in;
  Kokkos::View<Transfer<W>*, MemorySpace> out;
  Level low, high;

  template <class Get>
  KOKKOS_FUNCTION Transfer<W> product(const Block& block, const Get& m) const {
    Transfer<W> product = m(0);
    for (int j = 1; j < block.count; ++j) product = compose(m(j), product);
    return product;
  }
  KOKKOS_FUNCTION void operator()(std::int64_t k) const {
    const Block block(k, low, high);
    out(high.at(block.i, block.b)) =
        product(block, [&](int j) { return in(low.at(block.i, block.first + j)); });
  }
  KOKKOS_FUNCTION void operator()(InTeams, const member_type& team) const {
    const Block block(team.league_rank(), low, high);
    Transfer<W>* const tile = static_cast<Transfer<W>*>(
        team.team_scratch(0).get_shmem(sizeof(Transfer<W>) * scan_block));
    const int t = team.team_rank();
    if (t < block.count) tile[t] = in(low.at(block.i, block.first + t));
    team.team_barrier();
    if (t == 0) out(high.at(block.i, block.b)) = product(block, [&](int j) { return tile[j]; });
  }
};

// The top level: each row's initial state carried across its blocks.
template <class T, class Scan, class XView, class MemorySpace>
struct TopStarts {
  using W = typename Scan::number_type;
  Scan scan;
  XView x;
  TransfersIn<W, MemorySpace> top;
  Kokkos::View<Scaled<W>*, MemorySpace> states;
  Level level;

  KOKKOS_FUNCTION void operator()(std::int64_t i) const {
    Scaled<W> s;
    scan.start(double(x(i)), s);
    s = into_basis(transfer_basis(scan, double(x(i))), s);
    for (int b = 0; b < level.n; ++b) {
      states(level.at(i, b)) = s;
      s = apply(top(level.at(i, b)), s);
    }
  }
};

// One level down: a block's starting state carried across its members.
template <class ExecSpace, class W>
struct BlockStarts {
  using MemorySpace = typename ExecSpace::memory_space;
  using member_type = typename Kokkos::TeamPolicy<ExecSpace, InTeams>::member_type;
  TransfersIn<W, MemorySpace> low;
  Kokkos::View<const Scaled<W>*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Restrict>> up;
  Kokkos::View<Scaled<W>*, MemorySpace> states;
  Level low_level, up_level;

  // put(j, state before member j).
  template <class Get, class Put>
  KOKKOS_FUNCTION void carry(const Block& block, const Get& m, const Put& put) const {
    const Scaled<W> start = up(up_level.at(block.i, block.b));
    Scaled<W> s = start;
    for (int j = 0; j < block.count; ++j) {
      const Transfer<W> matrix = m(j);
      put(j, s);
      s = apply(matrix, s);
    }
  }
  KOKKOS_FUNCTION void operator()(std::int64_t k) const {
    const Block block(k, low_level, up_level);
    carry(
        block, [&](int j) { return low(low_level.at(block.i, block.first + j)); },
        [&](int j, const Scaled<W>& u) {
          states(low_level.at(block.i, block.first + j)) = u;
        });
  }
  KOKKOS_FUNCTION void operator()(InTeams, const member_type& team) const {
    const Block block(team.league_rank(), low_level, up_level);
    Transfer<W>* const tile = static_cast<Transfer<W>*>(
        team.team_scratch(0).get_shmem(sizeof(Transfer<W>) * scan_block));
    Scaled<W>* const out = static_cast<Scaled<W>*>(
        team.team_scratch(0).get_shmem(sizeof(Scaled<W>) * scan_block));
    const int t = team.team_rank();
    if (t < block.count) tile[t] = low(low_level.at(block.i, block.first + t));
    team.team_barrier();
    if (t == 0)
      carry(
          block, [&](int j) { return tile[j]; },
          [&](int j, const Scaled<W>& u) { out[j] = u; });
    team.team_barrier();
    if (t < block.count) states(low_level.at(block.i, block.first + t)) = out[t];
  }
};

// Pass 3, each work item writing its chunk straight into V: on CPUs (one
// row a work item, k = i C + c, a thread's chunks one after the other in
// memory), and on GPUs when V's rows are not contiguous (B rows of a chunk
// a work item, rows fastest as in pass 1): there the threads of a warp store
// neighbouring rows at each step, B of them at once in Pack stores where V's
// columns are contiguous (store_lanes, lockstep.hpp), which is as coalesced
// as V allows; staging through scratch only cost occupancy (H200, float
// power sums, M = 16, N = 2^24, LayoutLeft: 478 us staged).
template <int B, class T, class Scan, class XView, class VView, class MemorySpace>
struct ChunkOutputs {
  using W     = typename Scan::number_type;
  using State = typename Scan::state_type;
  Scan scan;
  XView x;
  VView V;
  Kokkos::View<const Scaled<W>*, MemorySpace> starts;
  Chunking shape;
  Level level;
  bool rows_fastest;

  KOKKOS_FUNCTION void operator()(std::int64_t k) const {
    const RowGroup<B> group(k, shape, rows_fastest);
    const int begin = shape.begin(group.c), end = shape.end(group.c);
    if constexpr (B == 1) {
      // One row: the sequential form. (The lockstep form below with one
      // lane ran the CPU's passes up to 1.6 times slower.)
      const std::int64_t i = group.i0;
      State s = out_of_basis(transfer_basis(scan, double(x(i))), starts(level.at(i, group.c)));
      V(i, begin)          = T(scan.output(s));
      advance_through<false>(scan, double(x(i)), begin, end - 1, s,
                      [&](int n, double value) { V(i, n) = T(value); });
    } else {
      lockstep(group, begin, end);
    }
  }

  KOKKOS_FUNCTION void lockstep(const RowGroup<B>& group, int begin, int end) const {
    double xs[B];
    State s[B];
    bool every_step = false;
    for (int r = 0; r < B; ++r) {
      xs[r]      = double(x(group.row(r)));
      s[r]       = out_of_basis(transfer_basis(scan, xs[r]), starts(level.at(group.row(r), group.c)));
      every_step = every_step || scan.checks_every_step(xs[r]);
    }
    const auto is_plain = [&] {
      bool plain = true;
      for (int r = 0; r < B; ++r) plain = plain && s[r].e == 0;
      return plain;
    };
    // V(rows, n) from the states: their numbers themselves in plain blocks.
    const auto put = [&](int n, auto plain) {
      store_lanes<B, true>(V, group.i0, group.rows, n, [&](int r) {
        if constexpr (decltype(plain)::value) {
          return T(to_double(s[r].u0));
        } else {
          return T(scan.output(s[r]));
        }
      });
    };
    if (is_plain()) {
      put(begin, std::true_type{});
    } else {
      put(begin, std::false_type{});
    }
    for_steps<true, deep_lookahead<Scan>>(
        scan, begin, end - 1, every_step,
        [&](int n, const typename Scan::step_type& step, auto plain) {
          for (int r = 0; r < B; ++r) scan.advance(xs[r], step, s[r], plain);
          put(n + 1, plain);
        },
        [&] {
          for (int r = 0; r < B; ++r) keep_both_in_range(s[r]);
        },
        is_plain);
  }
};

// Pass 3 on GPUs for row-contiguous V: a team's threads each run one chunk
// (work items k = c M + i, as in pass 1), staging_terms terms at a time into
// team scratch, and after each round the team writes the tile along the
// chunks, runs of V, `lanes` threads a run. Staging a round rather than the
// whole chunk keeps the scratch (and so the team's occupancy) independent of
// the chunk length: whole chunks of 128 floats left room for only 79 threads
// a team (H200, docs/performance.md).
inline constexpr int staging_terms = 32;
template <class ExecSpace, class T, class Scan, class XView, class VView>
struct StagedChunkOutputs {
  using W           = typename Scan::number_type;
  using team_member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Scan scan;
  XView x;
  VView V;
  Kokkos::View<const Scaled<W>*, typename ExecSpace::memory_space> starts;
  Chunking shape;
  Level level;

  KOKKOS_FUNCTION void operator()(const team_member& team) const {
    constexpr int S          = staging_terms;
    constexpr int pitch      = S + 1;
    const int threads        = team.team_size();
    const std::int64_t items = shape.M * shape.C;
    const std::int64_t k0    = std::int64_t(team.league_rank()) * threads;
    T* const tile = static_cast<T*>(
        team.team_scratch(0).get_shmem(sizeof(T) * std::size_t(threads) * pitch));
    const int t       = team.team_rank();
    const bool active = k0 + t < items;
    double xi = 0;
    Scaled<W> s{};
    int begin = 0, end = 0;
    if (active) {
      const std::int64_t k  = k0 + t;
      const std::int64_t i  = k % shape.M;
      const int c           = int(k / shape.M);
      xi                    = double(x(i));
      s                     = out_of_basis(transfer_basis(scan, xi), starts(level.at(i, c)));
      begin                 = shape.begin(c);
      end                   = shape.end(c);
    }
    const int L     = shape.L;
    const int lanes = S < threads ? S : threads;
    const int step  = threads / lanes;
    // In the copy, thread t takes items t / lanes, + step, + 2 step, ...;
    // the row and chunk of its first item, worked out once (a division and
    // remainder of each item in every round made the pass issue-bound:
    // docs/performance.md), and the next items' by counting.
    const int item0         = t / lanes;
    const std::int64_t row0 = (k0 + item0) % shape.M;
    const int chunk0        = int((k0 + item0) / shape.M);
    for (int offset = 0; offset < L; offset += S) {
      // This round's terms [first, last) of the chunk.
      const int first = begin + offset;
      stage_terms(scan, xi, first, first + S < end ? first + S : end, end, s,
                  tile + std::size_t(t) * pitch);
      team.team_barrier();
      if (t < step * lanes) {
        std::int64_t i = row0;
        int c          = chunk0;
        for (int item = item0; item < threads && k0 + item < items; item += step) {
          const int first = c * L + offset;
          for (int j = t % lanes; j < S && offset + j < L && first + j < shape.N; j += lanes)
            V(i, first + j) = tile[std::size_t(item) * pitch + j];
          for (i += step; i >= shape.M; i -= shape.M) ++c;
        }
      }
      team.team_barrier();
    }
  }
};

// ScanAlongN's work memory (chunk matrices and states: 192 MiB for float
// at M = 16, N = 2^24), kept between calls: making and freeing it each call
// cost more than the scan's kernels on the H200 (docs/performance.md). A call
// takes the kept buffer (so concurrent calls never share one) or makes its
// own, carves its arrays out of it, and on leaving fences its space and keeps
// the larger of the two buffers. Released at Kokkos::finalize.
template <class ExecSpace>
class Workspace {
 public:
  using MemorySpace = typename ExecSpace::memory_space;
  using Buffer      = Kokkos::View<char*, MemorySpace>;

  Workspace(const ExecSpace& space, std::size_t bytes) : space_(space) {
    {
      std::lock_guard<std::mutex> lock(mutex());
      if (kept().extent(0) >= bytes) std::swap(buffer_, kept());
    }
    if (buffer_.extent(0) < bytes)
      buffer_ = Buffer(Kokkos::view_alloc(space, Kokkos::WithoutInitializing,
                                          "recur::scan_along_n::work"),
                       bytes);
  }
  Workspace(const Workspace&)            = delete;
  Workspace& operator=(const Workspace&) = delete;
  ~Workspace() {
    fence(space_, "recur::scan_along_n: work memory returned");
    std::lock_guard<std::mutex> lock(mutex());
    if (buffer_.extent(0) > kept().extent(0)) std::swap(buffer_, kept());
    static bool hooked = false;
    if (!hooked) {
      Kokkos::push_finalize_hook([] {
        std::lock_guard<std::mutex> release(mutex());
        kept() = Buffer();
      });
      hooked = true;
    }
  }

  // The bytes `count` Ts take, rounded up to keep the next array aligned.
  template <class T>
  static std::size_t bytes_for(std::int64_t count) {
    return (std::size_t(count) * sizeof(T) + 255) / 256 * 256;
  }
  // The next `count` Ts of the buffer.
  template <class T>
  using Array = Kokkos::View<T*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  template <class T>
  Array<T> take(std::int64_t count) {
    T* const data = reinterpret_cast<T*>(buffer_.data() + used_);
    used_ += bytes_for<T>(count);
    return Array<T>(data, std::size_t(count));
  }

 private:
  static std::mutex& mutex() {
    static std::mutex m;
    return m;
  }
  static Buffer& kept() {
    static Buffer buffer;
    return buffer;
  }
  ExecSpace space_;
  Buffer buffer_;
  std::size_t used_ = 0;
};

// ScanAlongN in one pass, for column slices on GPUs (V's rows not
// contiguous; working numbers float and double). The passes above read a
// three-term family's coefficient table twice, 24 bytes a term (0.4 GB at
// N = 2^24 in double, beside a float V of 1 GiB), a pass apart, and write
// and read the chunks' matrices and states between them. Here a team takes
// a tile, R rows x C chunks of L terms (a chunk of one row a thread, rows fastest, so
// that the R threads of a chunk read the same coefficients), and
//  1. every thread computes its chunk's transfer matrix;
//  2. the tile's matrices are composed along each row as a tree (the
//     up-sweep of a work-efficient scan: a thread composing them in turn
//     left the team idle for most of its time); a thread a row publishes
//     the row's product over the tile (its aggregate) and looks back along
//     the row's earlier tiles, the row's C threads reading C tiles'
//     publications at once, until one has published the state at its end
//     (a decoupled look-back, as in single-pass prefix scans); it publishes
//     the state at its own tile's end, and the down-sweep carries the
//     tile's start to its chunks;
//  3. every thread runs its chunk from its start, storing V (evict-first,
//     so that the tile's coefficients, read again for this step within the
//     tile's time, may still be in L2).
// Steps 1 and 3 run in rounds of `stage` steps; where the scan form loads
// coefficients, the team copies each round's coefficients of its C chunks
// into scratch two rounds ahead (asynchronously on NVIDIA GPUs: cp.async,
// no registers held), and the steps read them there: read straight from
// memory, a few loads ahead, each step waited out its load (H100, float
// He_n/sqrt(n!): 1.49 ms against the passes' 1.15). Tiles are numbered in
// the order teams claim them (an atomic counter, segment-major), and a tile
// waits only on tiles claimed before it, whose teams are running, so the
// pass cannot deadlock. The grid is a few teams a multiprocessor, each
// claiming tiles until none are left, so that the first tiles, which all
// look back at once, are few. Rows contiguous in memory (whose stores the
// passes stage through scratch) and double-double ran slower this way
// (docs/performance.md, "H100, 2026-12-06: ScanAlongN in one pass").
// Values differ from the passes' by rounding only (products grouped
// otherwise).
template <class X>
KOKKOS_FORCEINLINE_FUNCTION X read_published(const X* p) {
  static_assert(sizeof(X) % sizeof(int) == 0, "recur: published values are whole words");
  // Volatile loads: from L2, never a stale L1 line.
  int words[sizeof(X) / sizeof(int)];
  const volatile int* from = reinterpret_cast<const volatile int*>(p);
  for (std::size_t w = 0; w < sizeof(X) / sizeof(int); ++w) words[w] = from[w];
  X value;
  __builtin_memcpy(&value, words, sizeof value);
  return value;
}
KOKKOS_FORCEINLINE_FUNCTION int read_flag(const int* p) {
  return *reinterpret_cast<const volatile int*>(p);
}
// The data before the flag: a fence, then the flag.
KOKKOS_FORCEINLINE_FUNCTION void publish_flag(int* p, int status) {
  Kokkos::memory_fence();
  *reinterpret_cast<volatile int*>(p) = status;
}

// *to = *from, a word from memory into team scratch; on NVIDIA GPUs (sm_80
// on) asynchronously (cp.async), in groups: copies_issued() closes a group,
// copies_landed_but_two() waits for all but the last two.
KOKKOS_FORCEINLINE_FUNCTION void copy_word_async(int* to, const int* from) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  __pipeline_memcpy_async(to, from, sizeof(int));
#else
  *to = *from;
#endif
}
KOKKOS_FORCEINLINE_FUNCTION void copies_issued() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  __pipeline_commit();
#endif
}
KOKKOS_FORCEINLINE_FUNCTION void copies_landed_but_two() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  __pipeline_wait_prior(2);
#endif
}

// Whether ChainedChunks can stage row slices' terms (warp primitives).
template <class ExecSpace>
inline constexpr bool warp_staged_rows = false;
#ifdef KOKKOS_ENABLE_CUDA
template <>
inline constexpr bool warp_staged_rows<Kokkos::Cuda> = true;
#endif

// Rows: V's rows are contiguous (LayoutRight) and step 3 stages each warp's
// terms a round at a time in scratch, to store them as 16-byte units of
// its chunks' runs (NVIDIA GPUs; warp_staged_rows).
template <class ExecSpace, class T, class Scan, class XView, class VView, bool Rows = false>
struct ChainedChunks {
  using W           = typename Scan::number_type;
  using State       = Scaled<W>;
  using MemorySpace = typename ExecSpace::memory_space;
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  enum : int { aggregate = 1, end_state = 2 };
  Scan scan;
  XView x;
  VView V;
  Chunking shape;  // M, N, L and the chunks of a row
  int R, C;        // rows and chunks a tile (the team: R C threads)
  int blocks;      // row blocks: tile k is segment k / blocks of block k % blocks
  std::int64_t tiles;
  // (segment s, row i) at s M + i; counter(0): the next tile.
  Kokkos::View<int*, MemorySpace> counter, flags;
  Kokkos::View<Transfer<W>*, MemorySpace> aggregates;
  Kokkos::View<State*, MemorySpace> ends;

  using Step = typename Scan::step_type;
  static constexpr bool loads      = !std::is_empty_v<Step>;
  static constexpr int stage       = 16;  // steps a round
  static constexpr int step_words  = loads ? int(sizeof(Step) / sizeof(int)) : 0;
  static constexpr int round_words = stage * step_words;
  static constexpr int buffers     = 3;
  // A chunk's copy of a round, in ints: on NVIDIA GPUs the 16-byte units of
  // the table that hold the round's words (copy_units, the round starting
  // `skew` words into the first), elsewhere the words alone; chunk c + 1's
  // copy four banks past chunk c's (the two chunks a warp reads at once).
  static constexpr int copy_units = (round_words + 3 + 3) / 4;
  static constexpr int copy_pitch = loads ? 4 * copy_units + 4 : 0;
  // A round starts `skew` words into its 16-byte aligned copy (in_rounds):
  // aligned for its steps where they need at most 8 bytes (a step of
  // doubles has an even number of words, so an even skew).
  static_assert(alignof(Step) <= 8, "recur: ScanAlongN's one pass copies steps aligned to at most 8 bytes");
  // A scan form that reads steps [first, first + stage) from a copy.
  struct RoundScan : Scan {
    const Step* steps = nullptr;
    int first         = 0;
    KOKKOS_FUNCTION explicit RoundScan(const Scan& scan) : Scan(scan) {}
    KOKKOS_FORCEINLINE_FUNCTION Step load(int n) const { return steps[n - first]; }
  };

  // Whether the one pass takes this call: a table it copies is 16-byte
  // aligned (recur's tables are: Kokkos allocations) and its words, with a
  // tile's chunks past the row's end, fewer than 2^31 (in_rounds).
  // With Rows, V's rows start on 16 bytes and chunks of L terms keep them
  // there.
  static bool takes(const Scan& scan, const VView& V, int L) {
    const int N = int(V.extent(1));
    if constexpr (Rows) {
      if (V.stride_1() != 1 || reinterpret_cast<std::uintptr_t>(V.data()) % 16 != 0 ||
          (std::size_t(V.stride_0()) * sizeof(T)) % 16 != 0 || L % Pack<T>::size != 0)
        return false;
    }
    if constexpr (loads) {
      return reinterpret_cast<std::uintptr_t>(scan.coefficients.data()) % 16 == 0 &&
             (std::int64_t(N) + 64 * std::int64_t(L)) * step_words < (std::int64_t(1) << 31);
    } else {
      (void)scan;
      return true;
    }
  }
  // With Rows, step 3's staged terms (a round of every thread's chunk) lie
  // over the chunks' starts and matrices, done with by then.
  KOKKOS_FUNCTION static std::size_t matrix_bytes(int threads) {
    const std::size_t matrices = sizeof(Transfer<W>) * threads;
    if constexpr (Rows) {
      const std::size_t states = sizeof(State) * threads;
      const std::size_t staged = sizeof(T) * stage * threads;
      return staged > states + matrices ? staged - states : matrices;
    } else {
      return matrices;
    }
  }

  // Team scratch: the claimed tile, the rows' next tiles to read, the
  // look-back's statuses, the chunks' starts (also the look-back's end
  // states: the starts are made after it), the chunks' matrices, and the
  // coefficients' copies (steps 1 and 3) or the look-back's matrices (2).
  static std::size_t scratch_bytes(int threads, int rows) {
    constexpr std::size_t pad  = 16;
    const std::size_t matrices = sizeof(Transfer<W>) * threads;
    const std::size_t copies   = sizeof(int) * copy_pitch * (threads / rows) * buffers;
    return (sizeof(int) + pad) + (sizeof(int) * rows + pad) + (sizeof(int) * threads + pad) +
           (sizeof(State) * threads + pad) + (matrix_bytes(threads) + pad) +
           (matrices > copies ? matrices : copies) + pad;
  }

  KOKKOS_FUNCTION void operator()(const member_type& team) const {
    const int threads = team.team_size(), t = team.team_rank();
    auto& scratch     = team.team_scratch(0);
    const auto take   = [&](auto* type, std::size_t count) {
      using Y = std::remove_pointer_t<decltype(type)>;
      return static_cast<Y*>(scratch.get_shmem_aligned(sizeof(Y) * count, 16));
    };
    const std::size_t matrices = sizeof(Transfer<W>) * std::size_t(threads);
    const std::size_t copied   = sizeof(int) * std::size_t(copy_pitch) * C * buffers;
    Scratch at;
    at.claimed = take((int*)nullptr, 1);
    at.next    = take((int*)nullptr, R);
    at.status  = take((int*)nullptr, threads);
    at.starts  = take((State*)nullptr, threads);
    at.mats    = reinterpret_cast<Transfer<W>*>(take((char*)nullptr, matrix_bytes(threads)));
    at.copies  = reinterpret_cast<int*>(take((char*)nullptr, matrices > copied ? matrices : copied));
    for (;;) {
      if (t == 0) *at.claimed = Kokkos::atomic_fetch_add(&counter(0), 1);
      team.team_barrier();
      const std::int64_t k = *at.claimed;
      team.team_barrier();  // (claimed is written again next round)
      if (k >= tiles) return;
      run_tile(team, int(k / blocks), int(k % blocks), at);
    }
  }

  struct Scratch {
    int* claimed;
    int* next;    // a row's next tile to read; -1 once found
    int* status;  // the look-back's: 0, aggregate or end_state
    State* starts;
    Transfer<W>* mats;
    int* copies;
    KOKKOS_FUNCTION State* seen_ends() const { return starts; }
    KOKKOS_FUNCTION Transfer<W>* seen() const { return reinterpret_cast<Transfer<W>*>(copies); }
  };

  // body(scan form, offset) for offset = 0, stage, ... < L; every thread of
  // the team. The scan form reads steps [begin + offset, begin + offset +
  // stage) of the thread's chunk (c, its first step begin) from the team's
  // copy.
  template <class Body>
  KOKKOS_FUNCTION void in_rounds(const member_type& team, int segment, int begin, int c,
                                 int* copies, const Body& body) const {
    const int threads = team.team_size(), t = team.team_rank();
    const int* table  = reinterpret_cast<const int*>(scan.coefficients.data());
    const int steps   = shape.N - 1;  // the table's length
    const int rounds  = (shape.L + stage - 1) / stage;
    // The word of the table at which chunk cc's round q starts, and where
    // in its copy (the table is 16-byte aligned and has fewer than 2^31
    // words: scan_along_n).
    const auto first_word = [&](int cc, int q) {
      return ((segment * C + cc) * shape.L + q * stage) * step_words;
    };
    const auto skew = [&](int first) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
      return int(first % 4);
#else
      (void)first;
      return 0;
#endif
    };
    const auto issue = [&](int q) {
      if (q < rounds) {
        int* const copy = copies + (q % buffers) * C * copy_pitch;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
        // 16-byte units of the table, zeros past its end: a few copies a
        // thread a round, where a word at a time took a division, tests
        // and a copy each (ncu: the kernel was bound by issuing
        // instructions; docs/performance.md).
        const int table_words = steps * step_words;
        for (int u = t; u < C * copy_units; u += threads) {
          const int cc      = u / copy_units, k = u % copy_units;
          const int first   = first_word(cc, q);
          const int from    = first - skew(first) + 4 * k;
          const int present = table_words - from;
          int* const to     = copy + cc * copy_pitch + 4 * k;
          if (present >= 4) {
            __pipeline_memcpy_async(to, table + from, 16);
          } else if (present > 0) {  // the table's last words, zeros after them
            __pipeline_memcpy_async(to, table + from, 16, 16 - sizeof(int) * present);
          } else {
            to[0] = to[1] = to[2] = to[3] = 0;
          }
        }
#else
        // Word w is word w % step_words of step (w % round_words) /
        // step_words of chunk w / round_words.
        for (int w = t; w < C * round_words; w += threads) {
          const int cc = w / round_words, within = w % round_words;
          const int g = segment * C + cc, j = q * stage + within / step_words;
          const int n   = g * shape.L + j;
          int* const to = copy + cc * copy_pitch + within;
          if (g < shape.C && j < shape.L && n < steps) {
            copy_word_async(to, table + std::int64_t(n) * step_words + within % step_words);
          } else {
            *to = 0;
          }
        }
#endif
      }
      copies_issued();  // (a group each round, empty or not)
    };
    issue(0);
    issue(1);
    RoundScan stepper(scan);
    for (int q = 0; q < rounds; ++q) {
      issue(q + 2);
      copies_landed_but_two();  // round q's
      team.team_barrier();
      stepper.steps = reinterpret_cast<const Step*>(copies + (q % buffers) * C * copy_pitch +
                                                    c * copy_pitch + skew(first_word(c, q)));
      stepper.first = begin + q * stage;
      body(stepper, q * stage);
      team.team_barrier();  // (copy q % buffers is issued into next)
    }
  }

  KOKKOS_FUNCTION void run_tile(const member_type& team, int segment, int block,
                                const Scratch& at) const {
    const int t = team.team_rank(), r = t % R, c = t / R;
    const std::int64_t M     = shape.M;
    const std::int64_t i     = std::int64_t(block) * R + r;
    const bool row           = i < M;
    const std::int64_t row_i = row ? i : M - 1;
    const int chunk          = segment * C + c;  // in the row
    const int begin          = chunk < shape.C ? shape.begin(chunk) : shape.N;
    const int end            = chunk < shape.C ? shape.end(chunk) : shape.N;
    const double xi          = double(x(row_i));
    const Basis basis        = transfer_basis(scan, xi);
    Transfer<W>* const mats  = at.mats;
    // 1. The chunk's transfer matrix (steps [begin, min(end, N - 1))).
    const int last_step = end < shape.N - 1 ? end : shape.N - 1;
    if constexpr (!loads) {
      const double xs[1] = {xi};
      Transfer<W> m[1];
      chunk_transfers(scan, xs, begin, last_step, m);
      mats[t] = m[0];
    } else {
      // As chunk_transfers, a round at a time (the rounds start on its
      // blocks of check_period steps: the same values).
      const double xs[1] = {xi};
      const Basis bases[1] = {basis};
      Transfer<W> m[1]   = {{{constant<W>(1), constant<W>(0), 0}, {constant<W>(0), constant<W>(1), 0}}};
      in_rounds(team, segment, begin, c, at.copies, [&](const auto& stepper, int offset) {
        int lo = begin + offset, hi = lo + stage < last_step ? lo + stage : last_step;
        // A round's bounds hidden from the compiler (opaque, scan_form.hpp):
        // knowing hi - lo <= stage, nvcc 13.0 (sm_90) made for_steps' tail
        // loop run past hi, with the copy's zero coefficients, wherever a
        // chunk's length is not a multiple of check_period (H100,
        // 2026-12-06: a `#pragma unroll 1` on that loop, or this, gave the
        // right values; docs/performance.md).
        opaque(lo);
        opaque(hi);
        if (row && lo < hi) carry_transfers<0>(stepper, xs, bases, lo, hi, m);
      });
      mats[t] = m[0];
    }
    team.team_barrier();
    // 2. The up-sweep: mats[c] becomes the product over chunks (c + 1 - 2d,
    // c] for the largest power of two d dividing c + 1.
    for (int d = 1; d < C; d *= 2) {
      if (row && (c + 1) % (2 * d) == 0) mats[t] = compose(mats[t], mats[t - d * R]);
      team.team_barrier();
    }
    const std::int64_t here = std::int64_t(segment) * M + i;
    Transfer<W> product{}, behind{};  // (row threads) the tile's; the tiles' read so far
    bool have_behind = false;
    State start{};
    if (t < R) {
      at.next[r] = -1;
      if (row) {
        product = mats[(C - 1) * R + r];
        if (segment == 0) {
          scan.start(xi, start);
          start = into_basis(basis, start);
          finish_row(here, product, start);
        } else {
          aggregates(here) = product;
          publish_flag(&flags(here), aggregate);
          at.next[r] = segment - 1;
        }
      }
    }
    team.team_barrier();
    // The look-back: the row's C threads read tiles next, next - 1, ...,
    // next - C + 1; its row thread then carries what they found.
    State* const seen_ends  = at.seen_ends();
    Transfer<W>* const seen = at.seen();
    for (;;) {
      const int j     = at.next[r] - c;
      int seen_status = 0;
      if (row && at.next[r] >= 0 && j >= 0) {
        const std::int64_t there = std::int64_t(j) * M + i;
        seen_status              = read_flag(&flags(there));
        if (seen_status != 0) {
          Kokkos::memory_fence();
          if (seen_status == end_state) {
            seen_ends[t] = read_published(&ends(there));
          } else {
            seen[t] = read_published(&aggregates(there));
          }
        }
      }
      at.status[t] = seen_status;
      team.team_barrier();
      if (t < R && at.next[r] >= 0) {
        int n = 0;
        while (n < C && at.status[n * R + r] == aggregate) ++n;
        if (n < C && at.status[n * R + r] == end_state) {
          // The state at tile next - n's end, carried across the n tiles
          // after it and those read before: the state at this tile's start.
          State s = seen_ends[n * R + r];
          for (int q = n - 1; q >= 0; --q) s = apply(seen[q * R + r], s);
          start = have_behind ? apply(behind, s) : s;
          finish_row(here, product, start);
          at.next[r] = -1;
        } else {
          for (int q = 0; q < n; ++q) {
            behind      = have_behind ? compose(behind, seen[q * R + r]) : seen[q * R + r];
            have_behind = true;
          }
          at.next[r] -= n;
        }
      }
      team.team_barrier();
      // (The next round writes status only after every thread read next
      // here, and next only after its first barrier.)
      bool pending = false;
      for (int q = 0; q < R; ++q) pending = pending || at.next[q] >= 0;
      if (!pending) break;
    }
    // The down-sweep: a node's start at its last chunk (the root's: the
    // tile's start); its left half's start is the node's, its right half's
    // that carried across the left half.
    State* const starts = at.starts;
    if (t < R && row) starts[(C - 1) * R + r] = start;
    team.team_barrier();
    for (int d = C / 2; d >= 1; d /= 2) {
      if (row && (c + 1) % (2 * d) == 0) {
        const State node  = starts[t];
        starts[t - d * R] = node;
        starts[t]         = apply(mats[t - d * R], node);
      }
      team.team_barrier();
    }
    // 3. The chunk's terms, from the start in (p_n, p_{n-1}).
    State s = out_of_basis(basis, starts[t]);
    const auto put = [&](int n, double value) { store_result(V, i, n, T(value)); };
    if constexpr (Rows) {
      staged_terms(team, segment, block, begin, end, row, xi, c, s, at);
    } else if constexpr (!loads) {
      if (row && begin < end) store_result(V, i, begin, T(scan.output(s)));
      if (row && begin < end) advance_through<false>(scan, xi, begin, end - 1, s, put);
    } else {
      if (row && begin < end) store_result(V, i, begin, T(scan.output(s)));
      in_rounds(team, segment, begin, c, at.copies, [&](const auto& stepper, int offset) {
        int lo = begin + offset, hi = lo + stage < end - 1 ? lo + stage : end - 1;
        opaque(lo);  // (as in step 1)
        opaque(hi);
        if (row && lo < hi) advance_through<false>(stepper, xi, lo, hi, s, put);
      });
    }
  }

  // Step 3 for row-contiguous V: each round's terms [offset, offset + stage)
  // of the warp's 32 chunks go through scratch, term k of lane j's chunk at
  // k 32 + (j ^ 8 ((k / P) % 4)) (P terms a 16-byte unit: a term's 32
  // lanes, and a unit's word m across the 8 chunks a store reads, each on
  // 32 banks), then out as 16-byte units of each chunk's run, P lanes a
  // chunk. A round's last step makes the next round's first term (carry).
  KOKKOS_FUNCTION void staged_terms(const member_type& team, int segment, int block, int begin,
                                    int end, bool row, double xi, int c, State& s,
                                    const Scratch& at) const {
    static_assert(loads, "recur: staged rows are for scan forms that load coefficients");
#if defined(__CUDA_ARCH__)
    constexpr int P = Pack<T>::size, U = stage / P;  // a chunk's units a round
    const int t = team.team_rank(), lane = t % 32;
    T* const slots  = reinterpret_cast<T*>(at.starts) + (t - lane) * stage;
    const auto slot = [&](int k, int j) -> T& { return slots[k * 32 + (j ^ (8 * ((k / P) % 4)))]; };
    T carry{};
    const auto round = [&](const auto& stepper, int offset) {
      int lo = begin + offset, hi = lo + stage < end - 1 ? lo + stage : end - 1;
      opaque(lo);  // (as in step 1)
      opaque(hi);
      if (offset == 0 && row && begin < end) slot(0, lane) = T(scan.output(s));
      if (row && lo < hi)
        advance_through<false>(stepper, xi, lo, hi, s, [&](int n, double value) {
          const int k = n - lo;  // (term n)
          if (k < stage) {
            slot(k, lane) = T(value);
          } else {
            carry = T(value);
          }
        });
      __syncwarp();
      for (int p = 0; p < U; ++p) {
        const int j = lane / U + p * (32 / U), u = lane % U;
        const int tj = t - lane + j, rj = tj % R, cj = tj / R;
        const std::int64_t ij    = std::int64_t(block) * R + rj;
        const std::int64_t chunk = std::int64_t(segment) * C + cj;
        const std::int64_t first = chunk * shape.L + offset + u * P;
        const std::int64_t last  = chunk * shape.L + shape.L < shape.N ? chunk * shape.L + shape.L
                                                                        : std::int64_t(shape.N);
        const std::int64_t valid = ij < shape.M ? last - first : 0;
        if (valid >= P) {
          Pack<T> unit;
          for (int m = 0; m < P; ++m) unit.v[m] = slot(u * P + m, j);
          store_result(reinterpret_cast<Pack<T>*>(&V(ij, first)), unit);
        } else {
          for (int m = 0; m < valid; ++m) store_result(V, ij, first + m, slot(u * P + m, j));
        }
      }
      __syncwarp();
      slot(0, lane) = carry;
    };
    in_rounds(team, segment, begin, c, at.copies, round);
#else
    (void)team, (void)segment, (void)block, (void)begin, (void)end, (void)row, (void)xi,
        (void)c, (void)s, (void)at;
#endif
  }

  // A row's tile done: the state at its end published.
  KOKKOS_FUNCTION void finish_row(std::int64_t here, const Transfer<W>& product,
                                  const State& start) const {
    ends(here) = apply(product, start);
    publish_flag(&flags(here), end_state);
  }
};

// rows, chunks: a tile's shape (chunks a power of two; tests run CPUs'
// teams of two threads with them), 0 for the backend's.
template <bool Rows = false, class ExecSpace, class XView, class VView, class Scan>
bool chained_scan_along_n(const ExecSpace& space, const std::string& label, const XView& x,
                          const VView& V, const Scan& scan, int L, int rows = 0,
                          int chunks = 0) {
  using T           = typename VView::value_type;
  using W           = typename Scan::number_type;
  using Functor     = ChainedChunks<ExecSpace, T, Scan, XView, VView, Rows>;
  using Policy      = Kokkos::TeamPolicy<ExecSpace>;
  constexpr bool host =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
  const std::int64_t M = std::int64_t(V.extent(0));
  const int N          = int(V.extent(1));
  const Chunking shape{M, N, L, (N + L - 1) / L};
  // Rows a tile: up to 16 (a power of two); chunks a tile: 256 threads'
  // worth, at most 32, fewer where the team's scratch would not fit. On
  // CPUs a tile is one chunk of one row (a team is one thread).
  int R = 1, C = 1;
  if constexpr (!host) {
    while (R < 16 && R < M) R *= 2;
    C = std::min(32, 256 / R);
    const std::size_t most = Policy::scratch_size_max(0);
    while (C > 1 && Functor::scratch_bytes(R * C, R) > most) C /= 2;
  }
  if (rows > 0 && chunks > 0) {
    if ((chunks & (chunks - 1)) != 0)
      throw std::invalid_argument(label + ": a tile's chunks must be a power of two");
    R = rows;
    C = chunks;
  }
  // Staged rows go through whole warps (ChainedChunks::staged_terms).
  if (Rows && (R * C) % 32 != 0) return false;
  const int blocks         = int((M + R - 1) / R);
  const int segments       = (shape.C + C - 1) / C;
  const std::int64_t tiles = std::int64_t(blocks) * segments;
  const int threads        = R * C;

  using Work                 = Workspace<ExecSpace>;
  const std::int64_t entries = M * segments;
  Work work(space, Work::template bytes_for<int>(1) + Work::template bytes_for<int>(entries) +
                       Work::template bytes_for<Transfer<W>>(entries) +
                       Work::template bytes_for<Scaled<W>>(entries));
  const auto counter    = work.template take<int>(1);
  const auto flags      = work.template take<int>(entries);
  const auto aggregates = work.template take<Transfer<W>>(entries);
  const auto ends       = work.template take<Scaled<W>>(entries);
  Kokkos::deep_copy(space, counter, 0);
  Kokkos::deep_copy(space, flags, 0);
  const Functor functor{scan, x, V, shape, R, C, blocks, tiles, counter, flags, aggregates, ends};
  // Teams of 1024 threads' worth a multiprocessor (2048 threads each on
  // NVIDIA GPUs: four teams of 256, of which registers (72-96 a thread for
  // sm_90) leave two or three resident; four were faster than two on an
  // H100), at most a tile each; on CPUs as many threads.
  const std::int64_t slots =
      host ? std::max<std::int64_t>(1, space.concurrency() / threads)
           : std::max<std::int64_t>(1, space.concurrency() / 2048) * std::max(1, 1024 / threads);
  const int teams = int(std::min<std::int64_t>(slots, tiles));
  Kokkos::parallel_for(
      label,
      Policy(space, teams, threads)
          .set_scratch_size(0, Kokkos::PerTeam(Functor::scratch_bytes(threads, R))),
      functor);
  return true;
}

// ScanAlongN{0}'s chunk length for an M x N V. CPUs: 1024 (a thread
// writes long chunks directly). GPUs: a base, 1024 for row slices
// (`rows`: V's rows contiguous) and for column slices of power sums (a
// scan form that loads nothing) where M <= 16, 512 for the other column
// slices; then halved, down to 128, until the call has a chunk for every
// eighth of the threads the GPU holds at once (`threads`, the space's
// concurrency), for power sums' column slices every 32nd. From a sweep of
// 128 to 2048 terms on an H100 at M = 16 and 64, N = 2^12 to 2^24, float,
// run twice (docs/performance.md, "H100, 2026-12-07, evening: ScanAlongN's
// chunk length by shape"): 512 everywhere took up to 2.5 times the best
// length's time where M x N is small; this rule is within 10 % of the best
// in every cell but one (1.101), the old default in 30 of 84. Never more
// than N.
inline int default_chunk(bool host, bool rows, bool loads, std::int64_t M, int N, std::int64_t threads) {
  int L = 1024;
  if (!host) {
    const bool sums_columns   = !rows && !loads;
    const int base            = rows || (sums_columns && M <= 16) ? 1024 : 512;
    const std::int64_t chunks = std::max<std::int64_t>(1, threads / (sums_columns ? 32 : 8));
    L = 128;
    while (L < base && std::int64_t(2 * L) * chunks <= M * std::int64_t(N)) L *= 2;
  }
  return std::min(L, N);
}

template <class ExecSpace, class XView, class VView, class Scan>
void scan_along_n(const ExecSpace& space, const std::string& label, const XView& x,
                  const VView& V, const Scan& scan, int chunk) {
  using T           = typename VView::value_type;
  using W           = typename Scan::number_type;
  using MemorySpace = typename ExecSpace::memory_space;
  using Range       = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  constexpr bool host =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemorySpace>::accessible;
  const std::int64_t M = std::int64_t(V.extent(0));
  const int N          = int(V.extent(1));
  if (chunk < 0)
    throw std::invalid_argument(label + ": ScanAlongN{chunk = " + std::to_string(chunk) +
                                "} is invalid; the chunk must be positive, or 0 for the default");
  constexpr bool loads = !std::is_empty_v<typename Scan::step_type>;
  const bool staged    = !host && V.stride_1() == 1;
  const int L          = chunk > 0 ? std::min(chunk, N)
                                   : default_chunk(host, staged, loads, M, N,
                                                   std::int64_t(space.concurrency()));
  // Column slices on GPUs in one pass (not double-double); on NVIDIA GPUs
  // also row slices of scan forms that load coefficients, in tiles of whole
  // warps (power sums' rows ran slower so: docs/performance.md, "H100,
  // 2026-12-07, later").
  if constexpr (!host && !std::is_same_v<W, DoubleDouble>) {
    if (!staged && ChainedChunks<ExecSpace, T, Scan, XView, VView>::takes(scan, V, L)) {
      chained_scan_along_n(space, label, x, V, scan, L);
      return;
    }
    if constexpr (loads && warp_staged_rows<ExecSpace> &&
                  !std::is_same_v<typename VView::array_layout, Kokkos::LayoutLeft>) {
      if (staged &&
          ChainedChunks<ExecSpace, T, Scan, XView, VView, true>::takes(scan, V, L) &&
          chained_scan_along_n<true>(space, label, x, V, scan, L))
        return;
    }
  }
  const Chunking shape{M, N, L, (N + L - 1) / L};
  const std::int64_t items = M * shape.C;
  // Rows a work item of passes 1 and 3 (column slices) carries (RowGroup):
  // on GPUs a Pack's worth, for scan forms that load coefficients (power
  // sums have none to share, and ran 1-4 % slower in groups).
  constexpr int B = host || !loads ? 1 : Pack<T>::size;
  const std::int64_t group_items = (M + B - 1) / B * shape.C;

  // The scan's levels: chunk counts per row, 32-fold fewer each level.
  std::vector<Level> shapes{{shape.C, 1, shape.C}};
  while (shapes.back().n > scan_block) {
    const int blocks   = (shapes.back().n + scan_block - 1) / scan_block;
    shapes.back().up   = blocks;
    shapes.back().row  = std::int64_t(blocks) * scan_block;
    shapes.push_back({blocks, 1, blocks});
  }
  const std::size_t top = shapes.size() - 1;
  using Work = Workspace<ExecSpace>;
  std::size_t bytes = 0;
  for (const Level& level : shapes)
    bytes += Work::template bytes_for<Transfer<W>>(M * level.row) +
             Work::template bytes_for<Scaled<W>>(M * level.row);
  Work work(space, bytes);
  using Transfers = typename Work::template Array<Transfer<W>>;
  using States    = typename Work::template Array<Scaled<W>>;
  std::vector<Transfers> levels;
  std::vector<States> level_starts;  // starting states of each level's chunks
  for (const Level& level : shapes) {
    levels.push_back(work.template take<Transfer<W>>(M * level.row));
    level_starts.push_back(work.template take<Scaled<W>>(M * level.row));
  }
  const States starts = level_starts[0];

  Kokkos::parallel_for(
      label + " transfers", Range(space, 0, group_items),
      ChunkTransfers<B, T, Scan, XView, MemorySpace>{scan, x, levels[0], shape, shapes[0]});
  // One thread a block on CPUs, and on GPUs for many blocks; a team of
  // scan_block threads a block on GPUs for up to 4096 blocks. A team composes
  // on one thread, and at most 32 teams are resident on a multiprocessor:
  // beyond 4096 blocks (32 for each of the H200's 132 multiprocessors) teams
  // compose no more blocks at once than threads do (H200, 65 536 blocks:
  // 136 us in teams, 28 us in threads; 2048 blocks: 10 us against 22 us).
  const auto blocks = [&](const std::string& name, std::int64_t count, const auto& functor) {
    if (count > 4096 || host) {
      Kokkos::parallel_for(label + name, Range(space, 0, count), functor);
    } else if constexpr (!host) {
      const std::size_t scratch = sizeof(Transfer<W>) * scan_block + sizeof(Scaled<W>) * scan_block;
      Kokkos::parallel_for(label + name,
                           Kokkos::TeamPolicy<ExecSpace, InTeams>(space, int(count), scan_block)
                               .set_scratch_size(0, Kokkos::PerTeam(scratch)),
                           functor);
    }
  };
  for (std::size_t l = 1; l <= top; ++l)
    blocks(" blocks", M * shapes[l].n,
           BlockProducts<ExecSpace, W>{levels[l - 1], levels[l], shapes[l - 1], shapes[l]});
  Kokkos::parallel_for(label + " starts", Range(space, 0, M),
                       TopStarts<T, Scan, XView, MemorySpace>{scan, x, levels[top],
                                                              level_starts[top], shapes[top]});
  for (std::size_t l = top; l-- > 0;)
    blocks(" starts", M * shapes[l + 1].n,
           BlockStarts<ExecSpace, W>{levels[l], level_starts[l + 1], level_starts[l], shapes[l],
                                     shapes[l + 1]});
  if (!staged) {
    Kokkos::parallel_for(label, Range(space, 0, group_items),
                         ChunkOutputs<B, T, Scan, XView, VView, MemorySpace>{
                             scan, x, V, starts, shape, shapes[0], !host});
  } else if constexpr (!host) {
    using Policy  = Kokkos::TeamPolicy<ExecSpace>;
    using Functor = StagedChunkOutputs<ExecSpace, T, Scan, XView, VView>;
    const Functor functor{scan, x, V, starts, shape, shapes[0]};
    const std::size_t chunk_bytes = sizeof(T) * std::size_t(staging_terms + 1);
    const int team_max = Policy(space, 1, Kokkos::AUTO)
                             .set_scratch_size(0, Kokkos::PerTeam(chunk_bytes))
                             .team_size_max(functor, Kokkos::ParallelForTag());
    const int fit  = int(std::size_t(Policy::scratch_size_max(0)) / chunk_bytes);
    const int team = std::min({128, team_max, fit});
    Kokkos::parallel_for(label,
                         Policy(space, int((items + team - 1) / team), team)
                             .set_scratch_size(0, Kokkos::PerTeam(chunk_bytes * team)),
                         functor);
  }
}

}  // namespace recur::impl

#endif
