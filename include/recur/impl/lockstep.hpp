#ifndef RECUR_IMPL_LOCKSTEP_HPP
#define RECUR_IMPL_LOCKSTEP_HPP

#include <recur/impl/cpu_lanes.hpp>
#include <recur/impl/stores.hpp>
#include <recur/impl/thread_per_x.hpp>
#include <recur/impl/three_term.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

namespace recur::impl {

// V(i0 + r, n) = value(r) for the r < rows of a block of B lanes. Packed
// (GPUs): a full block goes out in Pack stores where V's columns are
// contiguous and the block aligned. Loops to the constant B keep the block
// in registers.
template <int B, bool Packed, class VView, class Value>
KOKKOS_FORCEINLINE_FUNCTION void store_lanes(const VView& V, std::int64_t i0, int rows, int n,
                                             const Value& value) {
  using T = typename VView::value_type;
  if (rows < B) {
    for (int r = 0; r < B; ++r)
      if (r < rows) store_result(V, i0 + r, n, value(r));
    return;
  }
  if constexpr (Packed) {
    constexpr int G = Pack<T>::size;
    if constexpr (B % G == 0) {
      T* const p = &V(i0, n);
      if (V.stride_0() == 1 && reinterpret_cast<std::uintptr_t>(p) % sizeof(Pack<T>) == 0) {
        for (int g = 0; g < B; g += G) {
          Pack<T> pack;
          for (int j = 0; j < G; ++j) pack.v[j] = value(g + j);
          store_result(reinterpret_cast<Pack<T>*>(p + g), pack);
        }
        return;
      }
    }
  }
  for (int r = 0; r < B; ++r) store_result(V, i0 + r, n, value(r));
}

// ThreadPerX for recurrences with a scan form (scan_along_n.hpp): each work
// item carries a block of B consecutive x through the recurrence in lockstep,
// one coefficient load serving the block.
//  - On CPUs (B = 8; 16 or 32 for three-term rows without prefactor and power
//    sums, which run in explicit SIMD vectors where the CPU has them:
//    cpu_lanes.hpp): one recurrence is a chain of dependent multiply-adds,
//    so a thread running one x at a time waits on their latency; B
//    independent chains fill the pipeline (and SIMD lanes), and for
//    LayoutLeft the block writes one contiguous run per n instead of N
//    scattered cache lines per x.
//  - On GPUs, for V whose columns are contiguous (LayoutLeft; B = 16 bytes
//    of T): the block's values of each n go out as one 16-byte store, four
//    times the bytes per store instruction of one x per thread (H200, float,
//    M = 2^24, N = 32: 81-82 % of the fill against 75 %, before the scaled
//    states cost three-term families half of it; docs/performance.md).
// The arithmetic is that of one x at a time, so the values are the same, bit
// for bit.
// Packed (GPUs): V's columns are contiguous, and V(i0 .. i0 + B - 1, n) goes
// out in Pack stores where aligned (store_lanes).
template <int B, bool Packed, class T, class Scan, class XView, class VView>
struct LockstepRows {
  using State = typename Scan::state_type;
  using W     = typename Scan::number_type;
  Scan scan;
  XView x;
  VView V;
  bool stream = false;  // CPUs: non-temporal stores (cpu_lanes.hpp)
  std::int64_t blocks_per_item = 1;  // (operator() below)
  // GPUs: the rows before column 0's first warp-run boundary (stores.hpp,
  // aligned_run_offset), whose blocks come last (operator() below)
  std::int64_t head = 0;
  // CPUs: where the lanes' steps keep step()'s rule for f = 0 (cpu_lanes::step_rules)
  StepRules rules;

  // The lanes' states are kept component by component (arrays of u0, u1 and
  // e: as separate arrays the CPU's compiler keeps them in registers and
  // vectorizes the lanes; an array of states, or a struct of the arrays, it
  // did not: 2.5 times slower for power sums).
  using Numbers = W[B];
  using Exponents = int[B];

