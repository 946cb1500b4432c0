#ifndef RECUR_IMPL_WARP_QR_HPP
#define RECUR_IMPL_WARP_QR_HPP

// recur::fit's tall-skinny QR on an NVIDIA GPU: one warp per team, each
// warp folding chunks of 64 rows into its own triangle.
//
// A warp keeps an n x n triangle R (shared memory) and takes the rows 64 at
// a time: a chunk B (64 x n) is filled 32 rows at a time (from a matrix, or
// evaluated from x and y where they are read), and [R; B] is reduced to a
// new R by n Householder reflections, each of which touches row k of R and
// all of B (structured like LAPACK's tpqrt). Lane j holds column j of B in
// registers (its 64 rows), so a reflector's dot product with the column and
// its update are each 64 multiply-adds in one lane, with no reduction
// across lanes: the reflector's own column travels through shared memory,
// one warp-wide broadcast read per pair of rows. Columns beyond the 32nd (at
// most warp_qr_max_tail; a fit's y columns when N = 32) are held by rows,
// lane l holding rows l and l + 32, and their dot products are summed across
// the warp with shuffles. Warps take chunks from a counter, each the next
// one (so none is left with a last round while the others idle), and write
// their triangles stacked; a next level reduces those, until one team is
// left.
//
// Each reflection (WarpQRReflection) has alpha = R(k, k) and x = B(:, k);
// x = 0 is the identity.

#include <recur/impl/least_squares.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#if defined(KOKKOS_ENABLE_CUDA)
#define RECUR_HAS_WARP_QR 1

namespace recur::impl {

inline constexpr int warp_qr_lanes    = 32;  // a warp
inline constexpr int warp_qr_rows     = 64;  // rows per chunk: two per lane
inline constexpr int warp_qr_max_tail = 4;   // columns beyond the lanes' 32

// Whether the warp QR takes n columns.
inline bool warp_qr_fits(int n) { return n >= 1 && n <= warp_qr_lanes + warp_qr_max_tail; }

// Doubles of half a chunk: n columns of 33 (the odd stride keeping a lane's
// column reads apart in banks), and at least the 64 of a reflector's column.
KOKKOS_INLINE_FUNCTION std::size_t warp_qr_half(int n) {
  const std::size_t columns = std::size_t(n) * (warp_qr_lanes + 1);
  return columns > std::size_t(warp_qr_rows) ? columns : std::size_t(warp_qr_rows);
}

// Shared memory per team: half a chunk and the n x n triangle.
inline std::size_t warp_qr_scratch_bytes(int n) {
  return sizeof(double) * (warp_qr_half(n) + std::size_t(n) * n) + 16;
}

// The reflection I - tau v v^T, v = (1, x f), that takes (alpha, x) to
// (beta, 0), |x|^2 = sigma > 0, as LAPACK's dlarfg makes it: f = 1 / (alpha
// - beta), from one reciprocal.
struct WarpQRReflection {
  double beta, tau, f;
  KOKKOS_INLINE_FUNCTION WarpQRReflection(double alpha, double sigma) {
    const double norm = kokkos_math::sqrt(alpha * alpha + sigma);
    beta              = alpha < 0 ? norm : -norm;
    const double u    = alpha - beta;
    const double r    = 1 / (u * beta);
    tau               = -u * u * r;  // (beta - alpha) / beta
    f                 = beta * r;
  }
};

// Fills rows of a chunk from a matrix (LayoutLeft, double): lane l copies
// row i (zeros past the end). Refuses nothing.
struct WarpQRMatrixRows {
  Kokkos::View<const double**, Kokkos::LayoutLeft, Kokkos::CudaSpace> A;
  KOKKOS_FUNCTION std::int64_t rows() const { return std::int64_t(A.extent(0)); }
  KOKKOS_FUNCTION bool fill(std::int64_t i, double* chunk, int stride, int n) const {
    if (i < std::int64_t(A.extent(0))) {
      for (int j = 0; j < n; ++j) chunk[j * stride] = A(i, j);
    } else {
      for (int j = 0; j < n; ++j) chunk[j * stride] = 0;
    }
    return true;
  }
};

template <class Source>
struct WarpQR {
  using Team = Kokkos::TeamPolicy<Kokkos::Cuda>::member_type;
  static constexpr int lanes  = warp_qr_lanes;
  static constexpr int rows   = warp_qr_rows;
  static constexpr int halves = rows / lanes;
  static constexpr int stride = lanes + 1;
  static constexpr int tails  = warp_qr_max_tail;

