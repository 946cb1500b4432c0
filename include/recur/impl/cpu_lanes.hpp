#ifndef RECUR_IMPL_CPU_LANES_HPP
#define RECUR_IMPL_CPU_LANES_HPP

// Three-term recurrences and power sums on x86 CPUs with AVX2 and FMA, in
// explicit SIMD: R rows of a lockstep block (lockstep.hpp) as R / L vectors
// of L lanes, in plain float or double (float results, recur::Fast, power
// sums) and in double-double (double results, recur::Accurate: a vector of
// leading and one of trailing parts). GCC 12 vectorized none of the scalar lockstep's
// lanes (no packed FMA in the binary), and with `omp simd` kept the lanes in
// memory: 18-24 ms for float He_n at M = 2^20, N = 32 on 2 cores, 9 with
// these vectors (docs/performance.md, "CPU, 2026-12-01, 20:15-21:15 UTC").
//
// The operations are the scalar ones (step() and affine() of numbers.hpp
// with hardware FMA, and their bounded double-double forms, written the same
// way so that the compiler fuses them the same way), so every value is the
// same, bit for bit, whatever the policy or the lane. A block's column
// (LayoutLeft) goes to V as two whole cache lines, with non-temporal stores
// where V is large (`stream`): what a streamed fill does, skipping the read
// of each line a plain store pays for (one line, for float results of double
// lanes and of power sums: streaming two blocks through a tile in L1, so
// that every piece was two lines, made float He_n/sqrt(n!) Accurate 1.3
// times slower, 11.0-11.5 against 8.3-8.5 ms, and power sums 7-15 % faster).
// Rows (LayoutRight) go through a tile of the last few columns in L1 cache,
// transposed in registers and stored 32 bytes a row, or, where streamed,
// one or two whole lines of each row at once while the next tile fills
// (RowTiles).
//
// series.hpp's Clenshaw sums for double results (double-double) run in the
// same vectors (clenshaw below), 16 x a block.
//
// Elsewhere (other CPUs, other compilers, GPUs) RECUR_IMPL_CPU_LANES is not
// defined and the scalar lockstep runs.

#include <recur/impl/kokkos_compat.hpp>
#include <recur/impl/numbers.hpp>

#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__) && defined(__GNUC__) && \
    defined(__AVX2__) && defined(__FMA__)