  // The value of lane r: the state's own number while no lane of the block
  // carries an exponent (a plain conversion), else through output().
  template <bool Scaled>
  KOKKOS_FORCEINLINE_FUNCTION static T value(const Scan& scan, const Numbers& u0,
                                             const Numbers& u1, const Exponents& e, int r) {
    if constexpr (Scaled) {
      return T(scan.output(State{u0[r], u1[r], e[r]}));
    } else {
      return T(to_double(u0[r]));
    }
  }

  template <bool Scaled>
  KOKKOS_FORCEINLINE_FUNCTION void store(std::int64_t i0, int rows, int n, const Numbers& u0,
                                         const Numbers& u1, const Exponents& e) const {
    store_lanes<B, Packed>(V, i0, rows, n,
                           [&](int r) { return value<Scaled>(scan, u0, u1, e, r); });
  }
  template <class Tag>
  KOKKOS_FORCEINLINE_FUNCTION static void advance(const Scan& scan, const double (&xs)[B],
                                                  const typename Scan::step_type& k,
                                                  Numbers& u0, Numbers& u1, Tag block) {
    for (int r = 0; r < B; ++r) {
      State t{u0[r], u1[r], 0};
      scan.advance(xs[r], k, t, block);
      u0[r] = t.u0;
      u1[r] = t.u1;
    }
  }

  // Brings every lane below the scaling limit (for_steps, scan_form.hpp;
  // `limit` that of the block's rows, scaling_limit in numbers.hpp): one
  // comparison of the block's largest magnitude in the usual case.
  KOKKOS_FORCEINLINE_FUNCTION static void check(Numbers& u0, Numbers& u1, Exponents& e,
                                                bool& scaled, double limit) {
    // CPUs, power sums: powers below 2^-60 dropped before they reach
    // subnormals, as the vectors drop them (LaneSet::drop_tiny_powers in
    // cpu_lanes.hpp, which says why no sum changes): a block of fewer rows
    // than the vectors take (float results, M = 16, N = 2^20) took 157 ms
    // with them.
    if constexpr (!Packed && is_power_sums<Scan>::value && std::is_floating_point_v<W>) {
      for (int r = 0; r < B; ++r)
        u1[r] = e[r] == 0 && kokkos_math::fabs(u1[r]) < W(0x1p-60) ? W(0) : u1[r];
    }
    // An or of comparisons, which the compiler vectorizes (a running maximum
    // it did not, doubling power sums' time).
    bool over = false;
    for (int r = 0; r < B; ++r)
      over |= (kokkos_math::fabs(to_double(u0[r])) > limit) |
              (kokkos_math::fabs(to_double(u1[r])) > limit);
    if (over) {
      for (int r = 0; r < B; ++r) {
        State t{u0[r], u1[r], e[r]};
        keep_both_in_range(t, limit);
        u0[r] = t.u0;
        u1[r] = t.u1;
        e[r]  = t.e;
      }
      scaled = true;
    }
  }

  // The CPU's loop over n for double-double (operator() below), in its
  // bounded and unbounded forms. Float and double rows keep the loop written
  // out in operator(): there GCC 12's code for the same loop in a member
  // function ran Fast double LayoutLeft rows 1.3 times slower, and in a
  // lambda LayoutRight rows 1.5 times slower (rechecked with the SIMD rows
  // in place: LayoutLeft power sums 1.1-1.2 times slower through it).
  // n: the steps done before (cpu_lanes.hpp).
  template <class Tag>
  KOKKOS_FORCEINLINE_FUNCTION void cpu_steps(std::int64_t i0, int rows, int n, int N,
                                             bool every_step, const double (&xs)[B], Numbers& u0,
                                             Numbers& u1, Exponents& e, bool scaled,
                                             Tag block) const {
    const auto checks_after = [&](int n) {
      return every_step || n % Scan::check_period == Scan::check_period - 1;
    };
    const double limit = scaling_limit<W>(every_step);
    if (!scaled) {
      for (; n + 1 < N; ++n) {
        advance(scan, xs, scan.load(n), u0, u1, block);
        store<false>(i0, rows, n + 1, u0, u1, e);
        if (checks_after(n)) {
          check(u0, u1, e, scaled, limit);
          if (scaled) {
            ++n;
            break;
          }
        }
      }
    }
    for (; n + 1 < N; ++n) {
      advance(scan, xs, scan.load(n), u0, u1, block);
      store<true>(i0, rows, n + 1, u0, u1, e);
      if (checks_after(n)) check(u0, u1, e, scaled, limit);
    }
  }

