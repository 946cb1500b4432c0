#ifndef RECUR_IMPL_STAGED_HPP
#define RECUR_IMPL_STAGED_HPP

#include <recur/impl/lockstep.hpp>
#include <recur/impl/three_term.hpp>
#include <recur/slice.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace recur::impl {

// The staged policy: a team computes the rows of a tile of x's into team
// scratch memory (one thread a row), then all its threads copy the tile to V
// in V's own contiguous order, so that neighbouring threads store to
// neighbouring addresses whatever the layout: coalesced on a GPU for
// LayoutRight, where one thread per row would store N elements apart.
template <class ExecSpace, class XView, class VView, class RowFunction>
struct StagedFunctor {
  using T           = typename VView::value_type;
  using team_member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;

  XView x;
  VView V;
  RowFunction f;
  int rows_per_tile;   // rows computed per team (<= team size)
  int row_pitch;       // scratch elements between rows (N + 1: no bank conflicts)
  bool row_contiguous; // V(i, n + 1) next to V(i, n): copy row by row

  // Whether the tile's rows, one contiguous run of V (rows of N < team
  // size values, V's rows N apart), go out in Pack stores: for float, where
  // a warp's scalar stores write 128 bytes an instruction (H200, M = 2^24,
  // N = 32, LayoutRight: He_n/sqrt(n!) 0.734 -> 0.678 ms, Fast 0.640 -> 0.596;
  // double ran 4 % slower packed, docs/performance.md).
  KOKKOS_FORCEINLINE_FUNCTION bool packed(int N) const {
    if constexpr (sizeof(T) == 4) {
      return N % Pack<T>::size == 0 && std::int64_t(V.stride_0()) == N &&
             reinterpret_cast<std::uintptr_t>(V.data()) % sizeof(Pack<T>) == 0;
    } else {
      (void)N;
      return false;
    }
  }

  KOKKOS_FUNCTION void operator()(const team_member& team) const {
    const int N             = int(V.extent(1));
    const std::int64_t M    = std::int64_t(V.extent(0));
    const std::int64_t row0 = std::int64_t(team.league_rank()) * rows_per_tile;
    const int rows          = int(M - row0 < rows_per_tile ? M - row0 : rows_per_tile);
    T* const tile = static_cast<T*>(team.team_scratch(0).get_shmem(
        sizeof(T) * std::size_t(rows_per_tile) * std::size_t(row_pitch)));
    const int t = team.team_rank();
    for (int r = t; r < rows; r += team.team_size())
      f(x(row0 + r), Slice<T>(tile + std::size_t(r) * row_pitch, 1, N));
    team.team_barrier();
    // Each thread's place in the copy is set once (no division per element).
    const int threads = team.team_size();
    if (!row_contiguous) {  // column after column: `rows` neighbours a store
      for (int r = t; r < rows; r += threads)
        for (int n = 0; n < N; ++n)
          store_result(V, row0 + r, n, tile[std::size_t(r) * row_pitch + n]);
    } else if (N >= threads) {  // row after row, the team along each row
      for (int r = 0; r < rows; ++r)
        for (int n = t; n < N; n += threads)
          store_result(V, row0 + r, n, tile[std::size_t(r) * row_pitch + n]);
    } else if (packed(N)) {  // the tile's run of V in 16-byte stores
      constexpr int G   = Pack<T>::size;
      const int per_row = N / G, packs = rows * per_row;
      Pack<T>* const out = reinterpret_cast<Pack<T>*>(&V(row0, 0));
      for (int q = t; q < packs; q += threads) {
        const int r = q / per_row;
        const T* from = tile + std::size_t(r) * row_pitch + (q - r * per_row) * G;
        Pack<T> pack;
        for (int j = 0; j < G; ++j) pack.v[j] = from[j];
        store_result(out + q, pack);
      }
    } else {  // several rows at once: the tile is one contiguous run of V
      const int rows_per_pass = threads / N;
      const int n             = t % N;
      for (int r = t / N; r < rows && t < rows_per_pass * N; r += rows_per_pass)
        store_result(V, row0 + r, n, tile[std::size_t(r) * row_pitch + n]);
    }
  }
};

// Rows of N values a tile holds: as many as fit in the scratch a team may
// take, and at most 128 (enough for whole cache lines of every column of
// LayoutLeft). 0 when a single row does not fit.
template <class ExecSpace, class T>
int staged_rows_fit(int N) {
  const std::size_t row_bytes = sizeof(T) * (std::size_t(N) + 1);
  const std::size_t budget =
      std::size_t(Kokkos::TeamPolicy<ExecSpace>::scratch_size_max(0));
  return int(std::min<std::size_t>(128, budget / row_bytes));
}