#define RECUR_IMPL_CPU_LANES 1
#include <immintrin.h>
#endif

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace recur::impl {

#ifdef RECUR_IMPL_CPU_LANES
// The lanes' helpers and lambdas inlined whatever their size: one left out
// of line keeps the states in memory (arrays whose address escapes) or
// spills every vector register around its call. (Not in sanitizer builds,
// whose speed does not matter and whose compile it slowed by a third.)
#ifdef __SANITIZE_ADDRESS__
#define RECUR_LANES_INLINE
#else
#define RECUR_LANES_INLINE __attribute__((always_inline))
#endif
#endif

struct NoPrefactor;
template <class W, class MemorySpace, class Prefactor>
struct ThreeTermKernel;

struct PowerSumsScan;

// What the vectors below run: a three-term kernel without prefactor in
// float, double or double-double, and power sums.
template <class Scan>
struct is_lane_scan : std::is_same<Scan, PowerSumsScan> {};
template <class W, class MemorySpace>
struct is_lane_scan<ThreeTermKernel<W, MemorySpace, NoPrefactor>>
    : std::bool_constant<std::is_same_v<W, float> || std::is_same_v<W, double> ||
                         std::is_same_v<W, DoubleDouble>> {};

// V at least this large is written with non-temporal stores (about the last
// level cache of a CPU socket; glibc's memset switches at a similar size).
inline constexpr std::size_t stream_bytes = std::size_t(16) << 20;

// Rows of a CPU lockstep block where the vectors below run: four vectors'
// worth of float or double lanes (32 float, 16 double rows), 16 rows of
// double-double and of power sums (states in double), 8 where the vectors do
// not run. A step is a chain of dependent multiply-adds, so more vectors in
// flight hide their latency, and a block's piece of each column is then 128
// bytes: on this project's Intel VM non-temporal stores reach the streamed
// fill's rate only two whole lines at a time (LayoutLeft 128 MiB in 64-byte
// pieces 32 columns apart 4.9 ms, in 128-byte pieces 2.9 ms, contiguous
// 2.9). With 16 float / 8 double rows there (2026-12-04, perf_tests/lanes_ab.cpp)
// float He_n/sqrt(n!) Fast LayoutLeft took 6.0 ms, double 11.7; with these
// 4.6 and 8.3, though x and some states now spill from AVX2's 16 registers.
// (On the AMD EPYC VM that ran these first, four vectors had spilled the
// states and run 1.2-1.9 times slower than two.) Float results of double
// lanes (recur::Accurate, and power sums) in column slices (LayoutLeft) take
// 32 rows where the build has AVX-512's 32 vector registers (__AVX512VL__):
// eight vectors, so that a block's piece of each column is 128 bytes of
// float without spilling (float He_n/sqrt(n!) Accurate 5.3-5.6 ms against
// 6.0-6.6, power sums 3.9-4.1 against 5.8-6.2). Rows keep 16 (LayoutRight
// 7.3-8.3 ms against 7.4-8.0 in the A/B, 8.1-8.5 against 7.3-7.8 in the
// suite), and so do double results (with 32, double Fast LayoutRight ran
// 9.5-9.8 ms against 8.9-9.1); docs/performance.md, "CPU, 2026-12-04: Kokkos
// for AVX-512". T: V's values; Columns: V's columns contiguous (LayoutLeft).
template <class Scan, class T, bool Columns>
inline constexpr int cpu_block =
#ifdef RECUR_IMPL_CPU_LANES
    !is_lane_scan<Scan>::value                                ? 8
    : std::is_same_v<typename Scan::number_type, float>       ? 32
#ifdef __AVX512VL__
    : Columns && std::is_same_v<typename Scan::number_type, double> &&
            std::is_same_v<T, float>
        ? 32
#endif
        : 16;
#else
    8;
#endif

// Whether the lockstep's vectors write V with non-temporal stores: V large,
// and either its columns contiguous (LayoutLeft) with a block's piece of
// each column (`rows` values) whole aligned cache lines, or its rows
// contiguous (LayoutRight) with every row starting a cache line: rows then
// go out one or two whole lines of each at once (rows below). Never part
// of a line: on Intel CPUs non-temporal stores of half lines, 32 columns
// apart, ran 20 times slower than plain stores (float results in double
// lanes, 8 rows of 4 bytes a block, M = 2^20, N = 32: 149-153 ms, 8.5-9.1 ms
// with plain stores).
template <class VView>
bool streams(const VView& V, int rows) {
  using T = typename VView::value_type;
  const auto address = reinterpret_cast<std::uintptr_t>(V.data());
  if (V.span() * sizeof(T) < stream_bytes || address % 64 != 0) return false;
  if (V.stride_0() == 1)
    return std::size_t(rows) * sizeof(T) % 64 == 0 && V.stride_1() * sizeof(T) % 64 == 0;
  return V.stride_1() == 1 && V.stride_0() * sizeof(T) % 64 == 0;
}

#ifdef RECUR_IMPL_CPU_LANES
namespace cpu_lanes {

// GCC's vector types (their operators act lane by lane; __m256d and __m256
// are the same types).
template <class W>
struct VecOf;
template <>
struct VecOf<double> {
  typedef double type __attribute__((vector_size(32)));
};
template <>
struct VecOf<float> {
  typedef float type __attribute__((vector_size(32)));
};
template <class W>
using Vec = typename VecOf<W>::type;

// The numbers of a vector's lanes: one vector for float and double, a
// vector of leading and one of trailing parts for double-double.
struct Pair {
  Vec<double> hi;
  Vec<double> lo;
};
template <class W>
struct LanesOf {
  using type    = Vec<W>;
  using element = W;
};
template <>
struct LanesOf<DoubleDouble> {
  using type    = Pair;
  using element = double;
};
template <class W>
using Lanes = typename LanesOf<W>::type;
template <class W>
using Element = typename LanesOf<W>::element;

template <class E>
inline constexpr int width = int(32 / sizeof(E));

// f(g) for g = 0, 1, ..., G - 1, each g a compile-time constant.
template <class F, int... g>
RECUR_LANES_INLINE inline void each(const F& f, std::integer_sequence<int, g...>) {
  (f(std::integral_constant<int, g>{}), ...);
}
template <int G, class F>
RECUR_LANES_INLINE inline void each(const F& f) {
  each(f, std::make_integer_sequence<int, G>{});
}

// Whether a lockstep block of B rows of Scan runs in these vectors.
template <class Scan, int B>
inline constexpr bool runs = is_lane_scan<Scan>::value &&
                             B % (2 * width<Element<typename Scan::number_type>>) == 0;

inline Vec<double> fused(Vec<double> a, Vec<double> b, Vec<double> c) {
  return _mm256_fmadd_pd(a, b, c);
}
inline Vec<float> fused(Vec<float> a, Vec<float> b, Vec<float> c) {
  return _mm256_fmadd_ps(a, b, c);
}
inline Vec<double> splat(double v) { return _mm256_set1_pd(v); }
inline Vec<float> splat(float v) { return _mm256_set1_ps(v); }
// A vector of lane(0), lane(1), ... built in registers: a vector load of
// numbers just stored one at a time waits for every older store to reach
// the cache, V's included, which serialized the kernel on memory (43-62 % of
// its time in one load).
template <class W, class Lane>
inline Vec<W> lanes(const Lane& lane) {
  if constexpr (std::is_same_v<W, double>) {
    return _mm256_set_pd(lane(3), lane(2), lane(1), lane(0));
  } else {
    return _mm256_set_ps(lane(7), lane(6), lane(5), lane(4), lane(3), lane(2), lane(1), lane(0));
  }
}

// Whether any lane of a comparison's result is true (all bits set).
template <class Mask>
inline bool any(Mask m) {
  static_assert(sizeof(Mask) == 32);
  return _mm256_movemask_epi8(__m256i(m)) != 0;
}

// Numbers as lanes: the same number in every lane, lane(0), lane(1), ...,
// lane l's number, and the leading parts (what is stored and checked).
inline Vec<float> splat_number(float v) { return splat(v); }
inline Vec<double> splat_number(double v) { return splat(v); }
inline Pair splat_number(const DoubleDouble& v) { return {splat(v.hi), splat(v.lo)}; }
template <class W, class Lane>
inline Lanes<W> number_lanes(const Lane& lane) {
  if constexpr (std::is_same_v<W, DoubleDouble>) {
    return {lanes<double>([&](int l) { return lane(l).hi; }),
            lanes<double>([&](int l) { return lane(l).lo; })};
  } else {
    return lanes<W>(lane);
  }
}
inline DoubleDouble number(const Pair& v, int l) { return {v.hi[l], v.lo[l]}; }
// (Templates over the vector type V, Vec<float> or Vec<double>.)
template <class V>
inline V leading(V v) {
  return v;
}
inline Vec<double> leading(const Pair& v) { return v.hi; }
// The lanes of a vector into out[0 .. L - 1], the vector taken by value (an
// element access or a pointer to it would keep the vectors in memory).
inline void unpack(Vec<float> v, float* out) { _mm256_storeu_ps(out, __m256(v)); }
inline void unpack(Vec<double> v, double* out) { _mm256_storeu_pd(out, __m256d(v)); }
inline void unpack(Pair v, DoubleDouble* out) {
  alignas(32) double hi[4], lo[4];
  _mm256_store_pd(hi, __m256d(v.hi));
  _mm256_store_pd(lo, __m256d(v.lo));
  for (int l = 0; l < 4; ++l) out[l] = {hi[l], lo[l]};
}

// One step p_{n+1} = (a x + b) p_n - c p_{n-1}: step(affine(a, x, b), p_n,
// c, p_{n-1}) of numbers.hpp, lane by lane. Exact: with its rule for f = 0
// (0 - c p_{n-1}); without, for blocks where no lane's f can be 0 (rows()
// below), the same numbers in fewer instructions (the compare and select
// of every step cost float Accurate 1.3 times, double Fast 1.1-1.15 times,
// docs/performance.md, "CPU, 2026-12-04").
template <bool Exact = true, class V>
inline V step(V ka, V kb, V kc, V x, V current, V previous, bool /* zero_b */) {
  const V zero{};
  const V f = fused(ka, x, kb), p = kc * previous;
  if constexpr (Exact) {
    return f == zero ? zero - p : fused(f, current, -p);
  } else {
    return fused(f, current, -p);
  }
}
// The same in double-double: the bounded affine() and step() of numbers.hpp,
// each expression written as there.
inline Pair two_sum(Vec<double> a, Vec<double> b) {
  const Vec<double> s = a + b, bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}
inline Pair fast_two_sum(Vec<double> a, Vec<double> b) {
  const Vec<double> s = a + b;
  return {s, b - (s - a)};
}
// zero_b: ThreeTermKernel::zero_b (f = affine(a, x)).
inline Pair step(const Pair& ka, const Pair& kb, const Pair& kc, Vec<double> x,
                 const Pair& current, const Pair& previous, bool zero_b) {
  const Vec<double> zero{};
  // f = affine(a, x, b), or affine(a, x)
  const Vec<double> pa = ka.hi * x;
  Pair f;
  if (zero_b) {
    f = {pa, fused(ka.lo, x, fused(ka.hi, x, -pa))};
  } else {
    const Pair sa = two_sum(pa, kb.hi);
    f             = {sa.hi, sa.lo + fused(ka.lo, x, fused(ka.hi, x, -pa) + kb.lo)};
  }
  // f p_n - c p_{n-1}
  const Vec<double> p = f.hi == zero ? zero : f.hi * current.hi;
  const Vec<double> q = kc.hi * previous.hi;
  const Pair s        = two_sum(p, -q);
  const Vec<double> t =
      fused(f.hi, current.lo, fused(f.lo, current.hi, fused(f.hi, current.hi, -p)));
  const Vec<double> u =
      fused(kc.hi, previous.lo, fused(kc.lo, previous.hi, fused(kc.hi, previous.hi, -q)));
  return fast_two_sum(s.hi, s.lo + (t - u));
}

// Two vectors of lanes as T, into 8 (float from double) or 2 x 4 or 2 x 8
// consecutive T, in 32-byte stores, non-temporal (p aligned to 32 bytes)
// where `stream`. (transposed_rows reads the tile back in 16-byte halves of
// these stores: a load spanning two smaller stores would not be forwarded
// from them.)
inline void store(float* p, __m256 v, bool stream) {
  stream ? _mm256_stream_ps(p, v) : _mm256_storeu_ps(p, v);
}
inline void store(double* p, __m256d v, bool stream) {
  stream ? _mm256_stream_pd(p, v) : _mm256_storeu_pd(p, v);
}
inline void put(float* p, Vec<double> a, Vec<double> b, bool stream) {
  store(p, _mm256_set_m128(_mm256_cvtpd_ps(__m256d(b)), _mm256_cvtpd_ps(__m256d(a))), stream);
}
// (Two 32-byte stores, not one of 64 bytes where the build has AVX-512:
// with 512-bit instructions in flight the CPU gives up one of the ports
// that run 256-bit arithmetic, and double-double LayoutLeft took 13.2-17.9
// ms against 13.2-13.4, float He_n Fast 4.0-4.1 against 3.5-3.6, on this
// project's Intel VM; docs/performance.md, "CPU, 2026-12-04, evening".)
inline void put(double* p, Vec<double> a, Vec<double> b, bool stream) {
  store(p, __m256d(a), stream);
  store(p + 4, __m256d(b), stream);
}
inline void put(float* p, Vec<float> a, Vec<float> b, bool stream) {
  store(p, __m256(a), stream);
  store(p + 8, __m256(b), stream);
}

// Float lanes whose lanes carry binary exponents e (Scaled, numbers.hpp),
// as their values u0 2^e in double, in two vectors (lanes 0-3, 4-7):
// T(scaled_value(u0, e)) once rounded to float. e >= 0 (states only ever
// scale down); past 2^1023 every nonzero float u0 comes out as ±inf, as
// times_power_of_two's further factors give too, so 2^min(e, 1023) does.
inline void scaled_halves(Vec<float> v, __m256i e, Vec<double>& low, Vec<double>& high) {
  const __m256i k = _mm256_min_epi32(e, _mm256_set1_epi32(1023));
  const auto factor = [](__m128i k4) {  // 2^k of four int32 k in [0, 1023], from its bits
    return Vec<double>(_mm256_castsi256_pd(
        _mm256_slli_epi64(_mm256_add_epi64(_mm256_cvtepi32_epi64(k4), _mm256_set1_epi64x(1023)), 52)));
  };
  low  = Vec<double>(_mm256_cvtps_pd(_mm256_castps256_ps128(__m256(v)))) *
        factor(_mm256_castsi256_si128(k));
  high = Vec<double>(_mm256_cvtps_pd(_mm256_extractf128_ps(__m256(v), 1))) *
         factor(_mm256_extracti128_si256(k, 1));
}

// keep_both_in_range (numbers.hpp) for 8 float lanes of states (u0, u1) with
// binary exponents e: the lanes past Range<float>::limit scaled by 2^-k, k
// the exponent of their larger magnitude, and k added to e, in vector
// operations and bit for bit as the scalar lanes do (a float times a power of
// two rounds once either way; k <= 127 here, 2^-127 a subnormal float). A lane
// at ±inf (which the scalar lanes scale by 2^-1022) is left to them: returns
// false, nothing changed.
inline bool keep_in_range(Vec<float>& u0, Vec<float>& u1, __m256i& e) {
  const __m256 sign = _mm256_set1_ps(-0.0f);
  // largest(u0, u1): |u0| > |u1| ? |u0| : |u1| (NaN gives |u1|), as max_ps
  const __m256 m = _mm256_max_ps(_mm256_andnot_ps(sign, __m256(u0)), _mm256_andnot_ps(sign, __m256(u1)));
  const __m256i over =
      _mm256_castps_si256(_mm256_cmp_ps(m, _mm256_set1_ps(float(Range<float>::limit)), _CMP_GT_OQ));
  const __m256i field = _mm256_and_si256(_mm256_srli_epi32(_mm256_castps_si256(m), 23), _mm256_set1_epi32(0xff));
  if (any(_mm256_and_si256(over, _mm256_cmpeq_epi32(field, _mm256_set1_epi32(0xff))))) return false;
  const __m256i k = _mm256_and_si256(over, _mm256_sub_epi32(field, _mm256_set1_epi32(127)));
  const __m256i factor = _mm256_blendv_epi8(
      _mm256_slli_epi32(_mm256_sub_epi32(_mm256_set1_epi32(127), k), 23),  // 2^-k, k <= 126 (k = 0: 1)
      _mm256_set1_epi32(1 << 22),                                          // 2^-127
      _mm256_cmpeq_epi32(k, _mm256_set1_epi32(127)));
  u0 = Vec<float>(_mm256_mul_ps(__m256(u0), _mm256_castsi256_ps(factor)));
  u1 = Vec<float>(_mm256_mul_ps(__m256(u1), _mm256_castsi256_ps(factor)));
  e  = _mm256_min_epi32(_mm256_add_epi32(e, k), _mm256_set1_epi32(exponent_limit));
  return true;
}

// Rows r0 .. r0 + Q / 2 - 1 of V from column c0 of a column-major tile
// (from[c0 ..][r0 ..], columns of R), Q = 32 / sizeof(T) values of each, in
// registers: the Q x Q block's transpose, half of it. The lane-crossing step
// is done by the loads (16-byte halves inserted, which the load ports and any
// vector port take) and half of the in-lane shuffles by blends, so that the
// one port that shuffles does 6 shuffles for 4 x 8 floats (not 12) and 2 for
// 2 x 4 doubles (not 4).
template <int R>
inline void transposed_rows(const float (*from)[R], int r0, int c0, __m256 (&row)[4]) {
  // v[k]: rows r0 .. r0 + 3 of columns c0 + k (low half) and c0 + k + 4 (high half)
  __m256 v[4];
  for (int k = 0; k < 4; ++k)
    v[k] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_load_ps(&from[c0 + k][r0])),
                                _mm_load_ps(&from[c0 + k + 4][r0]), 1);
  // Each 16-byte lane a 4 x 4 transpose.
  const __m256 t0 = _mm256_unpacklo_ps(v[0], v[1]);  // c0r0 c1r0 c0r1 c1r1
  const __m256 t1 = _mm256_unpackhi_ps(v[0], v[1]);  // c0r2 c1r2 c0r3 c1r3
  const __m256 t2 = _mm256_unpacklo_ps(v[2], v[3]);
  const __m256 t3 = _mm256_unpackhi_ps(v[2], v[3]);
  const __m256 s0 = _mm256_shuffle_ps(t0, t2, 0x4E);  // c0r1 c1r1 c2r0 c3r0
  const __m256 s1 = _mm256_shuffle_ps(t1, t3, 0x4E);
  row[0] = _mm256_blend_ps(t0, s0, 0xCC);
  row[1] = _mm256_blend_ps(s0, t2, 0xCC);
  row[2] = _mm256_blend_ps(t1, s1, 0xCC);
  row[3] = _mm256_blend_ps(s1, t3, 0xCC);
}
template <int R>
inline void transposed_rows(const double (*from)[R], int r0, int c0, __m256d (&row)[2]) {
  // v[k]: rows r0, r0 + 1 of columns c0 + k (low half) and c0 + k + 2 (high half)
  __m256d v[2];
  for (int k = 0; k < 2; ++k)
    v[k] = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_load_pd(&from[c0 + k][r0])),
                                _mm_load_pd(&from[c0 + k + 2][r0]), 1);
  row[0] = _mm256_unpacklo_pd(v[0], v[1]);
  row[1] = _mm256_unpackhi_pd(v[0], v[1]);
}
template <class T>
struct RowOf;  // a vector of T
template <>
struct RowOf<float> {
  using type = __m256;
};
template <>
struct RowOf<double> {
  using type = __m256d;
};