  // Work item `item`: on GPUs one block, the blocks from row `head` on
  // first (a warp's 32 neighbouring blocks then store each column's 512
  // bytes as one aligned run), those of rows [0, head) after them; on CPUs
  // blocks [item K, item K + K), K = blocks_per_item, then one store fence
  // for the non-temporal stores (cpu_lanes.hpp) of all of them: a fence
  // after every block waited for its stores to reach memory
  // (docs/performance.md, "CPU, 2026-12-01/02, 23:40-00:30 UTC").
  KOKKOS_FUNCTION void operator()(std::int64_t item) const {
    const std::int64_t M = std::int64_t(V.extent(0));
    if constexpr (Packed) {
      const std::int64_t aligned = (M - head + B - 1) / B;  // blocks from row head on
      const std::int64_t i0  = item < aligned ? head + item * B : (item - aligned) * B;
      const std::int64_t end = item < aligned ? M : head;
      rows_of(i0, end - i0 < B ? int(end - i0) : B);
    } else {
      const std::int64_t blocks = (M + B - 1) / B;
      const std::int64_t first  = item * blocks_per_item;
      const std::int64_t last   = first + blocks_per_item < blocks ? first + blocks_per_item : blocks;
      for (std::int64_t block = first; block < last; ++block) {
        const std::int64_t i0 = block * B;
        if (M - i0 >= B) {
          rows_of(i0, B);
        } else {
          tail(i0, int(M - i0));
        }
      }
#ifdef RECUR_IMPL_CPU_LANES
      if (stream) _mm_sfence();
#endif
    }
  }

  // CPUs: rows [i0, i0 + rows), fewer than B (V's last rows), in blocks of
  // B / 2, B / 4, ... rows where the vectors take such blocks, the rest
  // lane by lane. Lane by lane alone (B's lanes, some idle), float Fast
  // rows at M = 16, N = 2^20 took 80 ms in LayoutRight against 16 for
  // Accurate's double vectors of 16 rows (docs/performance.md, "CPU,
  // 2026-12-07, night: few rows").
  KOKKOS_FUNCTION void tail(std::int64_t i0, int rows) const {
#ifdef RECUR_IMPL_CPU_LANES
    if constexpr (!Packed && B % 2 == 0 && cpu_lanes::runs<Scan, B / 2>) {
      const LockstepRows<B / 2, Packed, T, Scan, XView, VView> half{
          scan, x, V, stream && streams(V, B / 2), 1, 0, rules};
      if (rows >= B / 2) {
        half.rows_of(i0, B / 2);
        i0 += B / 2;
        rows -= B / 2;
      }
      if (rows > 0) half.tail(i0, rows);
      return;
    }
#endif
    rows_of(i0, rows);
  }

