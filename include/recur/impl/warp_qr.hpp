#ifndef RECUR_IMPL_WARP_QR_HPP
#define RECUR_IMPL_WARP_QR_HPP

// recur::fit's tall-skinny QR on an NVIDIA GPU: one warp per team, each
// warp folding chunks of 64 rows into its own triangle.
//
// A warp keeps an n x n triangle R (shared memory) and takes the rows 64 at
// a time: a chunk B (64 x n) is filled 32 rows at a time (from a matrix, or
// evaluated from x and y where they are read), and [R; B] is reduced to a
// new R by n Householder reflections, each of which touches row k of R and
// all of B (structured like LAPACK's tpqrt). Warps take chunks from a
// counter, each the next one (so none is left with a last round while the
// others idle), and write their triangles stacked; a next level reduces
// those, until one team is left.
//
// Two ways to apply the reflections, chosen by the device code:
// - sm_80 and later (tensor_chunks): in panels of 8 columns. Four lanes share
//   a column (16 rows each) for the panel's reflections; the later columns
//   take the whole panel at once as a block reflector I - V T V^T (compact
//   WY), three small matrix products on the FP64 tensor cores (mma.sync
//   m8n8k4), with B held in registers in the products' own operand layout.
// - before (lane_chunks): one reflection at a time over all columns. Lane j
//   holds column j of B in registers (its 64 rows), so a reflector's dot
//   product with the column and its update are each 64 multiply-adds in one
//   lane, with no reduction across lanes: the reflector's own column travels
//   through shared memory, one warp-wide broadcast read per pair of rows.
//   Columns beyond the 32nd (at most warp_qr_max_tail; a fit's y columns
//   when N = 32) are held by rows, lane l holding rows l and l + 32, and
//   their dot products are summed across the warp with shuffles.
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

// The tensor-core path (sm_80 and later): chunks of mma_qr_rows rows, the
// columns in tiles of 8 (n padded to ld = 8 tiles), the triangle ld x ld.
inline constexpr int mma_qr_rows      = 64;
inline constexpr int mma_qr_max_tiles = (warp_qr_lanes + warp_qr_max_tail + 7) / 8;

KOKKOS_INLINE_FUNCTION int mma_qr_ld(int n) { return (n + 7) / 8 * 8; }

// Doubles of the tensor path's work area: half a chunk while it is read
// (n columns of 33), then a panel's reflectors (rows x 8), the reflector's
// column (rows), Y^T Y (8 x 8), and the reflections' f and tau (8 each).
KOKKOS_INLINE_FUNCTION std::size_t mma_qr_work(int n) {
  const std::size_t half  = std::size_t(n) * (warp_qr_lanes + 1);
  const std::size_t panel = std::size_t(mma_qr_rows) * 9 + 64 + 16;
  return half > panel ? half : panel;
}