// Rows' tiles, carried by a work item from block to block (rows below): the
// tile being filled with a block's columns, and the one filled before it,
// whose rows are stored while the next columns are computed, Q / 2 rows
// (a group) every few steps. Storing a tile's rows all at once when it is
// full was slower: float He_n/sqrt(n!) Fast LayoutRight 5.1-5.2 ms at M =
// 2^20, N = 32, against 4.6-4.8 this way, double 8.2-8.3 against 7.8-8.4
// (docs/performance.md, "CPU, 2026-12-04, evening").
template <class T, int R>
struct RowTiles {
  static constexpr int Q      = 32 / int(sizeof(T));
  static constexpr int H      = Q / 2;  // rows a group
  static constexpr int groups = R / H;
  alignas(64) T tile[2][4 * Q][R];
  int fill = 0;        // the tile being filled
  int width = 0;       // the other's columns (QT of rows below)
  int next = groups;   // its first group not yet stored (groups: none)
  T* to = nullptr;     // where its first row goes, the others ld apart
  std::ptrdiff_t ld = 0;
};

// Group `tiles.next` of the full tile: its Q / 2 rows transposed in
// registers and stored row after row, Blocks x Q columns of each
// (non-temporal: one or two whole lines each, in order).
template <int Blocks, class T, int R>
RECUR_LANES_INLINE inline void store_group(RowTiles<T, R>& tiles) {
  constexpr int Q = RowTiles<T, R>::Q, H = RowTiles<T, R>::H;
  const int r0 = tiles.next++ * H;
  typename RowOf<T>::type out[Blocks][H];
  for (int b = 0; b < Blocks; ++b) transposed_rows<R>(tiles.tile[1 - tiles.fill], r0, b * Q, out[b]);
  for (int k = 0; k < H; ++k)
    for (int b = 0; b < Blocks; ++b) store(tiles.to + (r0 + k) * tiles.ld + b * Q, out[b][k], true);
}