  // Rows [i0, i0 + rows), rows <= B.
  KOKKOS_FUNCTION void rows_of(std::int64_t i0, int rows) const {
    const std::int64_t M  = std::int64_t(V.extent(0));
    const int N           = int(V.extent(1));
    double xs[B];
    W u0[B], u1[B];
    int e[B];
    bool every_step = false, scaled = false;
    int n = 0;  // steps done
#ifdef RECUR_IMPL_CPU_LANES
    if constexpr (!Packed && cpu_lanes::runs<Scan, B>) {
      // x a few blocks ahead asked for now: read at the block's start, its
      // lines otherwise arrived late beside the streamed stores (the loop
      // below waited on them for 12 % of float LayoutRight rows' time).
      constexpr std::int64_t ahead = 4 * B;
      if (i0 + ahead + B <= M) {
        for (int r = 0; r < B; r += 64 / int(sizeof(x(0))))
          _mm_prefetch(reinterpret_cast<const char*>(&x(i0 + ahead + r)), _MM_HINT_T0);
      }
      // The vectors, for a whole block of rows checked every few steps
      // (these scans start every state plain: e = 0): power sums where
      // none of its rows is checked every step, three-term rows where every
      // |x| is at most Range<W>::unchecked_x and the lanes take such rows
      // (cpu_lanes::lane_limit_exponent, from the coefficients: with
      // coefficients that grow, He_n past n = 223 in float, the scalar
      // lanes check after every step, the vectors every few, below a lower
      // limit). They start the states themselves: the scalar start of
      // every row below cost float LayoutRight rows 15 % of their time.
      bool plain = rows == B && (V.stride_0() == 1 || V.stride_1() == 1);
      double lanes_limit = Range<W>::periodic_limit;
      if (plain) {
        if constexpr (is_power_sums<Scan>::value) {
          for (int r = 0; r < B; ++r) plain &= !scan.checks_every_step(double(x(i0 + r)));
        } else {
          lanes_limit = rules.lanes_limit;
          plain       = lanes_limit > 0;
          for (int r = 0; r < B; ++r)
            plain &= kokkos_math::fabs(double(x(i0 + r))) <= Range<W>::unchecked_x;  // (false for NaN)
        }
      }
      if (plain) {
        n = cpu_lanes::rows<B>(scan, x, V, i0, N, u0, u1, stream, rules, lanes_limit);
        if (n + 1 == N) return;
        if (n < 0) {  // a row not started plain (a prefactor's): the block below
          n = 0;
        } else {
          // A lane past the limit stopped the vectors: the scalar lanes go
          // on from there, checked as their rows need.
          for (int r = 0; r < B; ++r) {
            xs[r] = double(x(i0 + r)), e[r] = 0;
            every_step = every_step || scan.checks_every_step(xs[r]);
          }
          check(u0, u1, e, scaled, scaling_limit<W>(every_step));
        }
      }
    }
#endif
    if (n == 0) {
      for (int r = 0; r < B; ++r) {
        xs[r] = r < rows ? double(x(i0 + r)) : 0.0;  // idle lanes run x = 0
        State t;
        scan.start(xs[r], t);
        u0[r] = t.u0, u1[r] = t.u1, e[r] = t.e;
        every_step = every_step || scan.checks_every_step(xs[r]);
        scaled     = scaled || t.e != 0;
      }
      if (scaled) {
        store<true>(i0, rows, 0, u0, u1, e);
      } else {
        store<false>(i0, rows, 0, u0, u1, e);
      }
    }
    const double limit = scaling_limit<W>(every_step);
    if constexpr (Packed) {  // GPUs: coefficients loaded ahead (for_steps)
      const auto steps = [&](auto nonzero_f) {
        for_steps<true, 0, decltype(nonzero_f)::value>(
            scan, 0, N - 1, every_step,
            [&](int n, const typename Scan::step_type& k, auto plain) {
              advance(scan, xs, k, u0, u1, plain);
              store<!decltype(plain)::value>(i0, rows, n + 1, u0, u1, e);
            },
            [&] { check(u0, u1, e, scaled, limit); }, [&] { return !scaled; });
      };
      if constexpr (has_nonzero_f<Scan>::value) {
        bool nonzero = true;  // in every row (idle lanes' x = 0 is not)
        for (int r = 0; r < B; ++r) nonzero = nonzero && scan.nonzero_f(xs[r]);
#if defined(__CUDA_ARCH__)
        // The same for the whole warp, so that its threads do not split
        // between the two loops, the warp running both (both give the same
        // values: the choice only saves work). H200, M = 2^24, N = 32, x = 0
        // in one row of every 1024: float He_n/sqrt(n!) 0.71 ms chosen per
        // thread, 0.59 per warp, as without the zeros.
        nonzero = __all_sync(__activemask(), nonzero);
#endif
        if (nonzero) {
          steps(std::true_type{});
          return;
        }
      }
      steps(std::false_type{});
    } else {  // CPUs: one coefficient load a step (lookahead measured no faster)
      // Plain stores until a lane carries an exponent, then stores through
      // output(): two loops, so that the first has no call in it and keeps
      // the lanes in registers (one loop choosing per step ran double
      // LayoutRight power sums 1.6 times slower).
      // Rows checked every check_period steps run bounded steps (BlockTag,
      // scan_form.hpp), which matters to double-double only.
      if constexpr (std::is_same_v<W, DoubleDouble>) {
        if (!every_step) {
          cpu_steps(i0, rows, n, N, every_step, xs, u0, u1, e, scaled, BlockTag<false>{});
        } else {
          cpu_steps(i0, rows, n, N, every_step, xs, u0, u1, e, scaled, BlockTag<false, false>{});
        }
      } else {  // the same loops, written out here: see cpu_steps
        const auto checks_after = [&](int n) {
          return every_step || n % Scan::check_period == Scan::check_period - 1;
        };
        if (!scaled) {
          for (; n + 1 < N; ++n) {
            advance(scan, xs, scan.load(n), u0, u1, BlockTag<false, false>{});
            store<false>(i0, rows, n + 1, u0, u1, e);
            if (checks_after(n)) {
              check(u0, u1, e, scaled, limit);
              if (scaled) {
                ++n;
                break;
              }
            }
          }
        }
        for (; n + 1 < N; ++n) {
          advance(scan, xs, scan.load(n), u0, u1, BlockTag<false, false>{});
          store<true>(i0, rows, n + 1, u0, u1, e);
          if (checks_after(n)) check(u0, u1, e, scaled, limit);
        }
      }
    }
  }
};

// B x a work item: 8, 16 or 32 on CPUs (cpu_block), 16 bytes of T (and Pack
// stores) on GPUs, which call this only for V whose columns are contiguous.
template <class ExecSpace, class XView, class VView, class Scan>
void lockstep_rows(const ExecSpace& space, const std::string& label, const XView& x,
                   const VView& V, const Scan& scan) {
  using T = typename VView::value_type;
  constexpr bool host =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
  constexpr int B =
      host ? cpu_block<Scan, T, std::is_same_v<typename VView::array_layout, Kokkos::LayoutLeft>>
           : Pack<T>::size;
  const std::int64_t M = std::int64_t(V.extent(0));
  // Double-double on a GPU: at most 85 registers a thread (768 threads an
  // SM), which nvcc otherwise exceeds (110); the latency-bound recurrence
  // needs the warps more (H200: 2.63 against 2.72 ms, docs/performance.md).
  using Bounds = std::conditional_t<!host && std::is_same_v<typename Scan::number_type, DoubleDouble>,
                                    Kokkos::LaunchBounds<256, 3>, Kokkos::LaunchBounds<>>;
  // CPUs: 64 blocks a work item (one store fence each, operator() above),
  // fewer where that would leave threads without one (few long rows).
  const std::int64_t blocks   = (M + B - 1) / B;
  const std::int64_t per_item =
      host ? std::clamp<std::int64_t>(blocks / std::max(1, int(space.concurrency())), 1, 64) : 1;
  // GPUs: rows [0, head) before the first warp-run boundary of column 0
  // (stores.hpp), in blocks of their own; one more block where B does not
  // divide head.
  const std::int64_t head =
      host ? 0 : std::min<std::int64_t>(M, aligned_run_offset(V.data()));
  const std::int64_t items =
      host ? (blocks + per_item - 1) / per_item
           : (M - head + B - 1) / B + (head + B - 1) / B;
  StepRules rules;
#ifdef RECUR_IMPL_CPU_LANES
  if constexpr (host) rules = cpu_lanes::step_rules(scan, int(V.extent(1)));
#endif
  Kokkos::parallel_for(
      label, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>, Bounds>(space, 0, items),
      LockstepRows<B, !host, T, Scan, XView, VView>{scan, x, V, host && streams(V, B), per_item,
                                                    head, rules});
}

// Values and derivatives of a three-term family without prefactor, B
// consecutive x a work item (CPUs): ThreeTermKernel::fill(x, s, ds)'s
// arithmetic lane by lane, in vectors where the CPU has them
// (cpu_lanes::derivative_steps), its range check after every step made for
// the block at once (the scaling lane by lane where one passed the limit),
// so each row is the one that x alone gets, bit for bit. Double-double runs
// in vectors only in blocks where no intermediate can leave double's range
// (derivative_steps), else lane by lane. One x a work item (what the other
// families keep) wrote a column slice's values N columns apart: 12-45 times
// the values' time (this VM, M = 2^20, N = 32; docs/performance.md, "CPU,
// 2026-12-05: derivatives in lockstep").
template <class Kernel>
struct is_plain_three_term : std::false_type {};
template <class W, class MemorySpace>
struct is_plain_three_term<ThreeTermKernel<W, MemorySpace, NoPrefactor>> : std::true_type {};

template <int B, class T, class Kernel, class XView, class VView, class DView>
struct LockstepDerivatives {
  using W = typename Kernel::number_type;
  Kernel kernel;
  XView x;
  VView V;
  DView dV;
  bool stream = false;  // column slices of whole lines, streamed (cpu_lanes.hpp)
  // Row slices one after the other whose block fits `stage`: each step's
  // values of the block into an L1 buffer, a step's lanes side by side; at
  // the block's end turned into its rows (cpu_lanes::transpose_from) in a
  // second buffer as they lie in V, and stored from there as one run,
  // streamed where `stream` (a lane's row taking one value a step, 32 or 64
  // rows at once, straight to memory, took float Fast rows 33 ms, 15 this way).
  bool rows = false;
  static constexpr int stage = 8192 / int(sizeof(T));