template <class ExecSpace, class XView, class VView, class RowFunction>
void staged(const ExecSpace& space, const std::string& label, const XView& x,
            const VView& V, const RowFunction& f) {
  using T      = typename VView::value_type;
  // Double rows with launch bounds of 128 threads, 4 teams an SM (H200,
  // M = 2^24, N = 32, LayoutRight He_n/sqrt(n!): Fast 1.21-1.22 against
  // 1.30-1.31 ms, Accurate 1.66-1.68 against 1.69; 6 teams, or 12 of 64
  // threads, the same; docs/performance.md, "H200, 2026-12-04").
  using Policy = std::conditional_t<sizeof(T) == 8,
                                    Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<128, 4>>,
                                    Kokkos::TeamPolicy<ExecSpace>>;
  using Functor = StagedFunctor<ExecSpace, XView, VView, RowFunction>;
  const int N         = int(V.extent(1));
  const int row_pitch = N + 1;
  const std::size_t row_bytes = sizeof(T) * std::size_t(row_pitch);
  const std::size_t budget    = std::size_t(Policy::scratch_size_max(0));
  const int fit               = staged_rows_fit<ExecSpace, T>(N);
  if (fit < 1) {
    throw std::invalid_argument(
        label + ": a row of N = " + std::to_string(N) + " values needs " +
        std::to_string(row_bytes) + " bytes of team scratch, more than the " +
        std::to_string(budget) +
        " this execution space offers; use recur::ThreadPerX for such long rows");
  }
  Policy probe(space, 1, Kokkos::AUTO);
  Functor functor{x, V, f, 1, row_pitch, V.stride_1() == 1};
  const int team_max = probe.set_scratch_size(0, Kokkos::PerTeam(row_bytes))
                           .team_size_max(functor, Kokkos::ParallelForTag());
  // One thread a row, and a team of up to 128 copies with all its threads.
  // (Only GPU execution spaces get here: on CPUs Staged resolves to ThreadPerX.)
  const int team_size   = std::min(team_max, 128);
  functor.rows_per_tile = std::min(fit, team_size);
  const std::int64_t tiles =
      (std::int64_t(V.extent(0)) + functor.rows_per_tile - 1) / functor.rows_per_tile;
  Kokkos::parallel_for(
      label,
      Policy(space, int(tiles), team_size)
          .set_scratch_size(0, Kokkos::PerTeam(row_bytes * functor.rows_per_tile)),
      functor);
}

// Staged for recurrences with a scan form (scan_along_n.hpp), on GPUs: each
// thread keeps its row's recurrence state in registers and the team goes
// along n a chunk of `chunk` terms at a time (compute the chunk of every row
// into scratch, barrier, copy it to V, barrier). The tile stays 128 rows tall
// and needs the same scratch whatever N is, so long rows stage as well as
// short ones. Same arithmetic as one x at a time: same values, bit for bit.
template <class ExecSpace, class T, class Scan, class XView, class VView>
struct StagedChunksFunctor {
  using team_member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Scan scan;
  XView x;
  VView V;
  int chunk;
  bool row_contiguous;

  KOKKOS_FUNCTION void operator()(const team_member& team) const {
    const int N             = int(V.extent(1));
    const int threads       = team.team_size();
    const std::int64_t M    = std::int64_t(V.extent(0));
    const std::int64_t row0 = std::int64_t(team.league_rank()) * threads;
    const int rows          = int(M - row0 < threads ? M - row0 : threads);
    const int pitch         = chunk + 1;
    T* const tile = static_cast<T*>(
        team.team_scratch(0).get_shmem(sizeof(T) * std::size_t(threads) * pitch));
    const int t     = team.team_rank();
    const double xi = t < rows ? double(x(row0 + t)) : 0.0;
    typename Scan::state_type s;
    scan.start(xi, s);
    for (int n0 = 0; n0 < N; n0 += chunk) {
      const int width = N - n0 < chunk ? N - n0 : chunk;  // terms [n0, n0 + width)
      stage_terms(scan, xi, n0, n0 + width, N, s, tile + std::size_t(t) * pitch);
      team.team_barrier();
      // Each thread's place in the copy is worked out once a chunk: no
      // division per element.
      if (row_contiguous) {  // chunk rows are runs of V: `lanes` threads a run
        const int lanes = width < threads ? width : threads;
        const int step  = threads / lanes;
        if (t < step * lanes)
          for (int r = t / lanes; r < rows; r += step)
            for (int j = t % lanes; j < width; j += lanes)
              V(row0 + r, n0 + j) = tile[std::size_t(r) * pitch + j];
      } else if (t < rows) {  // neighbouring threads, neighbouring rows
        for (int j = 0; j < width; ++j) V(row0 + t, n0 + j) = tile[std::size_t(t) * pitch + j];
      }
      team.team_barrier();
    }
  }
};

template <class ExecSpace, class XView, class VView, class Scan>
void staged_chunks(const ExecSpace& space, const std::string& label, const XView& x,
                   const VView& V, const Scan& scan) {
  using T       = typename VView::value_type;
  using Policy  = Kokkos::TeamPolicy<ExecSpace>;
  using Functor = StagedChunksFunctor<ExecSpace, T, Scan, XView, VView>;
  const int chunk = std::min(int(V.extent(1)), 32);
  const Functor functor{scan, x, V, chunk, V.stride_1() == 1};
  const std::size_t row_bytes = sizeof(T) * std::size_t(chunk + 1);
  const int team_max = Policy(space, 1, Kokkos::AUTO)
                           .set_scratch_size(0, Kokkos::PerTeam(row_bytes))
                           .team_size_max(functor, Kokkos::ParallelForTag());
  const int team = std::min(128, team_max);
  const std::int64_t tiles = (std::int64_t(V.extent(0)) + team - 1) / team;
  Kokkos::parallel_for(
      label,
      Policy(space, int(tiles), team).set_scratch_size(0, Kokkos::PerTeam(row_bytes * team)),
      functor);
}

}  // namespace recur::impl

#endif