// The full tile's groups not yet stored (a work item's last, before its
// store fence).
template <class T, int R>
inline void store_rows_left(RowTiles<T, R>& tiles) {
  constexpr int Q = RowTiles<T, R>::Q;
  while (tiles.next < RowTiles<T, R>::groups) {
    if (tiles.width == 4 * Q) {
      store_group<4>(tiles);
    } else {
      store_group<2>(tiles);
    }
  }
}

// Columns 0, 1, ... of the R rows of V from i0 (R an even multiple of the
// lanes of a vector) for a three-term kernel without prefactor or power sums
// (PowerSumsScan, scan_form.hpp: states (x, x), scaled in double), whose states
// start plain (u0 = p_0 or NaN outside the domain, u1 = 0) and are checked
// every check_period steps, until column N - 1 or, in double and
// double-double, until a check finds a lane past Range<W>::limit. Float
// lanes (recur::Fast, float results) scale there themselves, lane by lane
// with keep_both_in_range as the scalar lanes do, and carry on: float's
// limit (2^28) is passed early (He_n at |x| <= 1 from n = 17). Returns the
// number of steps done, with the states after them in u0 and u1 and their
// columns stored; the caller carries on from there (scaling the lanes first
// when fewer than N - 1 steps were done). Between two checks the steps run
// in a loop with the store's form (columns or rows, streamed or not, scaled
// or not) fixed at compile time and no access to single lanes: one loop
// choosing per step, with the scaling lane by lane, kept the lanes in memory
// (float He_n/sqrt(n!) at M = 2^12, N = 32, in cache, one thread: 31 against
// 23 us a call, docs/performance.md).
template <int R, class Scan, class XView, class VView, class W = typename Scan::number_type,
          class T = typename VView::non_const_value_type>