  KOKKOS_FUNCTION void operator()(std::int64_t block) const {
    run(block);
#ifdef RECUR_IMPL_CPU_LANES
    if (stream) _mm_sfence();
#endif
  }
  // The block's rows from `steps` (steps[n B + r] = row r's value n) into
  // dst (B rows of N, one after the other), through `turned`.
  KOKKOS_FUNCTION void copy_rows(T* dst, const T* steps, T* turned, int N) const {
    int j0 = 0;  // columns turned in registers
#ifdef RECUR_IMPL_CPU_LANES
    using Row       = typename cpu_lanes::RowOf<T>::type;
    constexpr int U = int(sizeof(Row) / sizeof(T));
    if (N % U == 0) {
      for (int u = 0; u < B; u += U)
        for (int j = 0; j < N; j += U) {
          Row r[U];
          cpu_lanes::transpose_from(steps + std::size_t(j) * B + u, B, r);
          for (int k = 0; k < U; ++k) cpu_lanes::store(turned + std::size_t(u + k) * N + j, r[k], false);
        }
      j0 = N;
    }
#endif
    for (int r = 0; r < B; ++r)
      for (int j = j0; j < N; ++j) turned[std::size_t(r) * N + j] = steps[std::size_t(j) * B + r];
    copy_out(dst, turned, std::size_t(B) * N, stream);
  }
  KOKKOS_FUNCTION void run(std::int64_t block) const {
    const std::int64_t i0 = block * B;
    const std::int64_t M  = std::int64_t(V.extent(0));
    const int N           = int(V.extent(1));
    if (i0 + B > M) {  // the last, partial block: one x at a time
      for (std::int64_t i = i0; i < M; ++i) kernel.fill(double(x(i)), row_slice(V, i), row_slice(dV, i));
      return;
    }
    double xs[B];
    W u0[B], u1[B], d0[B], d1[B];  // p_n, p_{n-1}, p'_n, p'_{n-1}
    int e[B];
    bool scaled = false;
    for (int r = 0; r < B; ++r) {
      typename Kernel::state_type p;
      xs[r] = double(x(i0 + r));
      kernel.start(xs[r], p);
      u0[r] = p.u0, u1[r] = p.u1, e[r] = p.e;
      d0[r] = p.u0 * 0.0;  // 0, or NaN outside the domain
      d1[r] = W{};
      scaled = scaled || p.e != 0;
    }
    alignas(64) T values[stage], derivatives[stage], turned[stage];
    const auto put = [&](int n) {
      if (rows) {
        T* const v = values + std::size_t(n) * B;
        T* const d = derivatives + std::size_t(n) * B;
        if (!scaled) {
          for (int r = 0; r < B; ++r) v[r] = T(to_double(u0[r]));
          for (int r = 0; r < B; ++r) d[r] = T(to_double(d0[r]));
        } else {
          for (int r = 0; r < B; ++r) v[r] = T(scaled_value(u0[r], e[r]));
          for (int r = 0; r < B; ++r) d[r] = T(scaled_value(d0[r], e[r]));
        }
        return;
      }
#ifdef RECUR_IMPL_CPU_LANES
      if constexpr (std::is_floating_point_v<W>) {
        if (stream && !scaled) {
          cpu_lanes::stream_lanes<B>(&V(i0, n), u0);
          cpu_lanes::stream_lanes<B>(&dV(i0, n), d0);
          return;
        }
      }
#endif
      if (!scaled) {
        for (int r = 0; r < B; ++r) V(i0 + r, n) = T(to_double(u0[r]));
        for (int r = 0; r < B; ++r) dV(i0 + r, n) = T(to_double(d0[r]));
      } else {
        for (int r = 0; r < B; ++r) V(i0 + r, n) = T(scaled_value(u0[r], e[r]));
        for (int r = 0; r < B; ++r) dV(i0 + r, n) = T(scaled_value(d0[r], e[r]));
      }
    };
#ifdef RECUR_IMPL_CPU_LANES
    // Step n's leading parts of the lanes (double-double in vectors, none
    // scaled).
    const auto put_leading = [&](int n, const double* v, const double* d) RECUR_LANES_INLINE {
      if (rows) {
        for (int r = 0; r < B; ++r) values[std::size_t(n) * B + r] = T(v[r]);
        for (int r = 0; r < B; ++r) derivatives[std::size_t(n) * B + r] = T(d[r]);
      } else if (stream) {
        cpu_lanes::stream_lanes<B>(&V(i0, n), reinterpret_cast<const double(&)[B]>(*v));
        cpu_lanes::stream_lanes<B>(&dV(i0, n), reinterpret_cast<const double(&)[B]>(*d));
      } else {
        for (int r = 0; r < B; ++r) V(i0 + r, n) = T(v[r]);
        for (int r = 0; r < B; ++r) dV(i0 + r, n) = T(d[r]);
      }
    };
#endif
    // Lanes past the limit scaled, as the scalar check does after each step.
    const auto rescale = [&] {
      for (int r = 0; r < B; ++r)
        keep_together_in_range(e[r], largest(u0[r], d0[r]), u0[r], u1[r], d0[r], d1[r]);
      for (int r = 0; r < B; ++r) scaled = scaled || e[r] != 0;
    };
    put(0);
    int n = 0;  // steps done
#ifdef RECUR_IMPL_CPU_LANES
    if constexpr (B % cpu_lanes::width<cpu_lanes::Element<W>> == 0) {
      bool lanes = !scaled;
      if constexpr (std::is_same_v<W, DoubleDouble>) {  // (cpu_lanes::derivative_steps)
        lanes = lanes && !kernel.large_coefficients;
        for (int r = 0; r < B; ++r) lanes = lanes && kokkos_math::fabs(xs[r]) <= Range<W>::unchecked_x;
      }
      if (lanes) {  // in vectors while no lane passes the limit
        if constexpr (std::is_same_v<W, DoubleDouble>) {
          n = cpu_lanes::derivative_steps<B>(kernel, xs, N, u0, u1, d0, d1, put_leading);
        } else {
          n = cpu_lanes::derivative_steps<B>(kernel, xs, N, u0, u1, d0, d1, put);
        }
        if (n + 1 < N) {  // a lane passed it at step n
          rescale();
          put(++n);
        }
      }
    }
#endif
    for (; n + 1 < N; ++n) {
      const auto k = kernel.coefficients(n);
      bool over    = false;
      for (int r = 0; r < B; ++r) {
        const W f     = affine(k.a, xs[r], k.b);
        const W next  = step(f, u0[r], k.c, u1[r]);
        const W dnext = derivative_step(k.a, u0[r], step(f, d0[r], k.c, d1[r]));
        u1[r]         = u0[r];
        u0[r]         = next;
        d1[r]         = d0[r];
        d0[r]         = dnext;
        over |= largest(u0[r], d0[r]) > Range<W>::limit;
      }
      if (over) rescale();
      put(n + 1);
    }
    if (rows) {
      copy_rows(&V(i0, 0), values, turned, N);
      copy_rows(&dV(i0, 0), derivatives, turned, N);
    }
  }
};

// evaluate with dV for the kernels of is_plain_three_term on CPUs: 256
// bytes of T's x a work item (64 float, 32 double: independent chains
// enough to fill the pipeline: a cache line of x ran 2.1 times as long),
// 16 x in double-double (whose lanes' numbers take twice the registers: 8
// took 60-76 ms where 16 took 54-64, M = 2^20, N = 32 He_n/sqrt(n!) with
// dV, this project's VM), streamed where V and dV are column slices of
// whole lines (streams, cpu_lanes.hpp).
template <class ExecSpace, class XView, class VView, class DView, class Kernel>
void lockstep_derivatives(const ExecSpace& space, const std::string& label, const XView& x,
                          const VView& V, const DView& dV, const Kernel& kernel) {
  using T         = typename VView::non_const_value_type;
  constexpr int B = std::is_same_v<typename Kernel::number_type, DoubleDouble> ? 16 : 256 / int(sizeof(T));
  const std::int64_t blocks = (std::int64_t(V.extent(0)) + B - 1) / B;
  using Functor             = LockstepDerivatives<B, T, Kernel, XView, VView, DView>;
  const std::size_t N       = V.extent(1);
  const bool rows = V.stride_1() == 1 && dV.stride_1() == 1 && V.stride_0() == N &&
                    dV.stride_0() == N && B * N <= std::size_t(Functor::stage);
  const auto aligned = [](const auto& view) {
    return reinterpret_cast<std::uintptr_t>(view.data()) % 64 == 0;
  };
  const bool stream =
      rows ? V.span() * sizeof(T) >= stream_bytes && aligned(V) && aligned(dV)
           : V.stride_0() == 1 && streams(V, B) && streams(dV, B);
  Kokkos::parallel_for(
      label, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, blocks),
      Functor{kernel, x, V, dV, stream, rows});
}

}  // namespace recur::impl

#endif