  Source source;
  Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::CudaSpace> R;  // (teams n) x n
  Kokkos::View<std::int64_t, Kokkos::CudaSpace> bad;                // rows the source refused
  Kokkos::View<std::int64_t, Kokkos::CudaSpace> next;               // the next chunk to take
  int n;

#ifdef __CUDA_ARCH__
  static __device__ double warp_sum(double p) {
#pragma unroll
    for (int m = lanes / 2; m >= 1; m /= 2) p += __shfl_xor_sync(0xffffffffu, p, m);
    return p;
  }
#endif

  KOKKOS_FUNCTION void operator()(const Team& team) const {
#ifdef __CUDA_ARCH__
    const int lane   = team.team_rank();
    const int owned  = n < lanes ? n : lanes;
    const int tail   = n - owned;
    double* half     = static_cast<double*>(
        team.team_scratch(0).get_shmem_aligned(sizeof(double) * warp_qr_half(n), 16));
    double* triangle = static_cast<double*>(
        team.team_scratch(0).get_shmem(sizeof(double) * std::size_t(n) * n));
    // The reflector's column, once the chunk is in registers.
    double2* column = reinterpret_cast<double2*>(half);
    for (int e = lane; e < n * n; e += lanes) triangle[e] = 0;
    std::int64_t refused = 0;
    const std::int64_t chunks = (source.rows() + rows - 1) / rows;
    for (;;) {
      // Chunks go to whichever warp is free: no warp is left with a last
      // round of chunks while others idle, however many fit on the GPU.
      std::int64_t c = 0;
      if (lane == 0) c = Kokkos::atomic_fetch_add(&next(), std::int64_t(1));
      c = __shfl_sync(0xffffffffu, c, 0);
      if (c >= chunks) break;
      double b[rows];             // column `lane` of the chunk
      double t[halves][tails];    // rows lane, lane + 32 of the columns beyond the 32nd
#pragma unroll
      for (int h = 0; h < halves; ++h) {
        __syncwarp();
        if (!source.fill(c * rows + h * lanes + lane, half + lane, stride, n)) ++refused;
        __syncwarp();
#pragma unroll
        for (int i = 0; i < lanes; ++i)
          b[h * lanes + i] = lane < owned ? half[lane * stride + i] : 0.0;
#pragma unroll
        for (int s = 0; s < tails; ++s)
          t[h][s] = s < tail ? half[(owned + s) * stride + lane] : 0.0;
      }
      for (int k = 0; k < owned; ++k) {
        __syncwarp();
        if (lane == k) {
#pragma unroll
          for (int i = 0; i < rows / 2; ++i) column[i] = make_double2(b[2 * i], b[2 * i + 1]);
        }
        __syncwarp();
        double d0 = 0, d1 = 0, d2 = 0, d3 = 0;
#pragma unroll
        for (int i = 0; i < rows / 2; i += 2) {
          const double2 x0 = column[i], x1 = column[i + 1];
          d0 += x0.x * b[2 * i];
          d1 += x0.y * b[2 * i + 1];
          d2 += x1.x * b[2 * i + 2];
          d3 += x1.y * b[2 * i + 3];
        }
        const double d = (d0 + d1) + (d2 + d3);
        // The column's own dot product is its sum of squares.
        const double sigma = __shfl_sync(0xffffffffu, d, k);
        const double* x    = half;
        double dt[tails];
#pragma unroll
        for (int s = 0; s < tails; ++s) {
          double p = 0;
#pragma unroll
          for (int h = 0; h < halves; ++h) p += x[h * lanes + lane] * t[h][s];
          dt[s] = s < tail ? warp_sum(p) : 0.0;
        }
        if (sigma == 0) continue;  // x = 0: the identity
        const auto [beta, tau, f] = WarpQRReflection(triangle[k * n + k], sigma);
        double head[tails];
#pragma unroll
        for (int s = 0; s < tails; ++s) head[s] = s < tail ? triangle[k * n + owned + s] : 0.0;
        const double own = lane < owned && lane > k ? triangle[k * n + lane] : 0.0;
        __syncwarp();
        if (lane > k && lane < owned) {
          const double w = own + f * d;
          triangle[k * n + lane] = own - tau * w;
          const double g = tau * w * f;
#pragma unroll
          for (int i = 0; i < rows / 2; ++i) {
            const double2 xi = column[i];
            b[2 * i] -= g * xi.x;
            b[2 * i + 1] -= g * xi.y;
          }
        }
        if (lane == k) triangle[k * n + k] = beta;
#pragma unroll
        for (int s = 0; s < tails; ++s) {
          if (s < tail) {
            const double w = head[s] + f * dt[s];
            if (lane == 0) triangle[k * n + owned + s] = head[s] - tau * w;
            const double g = tau * w * f;
#pragma unroll
            for (int h = 0; h < halves; ++h) t[h][s] -= g * x[h * lanes + lane];
          }
        }
      }
      // The columns held by rows reflect among themselves.
#pragma unroll
      for (int q = 0; q < tails; ++q) {
        if (q >= tail) break;
        const int k = owned + q;
        double sigma = 0;
#pragma unroll
        for (int h = 0; h < halves; ++h) sigma += t[h][q] * t[h][q];
        sigma = warp_sum(sigma);
        if (sigma == 0) continue;
        __syncwarp();
        const auto [beta, tau, f] = WarpQRReflection(triangle[k * n + k], sigma);
#pragma unroll
        for (int s = q + 1; s < tails; ++s) {
          if (s < tail) {
            double p = 0;
#pragma unroll
            for (int h = 0; h < halves; ++h) p += t[h][q] * t[h][s];
            p                 = warp_sum(p);
            const double head = triangle[k * n + owned + s];
            const double w    = head + f * p;
            __syncwarp();
            if (lane == 0) triangle[k * n + owned + s] = head - tau * w;
            const double g = tau * w * f;
#pragma unroll
            for (int h = 0; h < halves; ++h) t[h][s] -= g * t[h][q];
          }
        }
        __syncwarp();
        if (lane == 0) triangle[k * n + k] = beta;
      }
    }
    __syncwarp();
    const std::int64_t out0 = std::int64_t(team.league_rank()) * n;
    for (int e = lane; e < n * n; e += lanes) R(out0 + e / n, e % n) = triangle[e];
#pragma unroll
    for (int m = lanes / 2; m >= 1; m /= 2) refused += __shfl_xor_sync(0xffffffffu, refused, m);
    if (lane == 0 && refused > 0) Kokkos::atomic_add(&bad(), refused);
#else
    (void)team;
#endif
  }
};

// The triangle of the rows `source` gives (n columns), by warp QR levels
// until one team is left; on the host, row-major. `bad` gets the number of
// rows the source refused (then the triangle means nothing).
template <class Source>
std::vector<double> warp_qr_triangle(const Kokkos::Cuda& space, const Source& source, int n,
                                     std::int64_t& bad) {
  using Matrix = Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::CudaSpace>;
  Kokkos::View<std::int64_t, Kokkos::CudaSpace> refused("recur::fit::refused");
  // The first level: at least as many warps as the GPU holds at once (8
  // per multiprocessor at n = 33, by registers), each folding many chunks;
  // the later ones, short, spread wider: 4 chunks a warp.
  int multiprocessors = 1;
  cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, space.cuda_device());
  const std::int64_t most = std::int64_t(multiprocessors) * 16;
  const auto level = [&](const auto& rows_of, std::int64_t rows) {
    const std::int64_t chunks = (rows + warp_qr_rows - 1) / warp_qr_rows;
    const std::int64_t teams  = std::max<std::int64_t>(1, std::min(most, chunks / 4));
    Matrix R(Kokkos::view_alloc(space, "recur::fit::R"), teams * n, n);
    using Functor = WarpQR<std::decay_t<decltype(rows_of)>>;
    Kokkos::parallel_for(
        "recur::fit[warp_qr]",
        Kokkos::TeamPolicy<Kokkos::Cuda>(space, int(teams), warp_qr_lanes, 1)
            .set_scratch_size(0, Kokkos::PerTeam(warp_qr_scratch_bytes(n))),
        Functor{rows_of, R, refused,
                Kokkos::View<std::int64_t, Kokkos::CudaSpace>("recur::fit::next"), n});
    return R;
  };
  Matrix R = level(source, source.rows());
  while (R.extent(0) > std::size_t(n)) R = level(WarpQRMatrixRows{R}, std::int64_t(R.extent(0)));
  space.fence("recur::fit: the triangle is made");
  Kokkos::deep_copy(bad, refused);
  return triangle_on_host(R);
}

}  // namespace recur::impl

#endif  // KOKKOS_ENABLE_CUDA
#endif