int rows(const Scan& scan, const XView& xv, const VView& V, std::int64_t i0, int N,
         W (&u0)[R], W (&u1)[R], bool stream, RowTiles<T, R>& tiles) {
  using E         = Element<W>;
  constexpr int L = width<E>;
  constexpr int G = R / L;                 // vectors of lanes
  constexpr int Q = 32 / int(sizeof(T));  // rows: Q x Q blocks transposed
  constexpr int P = Scan::check_period;
  static_assert(G % 2 == 0, "recur: cpu_lanes::rows stores vectors in pairs");
  // LayoutLeft-like, else rows contiguous (LayoutRight: rows, whatever N,
  // so that its code is the rows' only)
  const bool columns =
      !std::is_same_v<typename VView::array_layout, Kokkos::LayoutRight> && V.stride_0() == 1;
  // Rows: the last QT columns in the tile, QT = Q; with non-temporal stores
  // 4 Q (two whole cache lines of each row, stored one after the other)
  // where rows are whole pairs of lines and N reaches 4 Q, else 2 Q (one
  // line). Two lines of a row at once: on this project's Intel VM rows of
  // 128 bytes streamed a line of each of 16 rows, then the other line of
  // each, took 4.0 ms for 128 MiB where row after row took 2.9.
  const int QT = columns || !stream ? Q
                 : N >= 4 * Q && V.stride_0() * std::ptrdiff_t(sizeof(T)) % 128 == 0 ? 4 * Q
                                                                                 : 2 * Q;
  T(*tile)[R] = tiles.tile[tiles.fill];  // rows: the tile being filled
  // V's elements through a pointer and strides held here: the vector stores
  // below may alias anything (__m256 is may_alias), so V's own would be
  // loaded again after each.
  T* const data             = V.data();
  const std::ptrdiff_t s0   = V.stride_0(), s1 = V.stride_1();
  const auto at             = [=](std::int64_t i, int j) { return data + i * s0 + j * s1; };
  Vec<E> x[G];
  Lanes<W> a0[G], a1[G];
  constexpr bool power_sums = std::is_same_v<Scan, PowerSumsScan>;
  // (Here and below, each vector by a constant index: a loop over them
  // left rolled when the compiler's scalar replacement ran kept every state
  // in memory, written back at every step.)
  each<G>([&](auto g) RECUR_LANES_INLINE {
    // affine(float, ...) rounds x to float; start() of the scan form.
    x[g] = lanes<E>([&](int l) { return E(double(xv(i0 + g * L + l))); });
    if constexpr (power_sums) {
      a0[g] = lanes<E>([&](int l) {
        const double v = double(xv(i0 + g * L + l));
        return in_domain<W>(v) ? v : not_a_number<W>();
      });
      a1[g] = x[g];
    } else {
      a0[g] = number_lanes<W>([&](int l) {
        return in_domain<W>(double(xv(i0 + g * L + l))) ? scan.initial : not_a_number<W>();
      });
      a1[g] = splat_number(W{});
    }
  });
  const Vec<E> limit = splat(E(Range<W>::limit));
  // Whether some lane's f = a_n x + b_n can be 0 (step()'s rule for it then
  // runs at every step): not where b_n = 0, every |x| and |a_n| are at least
  // 2^-60 (so |a_n x| is at least 2^-120, a normal float: no product
  // rounds to 0); a NaN x gives f = NaN, never 0.
  constexpr bool inexact = !power_sums && std::is_same_v<W, double>;  // (float lanes: measured slower)
  bool zero_rule = true;
  if constexpr (inexact) {
    if (scan.zero_b) {
      const Vec<E> tiny = splat(E(0x1p-60));
      bool small = false;
#pragma GCC unroll 8
      for (int g = 0; g < G; ++g) small = small || any((x[g] < tiny) & (x[g] > -tiny));
      bool small_a = false;
      for (int n = 0; n + 1 < N; ++n) {
        const double a = double(scan.coefficients(n).a);
        small_a = small_a || !(a >= 0x1p-60 || a <= -0x1p-60);
      }
      zero_rule = small || small_a;
    }
  }
  // Float lanes: each lane's binary exponent (Scaled), once any lane scaled.
  constexpr bool scales = std::is_same_v<W, float>;
  __m256i ev[G];
#pragma GCC unroll 8
  for (int g = 0; g < G; ++g) ev[g] = _mm256_setzero_si256();
  bool scaled = false;

  // One step of every lane: column `col - 1` to `col`.
  const auto advance = [&](int col, auto exact_c) RECUR_LANES_INLINE {
    if constexpr (power_sums) {
      (void)exact_c;
      // PowerSumsScan::advance: (sum, x^n) -> (sum + x^n x, x^(n+1))
#pragma GCC unroll 8
      for (int g = 0; g < G; ++g) {
        const Vec<E> power = a1[g] * x[g];
        a0[g]              = fused(a1[g], x[g], a0[g]);
        a1[g]              = power;
      }
    } else {
      // scan.load(col - 1), broadcast from the table itself (a copy of the
      // coefficients went through the stack)
      const auto& k     = scan.coefficients(col - 1);
      const Lanes<W> ka = splat_number(k.a), kb = splat_number(k.b), kc = splat_number(k.c);
#pragma GCC unroll 8
      for (int g = 0; g < G; ++g) {
        Lanes<W> next;
        if constexpr (std::is_same_v<W, DoubleDouble>) {
          next = step(ka, kb, kc, x[g], a0[g], a1[g], scan.zero_b);
        } else {
          next = step<decltype(exact_c)::value>(ka, kb, kc, x[g], a0[g], a1[g], scan.zero_b);
        }
        a1[g]               = a0[g];
        a0[g]               = next;
      }
    }
  };
  // Column `col` of the lanes: straight to V (LayoutLeft-like: a whole
  // cache line or two of each column), or into the tile (rows), transposed
  // in registers every QT columns and stored 32 bytes a row, or QT / Q
  // blocks' worth of each row (one or two whole lines), non-temporal, where
  // `stream`. Columns, Stream (rows: QT / Q, 1 without streaming) and
  // Scaled known at compile time keep the branches out of the steps' loop.
  const auto store_column = [&](int col, auto columns_c, auto stream_c, auto scaled_c)
                                RECUR_LANES_INLINE {
    constexpr bool Columns = decltype(columns_c)::value;
    constexpr bool Stream  = Columns ? bool(decltype(stream_c)::value) : decltype(stream_c)::value > 1;
    constexpr int Blocks   = Columns ? 1 : int(decltype(stream_c)::value);  // of the tile
    constexpr int Width    = Blocks * Q;                                      // its columns
    if constexpr (decltype(scaled_c)::value) {  // values u0 2^e, 8 floats a store
#pragma GCC unroll 8
      for (int g = 0; g < G; ++g) {
        Vec<double> low, high;
        scaled_halves(a0[g], ev[g], low, high);
        put(Columns ? at(i0 + g * L, col) : &tile[col % Width][g * L], low, high, Columns && Stream);
      }
    } else {
#pragma GCC unroll 8
      for (int g = 0; g < G; g += 2)
        put(Columns ? at(i0 + g * L, col) : &tile[col % Width][g * L], leading(a0[g]),
            leading(a0[g + 1]), Columns && Stream);
    }
    if constexpr (!Columns) {
      constexpr int H = Q / 2, groups = R / H;
      if constexpr (Stream) {
        // A group of the full tile every Width / groups columns; this tile
        // full: the other's last groups (normally none), then the tiles
        // swap, this one's rows to go out in the next Width columns.
        static_assert(Width % groups == 0, "recur: cpu_lanes::rows spreads a tile's groups evenly");
        if (tiles.next < groups && col % (Width / groups) == 0) store_group<Blocks>(tiles);
        if (col % Width == Width - 1) {
          while (tiles.next < groups) store_group<Blocks>(tiles);
          tiles.fill ^= 1;
          tile        = tiles.tile[tiles.fill];
          tiles.width = Width;
          tiles.next  = 0;
          tiles.to    = at(i0, col + 1 - Width);
          tiles.ld    = s0;
        }
      } else if (col % Width == Width - 1) {  // in cache: the rows at once, 32 bytes of each
        for (int r0 = 0; r0 < R; r0 += H) {
          typename RowOf<T>::type out[H];
          transposed_rows<R>(tile, r0, 0, out);
          for (int k = 0; k < H; ++k) store(at(i0 + r0 + k, col + 1 - Q), out[k], false);
        }
      }
    }
  };
  // Columns [begin, end), no check between: each stored, each after the
  // first reached by a step (the first is column 0 or was just checked).
  const auto steps = [&](int begin, int end, auto columns_c, auto stream_c, auto scaled_c,
                         auto exact_c) RECUR_LANES_INLINE {
    store_column(begin, columns_c, stream_c, scaled_c);
    for (int col = begin + 1; col < end; ++col) {
      advance(col, exact_c);
      store_column(col, columns_c, stream_c, scaled_c);
    }
  };
  const auto run = [&](int begin, int end) RECUR_LANES_INLINE {
    using yes = std::true_type;
    using no  = std::false_type;
    const auto with = [&](auto columns_c, auto stream_c) RECUR_LANES_INLINE {
      if (scaled) {
        if constexpr (scales) steps(begin, end, columns_c, stream_c, yes{}, yes{});
      } else if (zero_rule) {
        steps(begin, end, columns_c, stream_c, no{}, yes{});
      } else {
        if constexpr (inexact) steps(begin, end, columns_c, stream_c, no{}, no{});
      }
    };
    if (columns) {
      stream ? with(yes{}, yes{}) : with(yes{}, no{});
    } else if (QT == 4 * Q) {
      with(no{}, std::integral_constant<int, 4>{});
    } else if (QT == 2 * Q) {
      with(no{}, std::integral_constant<int, 2>{});
    } else {
      with(no{}, std::integral_constant<int, 1>{});
    }
  };
  // Checks after each P-th step (columns P, 2 P, ...), before its column is
  // stored: a lane past the limit stops double and double-double lanes after
  // that column; float lanes scale (lane by lane at ±inf) and carry on.
  int col = 0;
  for (bool over = false;;) {
    const int next = (col / P + 1) * P;  // the next column checked
    const int end  = over ? col + 1 : (next < N ? next : N);
    run(col, end);
    if (over || end == N) {
      col = end - 1;
      break;
    }
    col = end;
    advance(col, std::true_type{});
#pragma GCC unroll 8
    for (int g = 0; g < G; ++g) {
      const Vec<E> v0 = leading(a0[g]), v1 = leading(a1[g]);
      over = over || any((v0 > limit) | (v0 < -limit) | (v1 > limit) | (v1 < -limit));
    }
    if constexpr (scales) {
      if (over) {
        each<G>([&](auto g) RECUR_LANES_INLINE {
          if (keep_in_range(a0[g], a1[g], ev[g])) return;
          alignas(32) int e[L];
          alignas(32) float v0[L], v1[L];
          _mm256_store_si256(reinterpret_cast<__m256i*>(e), ev[g]);
          _mm256_store_ps(v0, __m256(a0[g]));
          _mm256_store_ps(v1, __m256(a1[g]));
          for (int l = 0; l < L; ++l) {
            Scaled<float> t{v0[l], v1[l], e[l]};
            keep_both_in_range(t);
            v0[l] = t.u0, v1[l] = t.u1, e[l] = t.e;
          }
          ev[g] = _mm256_load_si256(reinterpret_cast<const __m256i*>(e));
          a0[g] = Vec<float>(_mm256_load_ps(v0));
          a1[g] = Vec<float>(_mm256_load_ps(v1));
        });
        scaled = true;
        over   = false;
      }
    }
  }
  if (!columns) {  // the tile's last columns, fewer than QT, one value at a time
    const int first = col + 1 - (col + 1) % QT;
    for (int r = 0; r < R; ++r)
      for (int c = first; c <= col; ++c) *at(i0 + r, c) = tile[c % QT][r];
  }
  // (Non-temporal stores are fenced by the caller, once for many blocks.)
  each<G>([&](auto g) RECUR_LANES_INLINE {
    unpack(a0[g], &u0[g * L]);
    unpack(a1[g], &u1[g * L]);
  });
  return col;
}