// Shared memory per team, the larger of the two paths' (which one runs is
// the device code's choice): half a chunk and the n x n triangle, or the
// work area and the ld x ld triangle.
inline std::size_t warp_qr_scratch_bytes(int n) {
  const std::size_t lanes_path  = warp_qr_half(n) + std::size_t(n) * n;
  const std::size_t tensor_path = mma_qr_work(n) + std::size_t(mma_qr_ld(n)) * mma_qr_ld(n);
  return sizeof(double) * std::max(lanes_path, tensor_path) + 16;
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
  static constexpr int Rows   = mma_qr_rows;  // the tensor path's chunk
  static_assert(Rows % lanes == 0, "the tensor path reads a chunk 32 rows at a time");

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

  // The next chunk for this warp (the same on every lane), from the counter.
  __device__ std::int64_t take(int lane) const {
    std::int64_t c = 0;
    if (lane == 0) c = Kokkos::atomic_fetch_add(&next(), std::int64_t(1));
    return __shfl_sync(0xffffffffu, c, 0);
  }

  // The warp's triangle (row stride ld) into R, and the refused rows counted.
  __device__ void finish(const Team& team, const double* triangle, int ld,
                         std::int64_t refused) const {
    __syncwarp();
    const int lane          = team.team_rank();
    const std::int64_t out0 = std::int64_t(team.league_rank()) * n;
    for (int e = lane; e < n * n; e += lanes)
      R(out0 + e / n, e % n) = triangle[(e / n) * ld + e % n];
#pragma unroll
    for (int m = lanes / 2; m >= 1; m /= 2) refused += __shfl_xor_sync(0xffffffffu, refused, m);
    if (lane == 0 && refused > 0) Kokkos::atomic_add(&bad(), refused);
  }

  // Before sm_80: lane j holds column j of a 64-row chunk, one reflection at
  // a time (the file's overview).
  __device__ void lane_chunks(const Team& team) const {
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
      const std::int64_t c = take(lane);
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
    finish(team, triangle, n, refused);
  }

#if __CUDA_ARCH__ >= 800
  // D = A B + C for an 8 x 4 by 4 x 8 product on the tensor cores (FP64): lane
  // l holds A(l / 4, l % 4), B(l % 4, l / 4), C and D (l / 4, 2 (l % 4) + {0, 1}).
  static __device__ void mma(double& d0, double& d1, double a, double b, double c0, double c1) {
    asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %5};"
        : "=d"(d0), "=d"(d1)
        : "d"(a), "d"(b), "d"(c0), "d"(c1));
  }

  // sm_80 and later: [R; B] reduced a panel of 8 columns at a time (LAPACK's
  // tpqrt with blocks of 8). The chunk B (Rows x n, columns padded to tiles of
  // 8) lives in registers as the accumulator tiles of B^T: lane l = 4 c + q
  // holds b[t][u][r] = B(8 u + 2 q + r, 8 t + c). A panel's reflections are
  // made as in the lanes' path, but each column is shared by four lanes (16
  // rows each, dot products summed over the four) and its reflector y_k stays
  // where the column was; T of the panel's block reflector I - V T V^T,
  // V = [I; Y], comes from Y^T Y (one more product) and the taus, each lane
  // solving for its own column of T. The later columns then take the
  // whole panel at once, on the tensor cores: W^T = R(panel, J)^T + B(:, J)^T Y
  // (B^T's tiles are the products' A operand as they lie, the panel's tile
  // their B operand: the rows are the sum index, in any order that both
  // share), W^T := W^T T, R(panel, J) -= W, B(:, J)^T -= W^T Y^T.
  __device__ void tensor_chunks(const Team& team) const {
    constexpr int U        = Rows / 8;  // row tiles of a chunk
    constexpr int P        = mma_qr_max_tiles;
    const int lane         = team.team_rank();
    const int c            = lane >> 2;
    const int q            = lane & 3;
    const int tiles        = (n + 7) / 8;
    const int ld           = 8 * tiles;
    double* work           = static_cast<double*>(
        team.team_scratch(0).get_shmem_aligned(sizeof(double) * mma_qr_work(n), 16));
    double* triangle       = static_cast<double*>(
        team.team_scratch(0).get_shmem(sizeof(double) * std::size_t(ld) * ld));
    double* ybuf           = work;               // Rows x 8: the panel's reflectors
    double2* xcol          = reinterpret_cast<double2*>(work + Rows * 8);  // the reflector's column
    double* gram           = work + Rows * 9;    // 8 x 8: Y^T Y
    double* scale          = gram + 64;          // 8: f of each reflection (y_k = f x)
    double* taus           = scale + 8;          // 8: tau of each reflection
    for (int e = lane; e < ld * ld; e += lanes) triangle[e] = 0;
    std::int64_t refused      = 0;
    const std::int64_t chunks = (source.rows() + Rows - 1) / Rows;
    for (;;) {
      const std::int64_t chunk = take(lane);
      if (chunk >= chunks) break;
      double b[P][U][2];
#pragma unroll
      for (int h = 0; h < Rows / lanes; ++h) {
        __syncwarp();
        if (!source.fill(chunk * Rows + h * lanes + lane, work + lane, stride, n)) ++refused;
        __syncwarp();
#pragma unroll
        for (int t = 0; t < P; ++t) {
          const int column = 8 * t + c;
#pragma unroll
          for (int u = 0; u < 4; ++u)
#pragma unroll
            for (int r = 0; r < 2; ++r)
              b[t][4 * h + u][r] = column < n ? work[column * stride + 8 * u + 2 * q + r] : 0.0;
        }
      }
#pragma unroll
      for (int p = 0; p < P; ++p) {
        if (p >= tiles) break;
        __syncwarp();
        if (lane < 8) scale[lane] = 0, taus[lane] = 0;
        const int width = n - 8 * p < 8 ? n - 8 * p : 8;
        for (int i = 0; i < width; ++i) {
          const int k = 8 * p + i;
          __syncwarp();
          if (c == i) {
#pragma unroll
            for (int u = 0; u < U; ++u) xcol[4 * u + q] = make_double2(b[p][u][0], b[p][u][1]);
          }
          __syncwarp();
          double x[U][2];
          double d0 = 0, d1 = 0, d2 = 0, d3 = 0;
#pragma unroll
          for (int u = 0; u < U; u += 2) {
            const double2 x0 = xcol[4 * u + q], x1 = xcol[4 * u + 4 + q];
            x[u][0] = x0.x, x[u][1] = x0.y, x[u + 1][0] = x1.x, x[u + 1][1] = x1.y;
            d0 += x0.x * b[p][u][0];
            d1 += x0.y * b[p][u][1];
            d2 += x1.x * b[p][u + 1][0];
            d3 += x1.y * b[p][u + 1][1];
          }
          double d = (d0 + d1) + (d2 + d3);
          d += __shfl_xor_sync(0xffffffffu, d, 1);
          d += __shfl_xor_sync(0xffffffffu, d, 2);
          // Column c's dot product with column k; column k's is its sum of squares.
          const double sigma = __shfl_sync(0xffffffffu, d, 4 * i);
          if (sigma == 0) continue;  // x = 0: the identity (tau = 0)
          const double alpha = triangle[k * ld + k];
          const double own   = triangle[k * ld + 8 * p + c];
          __syncwarp();
          const auto [beta, tau, f] = WarpQRReflection(alpha, sigma);
          // The later columns of the panel take the reflection; column k
          // keeps x until the panel ends (then y_k = f x).
          const bool later = c > i;
          const double w   = own + f * d;
          if (later && q == 0) triangle[k * ld + 8 * p + c] = own - tau * w;
          const double g = later ? tau * w * f : 0.0;
#pragma unroll
          for (int u = 0; u < U; ++u) {
            b[p][u][0] -= g * x[u][0];
            b[p][u][1] -= g * x[u][1];
          }
          if (lane == 4 * i) triangle[k * ld + k] = beta, scale[i] = f, taus[i] = tau;
        }
        __syncwarp();
        const double fc = scale[c];
#pragma unroll
        for (int u = 0; u < U; ++u) b[p][u][0] *= fc, b[p][u][1] *= fc;
        if (p + 1 >= tiles) break;
        // G = Y^T Y on the tensor cores (lane: G(c, 2 q + {0, 1})), and Y
        // for the products with Y^T.
        double g0 = 0, g1 = 0;
#pragma unroll
        for (int u = 0; u < U; ++u) {
          mma(g0, g1, b[p][u][0], b[p][u][0], g0, g1);
          mma(g0, g1, b[p][u][1], b[p][u][1], g0, g1);
        }
        gram[c * 8 + 2 * q]     = g0;
        gram[c * 8 + 2 * q + 1] = g1;
#pragma unroll
        for (int u = 0; u < U; ++u) {
          ybuf[(8 * u + 2 * q) * 8 + c]     = b[p][u][0];
          ybuf[(8 * u + 2 * q + 1) * 8 + c] = b[p][u][1];
        }
        __syncwarp();
        // Column c of T, from T^-1 = diag(1 / tau) + the strict upper part of
        // G (Y^T Y = V^T V - I; dlarfg's tau = 2 / v^T v): T(c, c) = tau_c,
        // T(i, c) = -tau_i sum_{j > i} G(i, j) T(j, c), zero below.
        double tc[8], sum[8];
#pragma unroll
        for (int i = 0; i < 8; ++i) sum[i] = 0;
#pragma unroll
        for (int j = 7; j >= 0; --j) {
          const double tj = j > c ? 0.0 : j == c ? taus[j] : -taus[j] * sum[j];
          tc[j]           = tj;
#pragma unroll
          for (int i = 0; i < j; ++i) sum[i] += gram[i * 8 + j] * tj;
        }
        const double t0 = q == 0 ? tc[0] : q == 1 ? tc[2] : q == 2 ? tc[4] : tc[6];
        const double t1 = q == 0 ? tc[1] : q == 1 ? tc[3] : q == 2 ? tc[5] : tc[7];
        double yt[U][2];  // Y(8 u + c, 2 q + s): Y^T as a B operand
#pragma unroll
        for (int u = 0; u < U; ++u) {
          const double2 y = *reinterpret_cast<const double2*>(ybuf + (8 * u + c) * 8 + 2 * q);
          yt[u][0] = y.x, yt[u][1] = y.y;
        }
#pragma unroll
        for (int t = p + 1; t < P; ++t) {
          if (t >= tiles) break;
          double* r0      = triangle + (8 * p + 2 * q) * ld + 8 * t + c;
          const double a0 = r0[0], a1 = r0[ld];
          // W^T(c, 2 q + {0, 1}) for the columns 8 t + c.
          double w0 = a0, w1 = a1;
#pragma unroll
          for (int u = 0; u < U; ++u) {
            mma(w0, w1, b[t][u][0], b[p][u][0], w0, w1);
            mma(w0, w1, b[t][u][1], b[p][u][1], w0, w1);
          }
          double v0, v1;
          mma(v0, v1, w0, t0, 0.0, 0.0);
          mma(v0, v1, w1, t1, v0, v1);
          r0[0]  = a0 - v0;
          r0[ld] = a1 - v1;
#pragma unroll
          for (int u = 0; u < U; ++u) {
            mma(b[t][u][0], b[t][u][1], -v0, yt[u][0], b[t][u][0], b[t][u][1]);
            mma(b[t][u][0], b[t][u][1], -v1, yt[u][1], b[t][u][0], b[t][u][1]);
          }
        }
      }
    }
    finish(team, triangle, ld, refused);
  }
#endif
#endif

  KOKKOS_FUNCTION void operator()(const Team& team) const {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    tensor_chunks(team);
#elif defined(__CUDA_ARCH__)
    lane_chunks(team);
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