// Whether series.hpp's Clenshaw sums run in these vectors: a block of B x
// (B a multiple of 4) of a double-double three-term kernel without
// prefactor (recur::Accurate for double results).
template <class Kernel>
struct double_double_lanes : std::false_type {};
template <class MemorySpace>
struct double_double_lanes<ThreeTermKernel<DoubleDouble, MemorySpace, NoPrefactor>>
    : std::true_type {};
template <class Kernel, int B>
inline constexpr bool series_runs = double_double_lanes<Kernel>::value && B % width<double> == 0;

// DoubleDouble a + b as add() of numbers.hpp computes it where no sum leaves
// double's range.
inline Pair add(const Pair& a, const Pair& b) {
  const Pair s = two_sum(a.hi, b.hi), t = two_sum(a.lo, b.lo);
  const Pair u = fast_two_sum(s.hi, s.lo + t.hi);
  return fast_two_sum(u.hi, u.lo + t.lo);
}

// Clenshaw's sums of series.hpp's clenshaw() for the B x of a block, in
// double-double vectors: b_{N-1} = C(N-1), b_n = C(n) + step(affine(a_n, x,
// b_n), b_{n+1}, c_{n+1}, b_{n+2}), the scalar expressions lane by lane, so
// every sum is the scalar lanes' bit for bit while every lane stays below
// Range::limit (checked every step, where the scalar lanes would scale).
// Returns false as soon as one passes it (the caller then runs the scalar
// lanes, which scale); else b0 gets the sums b_0 (their exponent 0).
template <int B, class Kernel, class Column>
inline bool clenshaw(const Kernel& kernel, const double (&x)[B], const Column& c, int N,
                     DoubleDouble (&b0)[B]) {
  constexpr int G = B / width<double>;
  const Vec<double> zero{}, limit = splat(Range<DoubleDouble>::limit);
  const Vec<double> magnitude = -zero;  // the sign bit: andnot gives |v|
  const auto beyond = [&](Vec<double> v) {
    return any(Vec<double>(_mm256_andnot_pd(__m256d(magnitude), __m256d(v))) > limit);
  };
  Vec<double> xv[G];
  Pair b1[G], b2[G];
  const double last = double(c(N - 1));
  for (int g = 0; g < G; ++g) {
    xv[g] = lanes<double>([&](int l) { return x[g * width<double> + l]; });
    b1[g] = {splat(last), zero};
    b2[g] = {zero, zero};
  }
  if (beyond(b1[0].hi)) return false;
  for (int n = N - 2; n >= 0; --n) {
    const auto k              = kernel.coefficients(n);
    const DoubleDouble next   = n + 2 < N ? kernel.coefficients(n + 1).c : DoubleDouble{};
    const Pair ka = splat_number(k.a), kb = splat_number(k.b), kc = splat_number(next);
    const Pair cn = {splat(double(c(n))), zero};
    bool out      = false;
    for (int g = 0; g < G; ++g) {
      const Pair b = add(cn, step(ka, kb, kc, xv[g], b1[g], b2[g], false));
      b2[g]        = b1[g];
      b1[g]        = b;
      out          = out || beyond(b.hi);
    }
    if (out) return false;
  }
  for (int r = 0; r < B; ++r) b0[r] = number(b1[r / width<double>], r % width<double>);
  return true;
}

}  // namespace cpu_lanes
#endif

}  // namespace recur::impl

#endif
