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
// Rows (LayoutRight) are computed 8 at a time, 64 bytes of each row held in
// registers, transposed there and stored as one whole line a row (rows()).
//
// series.hpp's Clenshaw sums for double results (double-double) run in the
// same vectors (clenshaw below), 16 x a block.
//
// Elsewhere (other CPUs, other compilers, GPUs) RECUR_IMPL_CPU_LANES is not
// defined and the scalar lockstep runs.

#include <recur/impl/kokkos_compat.hpp>
#include <recur/impl/numbers.hpp>
#include <recur/impl/scan_form.hpp>

#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__) && defined(__GNUC__) && \
    defined(__AVX2__) && defined(__FMA__)
#define RECUR_IMPL_CPU_LANES 1
#include <immintrin.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

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

// What the vectors below run: a three-term kernel in float, double or
// double-double, and power sums (in double or float). A kernel with a
// prefactor (HermiteFunction) runs there only in blocks whose rows all
// start plain (ThreeTermKernel::start folds the prefactor's exponent into
// the state where it can; LaneSet::prefactor_starts).
template <class Scan>
struct is_lane_scan : std::false_type {};
template <class W>
struct is_lane_scan<PowerSumsScan<W>> : std::true_type {};
template <class W, class MemorySpace, class Prefactor>
struct is_lane_scan<ThreeTermKernel<W, MemorySpace, Prefactor>>
    : std::bool_constant<std::is_same_v<W, float> || std::is_same_v<W, double> ||
                         std::is_same_v<W, DoubleDouble>> {};
template <class Scan>
inline constexpr bool has_prefactor_v = false;
template <class W, class MemorySpace, class Prefactor>
inline constexpr bool has_prefactor_v<ThreeTermKernel<W, MemorySpace, Prefactor>> =
    !std::is_same_v<Prefactor, NoPrefactor>;
// A prefactor whose exponent is written for vectors too (exponent_parts:
// HermiteFunction's).
template <class Scan, class = void>
struct has_vector_exponent : std::false_type {};
template <class Scan>
struct has_vector_exponent<
    Scan, std::void_t<decltype(std::declval<const Scan&>().prefactor.exponent_parts(
              std::declval<double>(), std::declval<double&>(), std::declval<double&>(),
              std::declval<double (*)(double, double, double)>()))>> : std::true_type {};

// Where the CPU lanes' steps keep step()'s rule for f = a_n x + b_n = 0
// (cpu_lanes::step_rules says when): `everywhere`, else in blocks with an
// |x| below 2^-60 where `tiny_x`, and in blocks whose x range holds one of
// `zeros` (sorted). GPUs do not use it.
struct StepRules {
  bool everywhere = true;
  bool tiny_x     = true;
  Kokkos::View<double*, Kokkos::HostSpace> zeros;
  // Three-term rows (lane_limit_exponent): the lanes' limit for any x they
  // take (|x| <= Range<W>::unchecked_x), 0 where they take none; and the
  // limit's binary exponent for blocks whose largest |x| is below 2^(i -
  // 59) (i > 0; i = 0: below 2^-60), 0 for none (lane_limit).
  double lanes_limit = 0;
  static constexpr int limit_buckets = 125;  // |x| up to 2^65
  std::int16_t limit_exponent[limit_buckets] = {};
};

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
// for AVX-512"; rows() has since computed rows 8 at a time, so a block's
// size there only sets how many such units one call runs). T: V's values;
// Columns: V's columns contiguous (LayoutLeft).
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
// with plain stores). `least`: the size from which V is streamed.
template <class VView>
bool streams(const VView& V, int rows, std::size_t least = stream_bytes) {
  using T = typename VView::value_type;
  const auto address = reinterpret_cast<std::uintptr_t>(V.data());
  if (V.span() * sizeof(T) < least || address % 64 != 0) return false;
  if (V.stride_0() == 1)
    return std::size_t(rows) * sizeof(T) % 64 == 0 && V.stride_1() * sizeof(T) % 64 == 0;
  return V.stride_1() == 1 && V.stride_0() * sizeof(T) % 64 == 0;
}

// dst[0 .. n) = T(src[0 .. n)) (From is T, or double for float results),
// with non-temporal stores where `stream` and the CPU has them (what memset
// does for large outputs: no read of each line before it is written): the
// runs a CPU kernel turned or gathered in a buffer (product bases' rows,
// rows of values with derivatives). Double to float in vectors rounds as
// T() does.
template <class T, class From>
KOKKOS_INLINE_FUNCTION void copy_out(T* dst, const From* src, std::size_t n, bool stream) {
  std::size_t i = 0;
#ifdef RECUR_IMPL_CPU_LANES
  if (stream) {
    for (; i < n && reinterpret_cast<std::uintptr_t>(dst + i) % 32 != 0; ++i) dst[i] = T(src[i]);
    constexpr std::size_t lane = 32 / sizeof(T);
    for (; i + lane <= n; i += lane) {
      if constexpr (std::is_same_v<T, float> && std::is_same_v<From, double>) {
        const __m128 low  = _mm256_cvtpd_ps(_mm256_loadu_pd(src + i));
        const __m128 high = _mm256_cvtpd_ps(_mm256_loadu_pd(src + i + 4));
        _mm256_stream_ps(dst + i, _mm256_insertf128_ps(_mm256_castps128_ps256(low), high, 1));
      } else if constexpr (std::is_same_v<T, float>) {
        _mm256_stream_ps(dst + i, _mm256_loadu_ps(src + i));
      } else {
        _mm256_stream_pd(dst + i, _mm256_loadu_pd(src + i));
      }
    }
  }
#else
  (void)stream;
#endif
  for (; i < n; ++i) dst[i] = T(src[i]);
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
// Vectors of `width` doubles: 4 (Vec<double>) or, where the build has
// AVX-512, 8 (one 512-bit register).
template <int width>
struct DoublesOf {
  using type = Vec<double>;
};
#if defined(__AVX512F__) && defined(__AVX512VL__)
// A kernel's prefactor starts 8 rows at a time (LaneSet::prefactor_starts).
#define RECUR_IMPL_WIDE_STARTS 1
#endif
#ifdef __AVX512F__
template <>
struct DoublesOf<8> {
  typedef double type __attribute__((vector_size(64)));
};
inline constexpr int wide_doubles = 8;
#else
inline constexpr int wide_doubles = 4;
#endif
template <int width>
using Doubles = typename DoublesOf<width>::type;
// The vectors of a walk over tables of S: `width` doubles, or 8 floats.
template <class S, int width>
struct WalkLaneOf {
  using type = Doubles<width>;
};
template <int width>
struct WalkLaneOf<float, width> {
  using type = Vec<float>;
};
template <class S, int width>
using WalkLane = typename WalkLaneOf<S, width>::type;
// A vector of Lane from p (unaligned).
template <class Lane, class S>
RECUR_LANES_INLINE inline Lane load_lanes(const S* p) {
  Lane v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

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
// The smaller / larger of a and b lane by lane, b where a is NaN.
inline Vec<double> minimum(Vec<double> a, Vec<double> b) { return _mm256_min_pd(a, b); }
inline Vec<float> minimum(Vec<float> a, Vec<float> b) { return _mm256_min_ps(a, b); }
inline Vec<double> maximum(Vec<double> a, Vec<double> b) { return _mm256_max_pd(a, b); }
inline Vec<float> maximum(Vec<float> a, Vec<float> b) { return _mm256_max_ps(a, b); }
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
// step() for float lanes whose steps are products alone (c = 0: p is 0),
// the product taken in double: f p_n of two floats is exact there, minus
// p (a zero) exact too, so that the one rounding to float gives the bits of
// step()'s fused multiply-add, zeros' signs included. A float multiply
// whose operand or product is subnormal takes a microcode assist on x86
// (42-45 times the time on this project's VM), a conversion does not
// (docs/performance.md, "CPU, 2026-12-07: Monomials' float steps in
// double where rows reach subnormal numbers").
template <bool Exact = true>
inline Vec<float> step_in_double(Vec<float> ka, Vec<float> kb, Vec<float> kc, Vec<float> x,
                                 Vec<float> current, Vec<float> previous) {
  const Vec<float> zero{};
  const Vec<float> f = fused(ka, x, kb), p = kc * previous;
#ifdef __AVX512F__
  const __m512d product = _mm512_fmsub_pd(_mm512_cvtps_pd(__m256(f)), _mm512_cvtps_pd(__m256(current)),
                                          _mm512_cvtps_pd(__m256(p)));
  const Vec<float> next = Vec<float>(_mm512_cvtpd_ps(product));
#else
  const auto half = [&](int h) {
    const auto part = [&](Vec<float> v) {
      return _mm256_cvtps_pd(h == 0 ? _mm256_castps256_ps128(__m256(v)) : _mm256_extractf128_ps(__m256(v), 1));
    };
    return _mm256_cvtpd_ps(_mm256_fmsub_pd(part(f), part(current), part(p)));
  };
  const Vec<float> next = Vec<float>(_mm256_set_m128(half(1), half(0)));
#endif
  if constexpr (Exact) {
    return f == zero ? zero - p : next;
  } else {
    return next;
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
// f = affine(a, x, b), or affine(a, x) where zero_b (ThreeTermKernel::zero_b).
inline Pair affine(const Pair& ka, const Pair& kb, Vec<double> x, bool zero_b) {
  const Vec<double> pa = ka.hi * x;
  if (zero_b) return {pa, fused(ka.lo, x, fused(ka.hi, x, -pa))};
  const Pair sa = two_sum(pa, kb.hi);
  return {sa.hi, sa.lo + fused(ka.lo, x, fused(ka.hi, x, -pa) + kb.lo)};
}
// f p_n - c p_{n-1}
inline Pair step(const Pair& f, const Pair& kc, const Pair& current, const Pair& previous) {
  const Vec<double> zero{};
  const Vec<double> p = f.hi == zero ? zero : f.hi * current.hi;
  const Vec<double> q = kc.hi * previous.hi;
  const Pair s        = two_sum(p, -q);
  const Vec<double> t =
      fused(f.hi, current.lo, fused(f.lo, current.hi, fused(f.hi, current.hi, -p)));
  const Vec<double> u =
      fused(kc.hi, previous.lo, fused(kc.lo, previous.hi, fused(kc.hi, previous.hi, -q)));
  return fast_two_sum(s.hi, s.lo + (t - u));
}
inline Pair step(const Pair& ka, const Pair& kb, const Pair& kc, Vec<double> x,
                 const Pair& current, const Pair& previous, bool zero_b) {
  return step(affine(ka, kb, x, zero_b), kc, current, previous);
}
// a b: multiply() of numbers.hpp where p stays within double's range.
inline Pair multiply(const Pair& a, const Pair& b) {
  const Vec<double> p = a.hi * b.hi;
  return fast_two_sum(p, fused(a.hi, b.lo, fused(a.lo, b.hi, fused(a.hi, b.hi, -p))));
}

// Two vectors of lanes as T, into 8 (float from double) or 2 x 4 or 2 x 8
// consecutive T, in 32-byte stores, non-temporal (p aligned to 32 bytes)
// where `stream`.
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
#ifdef __AVX512F__
// Eight doubles (one 512-bit vector) as T: one conversion to float, one
// 32-byte store; or one 64-byte store of double (p aligned to 32 or 64
// bytes where `stream`).
inline void put(float* p, Doubles<8> v, bool stream) { store(p, _mm512_cvtpd_ps(__m512d(v)), stream); }
inline void put(double* p, Doubles<8> v, bool stream) {
  stream ? _mm512_stream_pd(p, __m512d(v)) : _mm512_storeu_pd(p, __m512d(v));
}
#endif
inline void put(float* p, Vec<float> v, bool stream) { store(p, __m256(v), stream); }
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

// The same values u0 2^e for rows (below), as u0 f[0] f[1] f[2] in float:
// f = 2^min(e, 127), 2^min(max(e - 127, 0), 127), 2^min(max(e - 254, 0),
// 127), made once at each scaling. Each product is exact or overflows (e >=
// 0), and past e = 381 every nonzero float overflows, as in double: the
// same floats in 1 or 3 multiplications instead of 15 instructions. Returns
// how many factors differ from 1 (1 where every e <= 127, else 3).
inline int power_factors(__m256i e, __m256 (&f)[3]) {
  for (int k = 0; k < 3; ++k) {
    const __m256i part = _mm256_min_epi32(
        _mm256_max_epi32(_mm256_sub_epi32(e, _mm256_set1_epi32(127 * k)), _mm256_setzero_si256()),
        _mm256_set1_epi32(127));
    f[k] = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(part, _mm256_set1_epi32(127)), 23));
  }
  return any(_mm256_cmpgt_epi32(e, _mm256_set1_epi32(127))) ? 3 : 1;
}

// keep_both_in_range (numbers.hpp) for 8 float lanes of states (u0, u1) with
// binary exponents e: the lanes past `limit` (lane_limit_exponent's) scaled
// by 2^-k, k the exponent of their larger magnitude, and k added to e, in vector
// operations and bit for bit as the scalar lanes do (a float times a power of
// two rounds once either way; k <= 127 here, 2^-127 a subnormal float). A lane
// at ±inf (which the scalar lanes scale by 2^-1022) is left to them: returns
// false, nothing changed.
inline bool keep_in_range(Vec<float>& u0, Vec<float>& u1, __m256i& e, float limit) {
  const __m256 sign = _mm256_set1_ps(-0.0f);
  // largest(u0, u1): |u0| > |u1| ? |u0| : |u1| (NaN gives |u1|), as max_ps
  const __m256 m = _mm256_max_ps(_mm256_andnot_ps(sign, __m256(u0)), _mm256_andnot_ps(sign, __m256(u1)));
  const __m256i over =
      _mm256_castps_si256(_mm256_cmp_ps(m, _mm256_set1_ps(limit), _CMP_GT_OQ));
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

// In each 128-bit half, the 4 x 4 turn of q[0..3] into o[0..3] (half h
// of o[k] holds element k of the halves h of q[0], q[1], q[2], q[3]).
RECUR_LANES_INLINE inline void turn_halves(const __m256* q, __m256* o) {
  const __m256 t0 = _mm256_unpacklo_ps(q[0], q[1]), t1 = _mm256_unpackhi_ps(q[0], q[1]);
  const __m256 t2 = _mm256_unpacklo_ps(q[2], q[3]), t3 = _mm256_unpackhi_ps(q[2], q[3]);
  o[0] = _mm256_shuffle_ps(t0, t2, 0x44);
  o[1] = _mm256_shuffle_ps(t0, t2, 0xEE);
  o[2] = _mm256_shuffle_ps(t1, t3, 0x44);
  o[3] = _mm256_shuffle_ps(t1, t3, 0xEE);
}
// Transposes in registers: r[k] holds column k of 8 rows (float) or 4 rows
// (double) of V; after, r[k] holds row k's 8 or 4 values of those columns.
RECUR_LANES_INLINE inline void transpose(__m256 (&r)[8]) {
  __m256 s[8];
  turn_halves(r, s);
  turn_halves(r + 4, s + 4);
  for (int k = 0; k < 4; ++k) {
    r[k]     = _mm256_permute2f128_ps(s[k], s[k + 4], 0x20);
    r[k + 4] = _mm256_permute2f128_ps(s[k], s[k + 4], 0x31);
  }
}
RECUR_LANES_INLINE inline void transpose(__m256d (&r)[4]) {
  const __m256d t0 = _mm256_unpacklo_pd(r[0], r[1]), t1 = _mm256_unpackhi_pd(r[0], r[1]);
  const __m256d t2 = _mm256_unpacklo_pd(r[2], r[3]), t3 = _mm256_unpackhi_pd(r[2], r[3]);
  r[0] = _mm256_permute2f128_pd(t0, t2, 0x20);
  r[1] = _mm256_permute2f128_pd(t1, t3, 0x20);
  r[2] = _mm256_permute2f128_pd(t0, t2, 0x31);
  r[3] = _mm256_permute2f128_pd(t1, t3, 0x31);
}
// The same turn from memory: p[f * ld + s] is function f of sample s (f, s
// < 8 floats or 4 doubles); after, r[s] holds sample s's values of the
// functions. The lane-crossing step of transpose() is done by the loads
// (128-bit halves inserted from memory, which the CPU's load ports and any
// vector port run), leaving two steps (float) or one (double) of in-lane
// shuffles, which only one port runs.
RECUR_LANES_INLINE inline void transpose_from(const float* p, std::ptrdiff_t ld, __m256 (&r)[8]) {
  __m256 a[8];
  for (int k = 0; k < 4; ++k)
    for (int h = 0; h < 2; ++h)
      a[4 * h + k] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(p + k * ld + 4 * h)),
                                          _mm_loadu_ps(p + (k + 4) * ld + 4 * h), 1);
  turn_halves(a, r);
  turn_halves(a + 4, r + 4);
}
RECUR_LANES_INLINE inline void transpose_from(const double* p, std::ptrdiff_t ld, __m256d (&r)[4]) {
  __m256d a[4];
  for (int k = 0; k < 2; ++k)
    for (int h = 0; h < 2; ++h)
      a[2 * h + k] = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(p + k * ld + 2 * h)),
                                          _mm_loadu_pd(p + (k + 2) * ld + 2 * h), 1);
  r[0] = _mm256_unpacklo_pd(a[0], a[1]);
  r[1] = _mm256_unpackhi_pd(a[0], a[1]);
  r[2] = _mm256_unpacklo_pd(a[2], a[3]);
  r[3] = _mm256_unpackhi_pd(a[2], a[3]);
}
// A row's first n (< 8 or 4) values of v to p, plain stores.
inline void store_first(float* p, __m256 v, int n) {
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  _mm256_maskstore_ps(p, _mm256_cmpgt_epi32(_mm256_set1_epi32(n), lane), v);
}
inline void store_first(double* p, __m256d v, int n) {
  const __m256i lane = _mm256_setr_epi64x(0, 1, 2, 3);
  _mm256_maskstore_pd(p, _mm256_cmpgt_epi64(_mm256_set1_epi64x(n), lane), v);
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

// The limit at which the lanes' checks (after every Scan::check_period =
// P steps) scale a block's states (float lanes) or stop (the others), for
// a block of three-term rows whose |x| are below xmax: a step multiplies a
// state's largest magnitude by less than 2^k (k from g = a xmax + bc, a the
// largest |a_n|, bc the largest |b_n| + |c_n|, with room for rounding), so
// from below 2^(top - P k) the P steps to the next check stay below 2^top,
// half of W's largest number, with no check between them (top = 127 in
// float, 1023 in double and double-double, whose leading part holds the
// magnitude). Returns that exponent, or 0 where it would be below 1 (the
// rows then take the scalar lanes, checked after every step). Where the
// checks fall changes no value (numbers.hpp), so this limit need not be
// Range<W>::periodic_limit, which the scalar lanes keep: it is never lower
// where the scalar lanes check every few steps (2^63 in float where g <
// 2^8, 2^263 in double where g < 2^95), higher for most rows (He_n at |x|
// <= 1 in double up to n = 256: 2^951, not 2^256, where the double and
// double-double lanes stopped from n = 98 on), and rows that the scalar
// lanes check after every step (coefficients growing past 2^8 in float:
// He_n past n = 223, H_n past n = 95) stay in the vectors. StepRules keeps
// it for the largest |x| the lanes take (lanes_limit) and per binade of xmax
// (lane_limit: the double and double-double lanes look there when a lane
// passes the first, before they stop).
template <class Scan>
int lane_limit_exponent(double a, double bc, double xmax) {
  using W           = typename Scan::number_type;
  constexpr int P   = Scan::check_period;
  constexpr int top = std::is_same_v<W, float> ? 127 : 1023;
  const double g    = (a * xmax + bc) * (1 + 0x1p-20);
  if (!(g < 0x1p126)) return 0;  // (NaN coefficients: not below)
  const int k = g < 1 ? 0 : binary_exponent(g) + 1;  // g < 2^k
  const int e = top - P * k;
  return e >= 1 ? e : 0;
}
// lane_limit_exponent's limit for a block whose largest |x| is `largest`
// (at most 2^64: Range<W>::unchecked_x), from the binade's entry of
// StepRules; 0 where the vectors do not run.
inline double lane_limit(const StepRules& rules, double largest) {
  const int i = largest < 0x1p-60 ? 0 : binary_exponent(largest) + 60;
  const int e = rules.limit_exponent[i];
  return e > 0 ? power_of_two(e) : 0.0;
}

// What the lanes' steps n < N - 1 of a three-term Scan need step()'s rule
// for f = a_n x + b_n = 0 for (StepRules, lockstep.hpp), from its
// coefficients in the lanes' numbers (float or double): everywhere where
// some |a_n|, or some |b_n| that is not 0, is below 2^-60, or where rows
// are longer than 4096 terms (not looked through here); else in blocks
// with an |x| below 2^-60 where some b_n is 0, and in blocks holding one
// of `zeros`, the x with a_n x + b_n = 0 exactly for a step whose b_n is
// not 0 (where |a_n| and |b_n| are at least 2^-60, a_n x + b_n rounds to 0
// only where it is 0: its smallest nonzero value is near |b_n| 2^-48 in
// float; and a_n x = -b_n only at the float or double -b_n / a_n, if that
// is one). Power sums and double-double keep the rule everywhere.
// zeros_too: whether to look for those x at all (not inside a parallel
// region, where no View is allocated). The rows' limits are left unset:
// step_rules (below) adds them.
template <class Scan>
StepRules zero_rules(const Scan& scan, int N, bool zeros_too) {
  StepRules rules;
  using W = typename Scan::number_type;
  if constexpr (is_lane_scan<Scan>::value && !is_power_sums<Scan>::value &&
                !std::is_same_v<W, DoubleDouble>) {
    const bool look = zeros_too && N - 1 <= 4096;
    std::vector<double> zeros;
    bool tiny = false, zero_b = false, nonzero_b = false;
    for (int n = 0; n + 1 < N; ++n) {
      const auto k = scan.coefficients(n);
      const W a = k.a, b = k.b;
      tiny = tiny || !(std::fabs(a) >= W(0x1p-60)) || (b != 0 && !(std::fabs(b) >= W(0x1p-60)));
      zero_b    = zero_b || b == 0;
      nonzero_b = nonzero_b || b != 0;
      if (b == 0 || !look) continue;
      const W root = W(-static_cast<long double>(b) / static_cast<long double>(a));
      for (const W x : {std::nextafter(root, -std::numeric_limits<W>::infinity()), root,
                        std::nextafter(root, std::numeric_limits<W>::infinity())})
        if (std::fma(a, x, b) == 0) zeros.push_back(double(x));
    }
    if (tiny || (nonzero_b && !look)) return rules;
    std::sort(zeros.begin(), zeros.end());
    zeros.erase(std::unique(zeros.begin(), zeros.end()), zeros.end());
    rules.everywhere = false;
    rules.tiny_x     = zero_b;
    if (!zeros.empty()) {
      rules.zeros = Kokkos::View<double*, Kokkos::HostSpace>(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "recur::evaluate::zeros"), zeros.size());
      std::copy(zeros.begin(), zeros.end(), rules.zeros.data());
    }
  } else {
    (void)scan, (void)N, (void)zeros_too;
  }
  return rules;
}

// zero_rules, and the limits of three-term rows (lane_limit_exponent for
// each of StepRules::limit_buckets): once a call of evaluate. (Product
// bases' tables, whose steps read no limit, ask zero_rules alone, once a
// block of samples: the limits there took a third of their time.)
template <class Scan>
StepRules step_rules(const Scan& scan, int N) {
  StepRules rules = zero_rules(scan, N, true);
  using W = typename Scan::number_type;
  if constexpr (is_lane_scan<Scan>::value && !is_power_sums<Scan>::value) {
    double a = 0, bc = 0;  // (NaN coefficients: infinite)
    for (int n = 0; n + 1 < N; ++n) {
      const auto k    = scan.coefficients(n);
      const double ka  = std::fabs(to_double(k.a));
      const double kbc = std::fabs(to_double(k.b)) + std::fabs(to_double(k.c));
      a  = ka <= a ? a : (ka == ka ? ka : std::numeric_limits<double>::infinity());
      bc = kbc <= bc ? bc : (kbc == kbc ? kbc : std::numeric_limits<double>::infinity());
    }
    for (int i = 0; i < StepRules::limit_buckets; ++i)
      rules.limit_exponent[i] = std::int16_t(lane_limit_exponent<Scan>(a, bc, std::ldexp(1.0, i - 59)));
    const int e = lane_limit_exponent<Scan>(a, bc, Range<W>::unchecked_x);
    rules.lanes_limit = e > 0 ? std::ldexp(1.0, e) : 0.0;
  }
  return rules;
}

// How LaneSet's float lanes take a step: in double where in_double says so
// (by_flag), or in float alone (plain).
enum class StepKind { by_flag, plain };
template <StepKind Kind>
using step_kind = std::integral_constant<StepKind, Kind>;

// G vectors of lanes of Scan from row i0 on (8 or 4 lanes each): x, the
// states (u0 = p_n in a0, u1 = p_{n-1} in a1) and, for float lanes, each
// lane's binary exponent (Scaled), with the lanes' operations, each vector
// by a constant index (a loop over them left rolled when the compiler's
// scalar replacement ran kept every state in memory, written back at every
// step). The states start plain (u0 = p_0 or NaN outside the domain, u1 =
// 0; power sums (x, x)).
template <class Scan, int G>
struct LaneSet {
  using W                          = typename Scan::number_type;
  using E                          = Element<W>;
  static constexpr int L           = width<E>;
  static constexpr bool power_sums = is_power_sums<Scan>::value;
  static constexpr bool scales     = std::is_same_v<W, float>;  // float lanes scale themselves
  // Steps without step()'s rule for f = 0 (where no f can be 0) exist for
  // float and double lanes.
  static constexpr bool inexact = !power_sums && !std::is_same_v<W, DoubleDouble>;
  Vec<E> x[G];
  Lanes<W> a0[G], a1[G];
  __m256i ev[G];
  // Float steps taken by step_in_double (products alone whose rows may
  // reach subnormal numbers): those from column double_from on, set by
  // start() where a lane's |x| is below the kernel's subnormal_floor (else
  // `never`); in_double: whether the next step is one (advance(scan, col)
  // sets it, and so do the loops that step a vector at a time). Every step
  // of such rows in double took float Monomials rows 3 times as long in
  // LayoutRight: the conversions' latency is in every step's chain. The
  // loops of rows() and rows_by_units() choose, a run of steps at a time,
  // between steps that look at in_double (StepKind::by_flag) and float steps
  // alone (plain), so that the rows of other families run loops without the
  // flag (docs/performance.md, "CPU, 2026-12-07, night: Monomials' steps in
  // double, chosen a run of steps at a time").
  static constexpr bool may_double = std::is_same_v<W, float> && !power_sums;
  static constexpr int never       = 1 << 30;
  bool in_double                   = false;
  int double_from                  = never;
  // Whether a step to a column before `end` may be one in double.
  RECUR_LANES_INLINE bool doubles_before(int end) const { return may_double && double_from < end; }

  // The u0 of R rows' lanes where Scan has a prefactor (else nothing).
  template <int R>
  struct First {
    static constexpr int size = has_prefactor_v<Scan> ? R / L : 1;
    Lanes<W> u0[size];
  };
  // first: with a prefactor, the lanes' u0 (prefactor_starts).
  template <class XView>
  RECUR_LANES_INLINE void start(const Scan& scan, const XView& xv, std::int64_t i0,
                                const Lanes<W>* first = nullptr) {
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
      ev[g] = _mm256_setzero_si256();
      if constexpr (has_prefactor_v<Scan>) a0[g] = first[g];
    });
    if constexpr (may_double) {
      in_double   = false;
      double_from = never;
      if (scan.subnormal_floor > 0) {
        const Vec<float> floor = splat(scan.subnormal_floor);
        bool below             = false;
        each<G>([&](auto g) RECUR_LANES_INLINE {
          below = below || any((x[g] < floor) & (x[g] > -floor));
        });
        if (below) double_from = first_subnormal_step(scan);
      }
    }
  }
  // The first column whose step may meet a subnormal number, for lanes
  // with a |x| below the kernel's subnormal_floor: with p_0 = 1 and least,
  // the smallest nonzero |x|, |p_n| >= (min |a| least)^n, normal with a
  // binade to spare while n < 125 / log2(1 / (min |a| least)), where
  // min |a| = 2^(-126 / steps) / subnormal_floor (make_kernel). Lanes at 0
  // stay 0 (never subnormal). Only the speed depends on it: both steps give
  // the same bits.
  RECUR_LANES_INLINE int first_subnormal_step(const Scan& scan) const {
    const float floor = scan.subnormal_floor;
    float least       = floor;
    each<G>([&](auto g) RECUR_LANES_INLINE {
      alignas(32) float m[L];
      unpack(x[g], m);
      for (int l = 0; l < L; ++l) {
        const float a = std::fabs(m[l]);
        if (a > 0 && a < least) least = a;
      }
    });
    if (!(least < floor)) return never;
    const double steps = double(scan.coefficients.extent(0));
    const double t     = 126.0 / steps - std::log2(double(least) / double(floor));  // > 0
    const double n     = 125.0 / t;
    return n < 1 ? 1 : n >= double(never) ? never : int(n);
  }
  // Float lanes with steps in double, at a check: where every lane's two
  // states are 0 or NaN, the later steps' products meet no subnormal
  // number (0 and NaN stay so), so that the float steps resume.
  RECUR_LANES_INLINE void resume_float_steps() {
    if constexpr (may_double) {
      if (double_from == never) return;
      const Vec<float> zero{};
      bool live = false;
      each<G>([&](auto g) RECUR_LANES_INLINE {
        live = live || any((a0[g] < zero) | (a0[g] > zero) | (a1[g] < zero) | (a1[g] > zero));
      });
      if (!live) double_from = never;
    }
  }
  // A kernel with a prefactor: the u0 of ThreeTermKernel::start for the
  // rows [i0, i0 + C L) into first[0 .. C - 1], for LaneSet::start, all
  // before the lanes' steps (their chains of operations side by side: made
  // one block of 8 rows at a time they took float rows 1.7 times as long).
  // Returns whether every row starts plain (start() folds its prefactor's
  // exponent, or x is out of the domain: a NaN row); nothing else runs here.
  template <int C, class XView>
  RECUR_LANES_INLINE static bool prefactor_starts(const Scan& scan, const XView& xv, std::int64_t i0,
                                                  Lanes<W> (&first)[C]) {
    bool plain = true;
#ifdef RECUR_IMPL_WIDE_STARTS
    // Float lanes: a vector's 8 rows in one 512-bit vector of doubles, the
    // same operations (the same bits) in half the instructions of two
    // vectors of 4 (float rows of HermiteFunction, this project's VM: 3.56
    // against 3.76 ms; the same for double lanes, two vectors of 4 rows a
    // time, took them from 5.6 to 6.1 ms: docs/performance.md).
    if constexpr (std::is_same_v<W, float>) {
      each<C>([&](auto c) RECUR_LANES_INLINE { first[c] = wide_start(scan, xv, i0 + c * L, plain); });
      return plain;
    }
#endif
    each<C>([&](auto c) RECUR_LANES_INLINE { first[c] = prefactor_start(scan, xv, i0 + c * L, plain); });
    return plain;
  }
#ifdef RECUR_IMPL_WIDE_STARTS
  // prefactor_start of float lanes, the 8 rows from i0 at once: the
  // operations of exponents() and reduce_prefactor() in 512-bit vectors.
  template <class XView>
  RECUR_LANES_INLINE static Vec<float> wide_start(const Scan& scan, const XView& xv, std::int64_t i0,
                                                  bool& plain) {
    using D8 = Doubles<8>;
    const auto fused8 = [](D8 a, D8 b, D8 c) { return D8(_mm512_fmadd_pd(__m512d(a), __m512d(b), __m512d(c))); };
    const auto splat8 = [](double v) { return D8(_mm512_set1_pd(v)); };
    // (built in registers, as lanes() says why)
    const auto lanes8 = [](const auto& lane) {
      return D8(_mm512_set_pd(lane(7), lane(6), lane(5), lane(4), lane(3), lane(2), lane(1), lane(0)));
    };
    // exponents(): x in double as the View holds it, g = exponent(x), m, r
    using X       = typename XView::non_const_value_type;
    bool loaded   = false;
    D8 x;
    if constexpr (std::is_same_v<X, float> || std::is_same_v<X, double>) {
      if (xv.stride_0() == 1) {
        if constexpr (std::is_same_v<X, float>) {
          x = D8(_mm512_cvtps_pd(_mm256_loadu_ps(&xv(i0))));
        } else {
          x = D8(_mm512_loadu_pd(&xv(i0)));
        }
        loaded = true;
      }
    }
    if (!loaded) x = lanes8([&](int l) { return double(xv(i0 + l)); });
    D8 gh, gl;
    if constexpr (has_vector_exponent<Scan>::value) {
      scan.prefactor.exponent_parts(x, gh, gl, fused8);
    } else {
      DoubleDouble g[8];
      for (int l = 0; l < 8; ++l) g[l] = scan.prefactor.exponent(double(xv(i0 + l)));
      gh = lanes8([&](int l) { return g[l].hi; });
      gl = lanes8([&](int l) { return g[l].lo; });
    }
    // (start()'s clamps of m and r left out, as in exponents())
    D8 m = gh * splat8(1.4426950408889634);
    m    = m + D8(_mm512_mask_blend_pd(_mm512_cmp_pd_mask(__m512d(m), _mm512_setzero_pd(), _CMP_GE_OQ),
                                       _mm512_set1_pd(-0.5), _mm512_set1_pd(0.5)));
    m = D8(_mm512_roundscale_pd(__m512d(m), _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC)) + splat8(0.0);
    const __m256i e        = _mm512_cvttpd_epi32(__m512d(m));
    const D8 r  = fused8(-m, splat8(ln2_c), fused8(-m, splat8(ln2_b), fused8(-m, splat8(ln2_a), gh))) + gl;
    const D8 ex = exp_reduced<Scan::exp_degree>(r, fused8);
    const __m512d factor = _mm512_castsi512_pd(
        _mm512_slli_epi64(_mm512_add_epi64(_mm512_cvtepi32_epi64(e), _mm512_set1_epi64(1023)), 52));
    // reduce_prefactor(): the lanes out of the domain, and whether m folds
    const __m512d domain = _mm512_set1_pd(Range<W>::domain);
    const __mmask8 in    = _mm512_cmp_pd_mask(__m512d(x), domain, _CMP_LE_OQ) &
                        _mm512_cmp_pd_mask(__m512d(x), -domain, _CMP_GE_OQ);
    const __mmask8 unfolded =
        _mm512_cmp_pd_mask(__m512d(m), _mm512_setzero_pd(), _CMP_GT_OQ) |
        _mm512_cmp_pd_mask(__m512d(m), _mm512_set1_pd(double(-Scan::fold_exponent)), _CMP_LT_OQ);
    plain = plain && (in & unfolded) == 0;
    // u0 = float(initial e^r), folded as float(u0 2^e) (scale_exactly); NaN
    // out of the domain
    const __m256 u = _mm256_mul_ps(_mm512_cvtpd_ps(__m512d(splat8(double(scan.initial)) * ex)),
                                   _mm512_cvtpd_ps(factor));
    return Vec<float>(_mm256_mask_blend_ps(in, _mm256_set1_ps(not_a_number<float>()), u));
  }
#endif
  // ThreeTermKernel::start's u0 for the L rows from i0 where start() folds
  // the prefactor (plain &= whether it does for all of them), by the same
  // operations in vectors of 4 doubles (the family's exponent g(x) lane by
  // lane): the same bits. x as the View holds it, in double (what start()
  // is given; float lanes step with x rounded to float).
  template <class XView>
  RECUR_LANES_INLINE static Lanes<W> prefactor_start(const Scan& scan, const XView& xv,
                                                     std::int64_t i0, bool& plain) {
    const __m256d nan = _mm256_set1_pd(not_a_number<double>());
    Vec<double> ex, factor, out;
    if constexpr (std::is_same_v<W, DoubleDouble>) {
      reduce_prefactor(scan, xv, i0, ex, factor, out, plain);
      // multiply(initial, e^r) of numbers.hpp (p within double's range)
      const Vec<double> hi = splat(scan.initial.hi), p = hi * ex;
      const Pair u = fast_two_sum(p, fused(splat(scan.initial.lo), ex, fused(hi, ex, -p)));
      return {Vec<double>(_mm256_blendv_pd(__m256d(u.hi * factor), nan, __m256d(out))),
              Vec<double>(_mm256_andnot_pd(__m256d(out), __m256d(u.lo * factor)))};
    } else if constexpr (std::is_same_v<W, double>) {
      reduce_prefactor(scan, xv, i0, ex, factor, out, plain);
      return Vec<double>(_mm256_blendv_pd(__m256d(splat(scan.initial) * ex * factor), nan, __m256d(out)));
    } else {  // float: u0 = float(initial e^r), folded as float(u0 2^e) (scale_exactly)
      // (u0 2^e, exact, in float: 2^e for -64 <= e <= 0 is a float)
      __m128 half[2];
      for (int q = 0; q < 2; ++q) {
        reduce_prefactor(scan, xv, i0 + 4 * q, ex, factor, out, plain);
        const __m128 u = _mm256_cvtpd_ps(__m256d(splat(double(scan.initial)) * ex));
        half[q] = _mm_blendv_ps(_mm_mul_ps(u, _mm256_cvtpd_ps(__m256d(factor))), _mm256_cvtpd_ps(nan),
                                _mm256_cvtpd_ps(__m256d(out)));
      }
      return Vec<float>(_mm256_set_m128(half[1], half[0]));
    }
  }
  // For the 4 rows from i0: e^r, 2^m (m start()'s exponent) and the lanes
  // out of the domain (all bits set); plain &= whether m folds (-F <= m <=
  // 0) in every lane within the domain.
  template <class XView>
  RECUR_LANES_INLINE static void reduce_prefactor(const Scan& scan, const XView& xv, std::int64_t i0,
                                                  Vec<double>& ex, Vec<double>& factor, Vec<double>& out,
                                                  bool& plain) {
    Vec<double> m, r, x;
    __m128i e;
    exponents(scan, xv, i0, x, m, r, e);
    ex = exp_reduced<Scan::exp_degree>(r, [](Vec<double> a, Vec<double> b, Vec<double> c) {
      return fused(a, b, c);
    });
    factor = Vec<double>(_mm256_castsi256_pd(
        _mm256_slli_epi64(_mm256_add_epi64(_mm256_cvtepi32_epi64(e), _mm256_set1_epi64x(1023)), 52)));
    const Vec<double> domain = splat(Range<W>::domain);
    const auto in            = (x <= domain) & (x >= -domain);  // (false for NaN)
    out   = Vec<double>(_mm256_andnot_pd(__m256d(in), _mm256_castsi256_pd(_mm256_set1_epi64x(-1))));
    plain = plain && !any(in & ((m > Vec<double>{}) | (m < splat(double(-Scan::fold_exponent)))));
  }
  // start()'s m and r for the 4 rows from i0 (x in double, as given), and
  // int(m).
  template <class XView>
  RECUR_LANES_INLINE static void exponents(const Scan& scan, const XView& xv, std::int64_t i0,
                                           Vec<double>& x, Vec<double>& m, Vec<double>& r, __m128i& e) {
    // g = exponent(x) in the vector where the family writes it for vectors
    // (exponent_parts), else lane by lane (built in registers: a vector
    // load of numbers just stored one at a time waits for the older
    // stores, lanes() says).
    using X = typename XView::non_const_value_type;
    if constexpr (std::is_same_v<X, float> || std::is_same_v<X, double>) {
      if (xv.stride_0() == 1) {  // (a View with a proxy reference has no stride 1 to offer here)
        if constexpr (std::is_same_v<X, float>) {
          x = Vec<double>(_mm256_cvtps_pd(_mm_loadu_ps(&xv(i0))));
        } else {
          x = Vec<double>(_mm256_loadu_pd(&xv(i0)));
        }
      } else {
        x = lanes<double>([&](int l) { return double(xv(i0 + l)); });
      }
    } else {
      x = lanes<double>([&](int l) { return double(xv(i0 + l)); });
    }
    Vec<double> gh, gl;
    if constexpr (has_vector_exponent<Scan>::value) {
      scan.prefactor.exponent_parts(x, gh, gl, [](Vec<double> a, Vec<double> b, Vec<double> c) {
        return fused(a, b, c);
      });
    } else {
      DoubleDouble g[4];
      for (int l = 0; l < 4; ++l) g[l] = scan.prefactor.exponent(double(xv(i0 + l)));
      gh = lanes<double>([&](int l) { return g[l].hi; });
      gl = lanes<double>([&](int l) { return g[l].lo; });
    }
    // start()'s clamps of m and r left out: they change neither where m
    // folds (|m| <= fold_exponent) nor, in the lanes out of the domain, the
    // NaN that replaces their u0; in rows that start() does not fold
    // (prefactor_starts then fails), u0 is not used.
    m = gh * splat(1.4426950408889634);
    m = m + (m >= Vec<double>{} ? splat(0.5) : splat(-0.5));
    m = Vec<double>(_mm256_round_pd(__m256d(m), _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC)) + 0.0;  // (+0, not -0)
    e = _mm256_cvttpd_epi32(__m256d(m));
    r = fused(-m, splat(ln2_c), fused(-m, splat(ln2_b), fused(-m, splat(ln2_a), gh))) + gl;
  }
  // Whether some lane's f = a_n x + b_n can be 0 (step()'s rule for it then
  // runs at every step), as `rules` say (step_rules); a NaN x gives f =
  // NaN, never 0.
  RECUR_LANES_INLINE bool zero_rule(const StepRules& rules) const {
    if constexpr (inexact) {
      if (rules.everywhere) return true;
      if (rules.tiny_x) {  // (|a_n x| at least 2^-120, a normal float, elsewhere)
        const Vec<E> tiny = splat(E(0x1p-60));
        bool small = false;
        each<G>([&](auto g) RECUR_LANES_INLINE { small = small || any((x[g] < tiny) & (x[g] > -tiny)); });
        if (small) return true;
      }
      const std::size_t count = rules.zeros.extent(0);
      if (count == 0) return false;
      const double* const z = rules.zeros.data();
      // no lane between the first zero and the last (Laguerre's are 1, 3, 7,
      // ... in float: a block at x < 1 stops here), else a lane at one of
      // them (few), else the block's smallest and largest x (NaN lanes left
      // out) and whether a zero lies between
      bool inside = false;
      const Vec<E> first_zero = splat(E(z[0])), last_zero = splat(E(z[count - 1]));
      each<G>([&](auto g) RECUR_LANES_INLINE {
        inside = inside || any((x[g] >= first_zero) & (x[g] <= last_zero));
      });
      if (!inside) return false;
      if (count <= 8) {
        bool at = false;
        for (std::size_t k = 0; k < count; ++k) {
          const Vec<E> zero = splat(E(z[k]));
          each<G>([&](auto g) RECUR_LANES_INLINE { at = at || any(x[g] == zero); });
        }
        return at;
      }
      alignas(32) E low[L], high[L];
      Vec<E> lo = splat(std::numeric_limits<E>::infinity()), hi = -lo;
      each<G>([&](auto g) RECUR_LANES_INLINE {
        lo = minimum(x[g], lo);
        hi = maximum(x[g], hi);
      });
      unpack(lo, low);
      unpack(hi, high);
      for (int l = 1; l < L; ++l) {
        low[0]  = low[l] < low[0] ? low[l] : low[0];
        high[0] = high[l] > high[0] ? high[l] : high[0];
      }
      const double* const first = std::lower_bound(z, z + count, double(low[0]));
      return first != z + count && *first <= double(high[0]);
    } else {
      (void)rules;
      return true;
    }
  }
  // The coefficients of the step to column col: coefficients(scan, col)[0]
  // (a pointer held for many steps is one register, where
  // scan.coefficients(col - 1) took one for each); power sums have none.
  RECUR_LANES_INLINE static auto coefficients(const Scan& scan, int col) {
    if constexpr (power_sums) {
      (void)scan, (void)col;
      return static_cast<const char*>(nullptr);
    } else {
      return scan.coefficients.data() + (col - 1);
    }
  }
  // One step of vector g by coefficients k[0] (power sums: PowerSumsScan::
  // advance, (sum, x^n) -> (sum + x^n x, x^(n+1))); Exact: with step()'s
  // rule for f = 0.
  template <bool Exact, int g, StepKind Kind = StepKind::by_flag, class K>
  RECUR_LANES_INLINE void advance(const Scan& scan, const K* k) {
    if constexpr (power_sums) {
      const Vec<E> power = a1[g] * x[g];
      a0[g]              = fused(a1[g], x[g], a0[g]);
      a1[g]              = power;
    } else {
      // scan.load(col - 1), broadcast from the table itself (a copy of the
      // coefficients went through the stack)
      const Lanes<W> ka = splat_number(k->a), kb = splat_number(k->b), kc = splat_number(k->c);
      Lanes<W> next;
      if constexpr (std::is_same_v<W, DoubleDouble>) {
        next = step(ka, kb, kc, x[g], a0[g], a1[g], scan.zero_b);
      } else if constexpr (std::is_same_v<W, float>) {
        if constexpr (Kind == StepKind::by_flag) {
          next = in_double ? step_in_double<Exact>(ka, kb, kc, x[g], a0[g], a1[g])
                           : step<Exact>(ka, kb, kc, x[g], a0[g], a1[g], scan.zero_b);
        } else {
          next = step<Exact>(ka, kb, kc, x[g], a0[g], a1[g], scan.zero_b);
        }
      } else {
        next = step<Exact>(ka, kb, kc, x[g], a0[g], a1[g], scan.zero_b);
      }
      a1[g] = a0[g];
      a0[g] = next;
    }
  }
  template <bool Exact, StepKind Kind = StepKind::by_flag>
  RECUR_LANES_INLINE void advance(const Scan& scan, int col) {
    if constexpr (may_double && Kind == StepKind::by_flag) in_double = col >= double_from;
    const auto* const k = coefficients(scan, col);
    each<G>([&](auto g) RECUR_LANES_INLINE { advance<Exact, g, Kind>(scan, k); });
  }
  // Whether a lane of vector g, or of any, is past `limit` (where the
  // checks scale the float lanes and stop the others: lane_limit's for
  // three-term rows, Range<W>::periodic_limit for power sums).
  template <int g>
  RECUR_LANES_INLINE bool over(double limit) const {
    const Vec<E> bound = splat(E(limit));
    const Vec<E> v0 = leading(a0[g]), v1 = leading(a1[g]);
    return any((v0 > bound) | (v0 < -bound) | (v1 > bound) | (v1 < -bound));
  }
  RECUR_LANES_INLINE bool over(double limit) const {
    bool past = false;
    each<G>([&](auto g) RECUR_LANES_INLINE { past = past || over<g>(limit); });
    return past;
  }
  // Double and double-double lanes past `limit` at a check: whether they
  // are past their own block's limit too (lane_limit, from their largest
  // |x|; raised to it where not), before they stop.
  RECUR_LANES_INLINE bool over_own(double& limit, const StepRules& rules) const {
    Vec<E> largest{};
    each<G>([&](auto g) RECUR_LANES_INLINE { largest = maximum(largest, maximum(x[g], -x[g])); });
    alignas(32) E m[L];
    unpack(largest, m);
    double top = 0;
    for (int l = 0; l < L; ++l) top = double(m[l]) > top ? double(m[l]) : top;
    const double own = lane_limit(rules, top);
    if (own > limit) limit = own;
    return over(limit);
  }
  // Float and double power sums, at a check: powers x^(n+1) below 2^-60
  // set to 0 in lanes whose state carries no exponent (so |x| < 1), before
  // they reach subnormals, which this CPU multiplies in microcode (float
  // power sums with x uniform in [-1, 1] at N = 32 took 1.4 times the time of
  // He_n; double ones at M = 256, N = 2^16 took 20 times as long with them,
  // 122-124 ms against 6.1-6.2: docs/performance.md, "CPU, 2026-12-05, night").
  // No value changes: there |s_n| >= |x| (1 - 2^-60) / 2, so |x^(n+1) x| <
  // 2^-60 |x| is below half an ulp of s_n (float's and double's) and s_n +
  // x^(n+1) x rounds to s_n, as it does for every later, smaller power (the
  // scalar lanes, which keep them, give the same bits). Between two checks,
  // 8 steps, a float power at least 2^-60 stays normal for |x| >= 2^-8.25,
  // and one below it at the first check needs |x| < 2^-6.6: only rows with
  // |x| < 2^-14 still meet a subnormal, in their first 8 steps (in double,
  // rows with |x| < 2^-120). Double-double keeps its powers: its sums would
  // change.
  RECUR_LANES_INLINE void drop_tiny_powers() {
    if constexpr (power_sums && std::is_same_v<W, double>) {  // (no lane carries an exponent)
      each<G>([&](auto g) RECUR_LANES_INLINE {
        const __m256d magnitude = _mm256_andnot_pd(_mm256_set1_pd(-0.0), __m256d(a1[g]));
        const __m256d tiny      = _mm256_cmp_pd(magnitude, _mm256_set1_pd(0x1p-60), _CMP_LT_OQ);
        a1[g] = Vec<double>(_mm256_andnot_pd(tiny, __m256d(a1[g])));
      });
    } else if constexpr (power_sums && scales) {
      each<G>([&](auto g) RECUR_LANES_INLINE {
        const __m256 magnitude = _mm256_andnot_ps(_mm256_set1_ps(-0.0f), __m256(a1[g]));
        const __m256 tiny  = _mm256_cmp_ps(magnitude, _mm256_set1_ps(0x1p-60f), _CMP_LT_OQ);
        const __m256 plain = _mm256_castsi256_ps(_mm256_cmpeq_epi32(ev[g], _mm256_setzero_si256()));
        a1[g] = Vec<float>(_mm256_andnot_ps(_mm256_and_ps(tiny, plain), __m256(a1[g])));
      });
    }
  }
  // Float lanes: vector g's lanes past the limit scaled (lane by lane where
  // one is at ±inf, as the scalar lanes do).
  template <int g>
  RECUR_LANES_INLINE void scale(double limit) {
    if constexpr (scales) {
      if (keep_in_range(a0[g], a1[g], ev[g], float(limit))) return;
      alignas(32) int e[L];
      alignas(32) float v0[L], v1[L];
      _mm256_store_si256(reinterpret_cast<__m256i*>(e), ev[g]);
      _mm256_store_ps(v0, __m256(a0[g]));
      _mm256_store_ps(v1, __m256(a1[g]));
      for (int l = 0; l < L; ++l) {
        Scaled<float> t{v0[l], v1[l], e[l]};
        keep_both_in_range(t, limit);
        v0[l] = t.u0, v1[l] = t.u1, e[l] = t.e;
      }
      ev[g] = _mm256_load_si256(reinterpret_cast<const __m256i*>(e));
      a0[g] = Vec<float>(_mm256_load_ps(v0));
      a1[g] = Vec<float>(_mm256_load_ps(v1));
    }
  }
  // The states into u0[0 .. G L - 1] and u1.
  RECUR_LANES_INLINE void unpack_to(W* u0, W* u1) const {
    each<G>([&](auto g) RECUR_LANES_INLINE {
      unpack(a0[g], u0 + g * L);
      unpack(a1[g], u1 + g * L);
    });
  }
};

// Rows of V from i0 (LayoutRight-like: rows()'s below, which see): 8 rows
// (a unit: one float vector, two double ones) at a time, 64 bytes of each
// row at a time (16 float or 8 double columns) held in registers,
// transposed there and stored as one whole line a row, non-temporal where
// `stream`; then the unit's next 64 bytes of columns, then the next unit.
// No value goes through memory: a tile of columns in L1, read back
// transposed, cost its plain stores beside the non-temporal ones (float
// He_n/sqrt(n!) Fast, M = 2^20, N = 32: 4.6-4.8 ms that way, 3.2-3.5 this
// way, beside a streamed fill of 2.7-2.9; docs/performance.md, "CPU,
// 2026-12-04, night"). A unit's chain of steps is short of work to hide its
// latency; the out-of-order core runs the next unit's beside it. Units run
// one after the other in a loop (their code once, not once a unit: a
// third of the compile time). Double and double-double lanes past the
// limit: the first such column is found, units stop after the 64 bytes of
// columns that hold it, and every lane's states there are computed again
// (the columns after it, stored by some units, are stored again by the
// caller's scalar lanes, after a store fence). Not inlined: rows() stays
// the columns' code alone.
template <int R, class Scan, class XView, class VView, class W = typename Scan::number_type,
          class T = typename VView::non_const_value_type>
__attribute__((noinline)) int rows_by_units(const Scan& scan, const XView& xv, const VView& V,
                                            std::int64_t i0, int N, W (&u0)[R], W (&u1)[R],
                                            bool stream, const StepRules& rules, double limit) {
  using Set         = LaneSet<Scan, 8 / width<Element<W>>>;
  constexpr int L   = Set::L;
  constexpr int U   = 8 / L;                 // vectors of lanes a unit
  constexpr int Q   = 32 / int(sizeof(T));   // rows a vector of T
  constexpr int VR  = 8 / Q;                 // vectors of T a column of the unit
  constexpr int C   = 64 / int(sizeof(T));   // columns in registers
  constexpr int P   = Scan::check_period;
  static_assert(R % 8 == 0, "recur: cpu_lanes::rows_by_units runs whole units of 8 rows");
  static_assert(sizeof(Element<W>) >= sizeof(T), "recur: cpu_lanes stores lanes of T or wider");
  using Row = typename RowOf<T>::type;
  typename Set::template First<R> starts;  // (a prefactor's)
  if constexpr (has_prefactor_v<Scan>) {
    if (!Set::prefactor_starts(scan, xv, i0, starts.u0)) return -1;
  }
  T* const data           = V.data();
  const std::ptrdiff_t s0 = V.stride_0(), s1 = V.stride_1();
  int stop = N;  // double and double-double lanes: the first column past the limit
  for (int unit = 0; unit < R / 8; ++unit) {
    const std::int64_t first = i0 + 8 * unit;
    Set set;
    set.start(scan, xv, first, starts.u0 + unit * U);
    const bool zero_rule = set.zero_rule(rules);
    // Float lanes: 0, or the unit's values stored as u0 2^e by `scaled`
    // factors (power_factors).
    int scaled = 0;
    __m256 factor[3];
    // Columns [c0, c0 + C), Full, else [c0, c0 + width), stored value by
    // value, plainly.
    const auto block = [&](int c0, int width, auto full_c, auto exact_c, auto kind_c) RECUR_LANES_INLINE {
      constexpr bool Full     = decltype(full_c)::value;
      constexpr StepKind Kind = decltype(kind_c)::value;
      constexpr bool by_flag  = Set::may_double && Kind == StepKind::by_flag;
      Row v[VR][C] = {};  // (a partial block's last columns unused)
      const auto* const k = Set::coefficients(scan, c0 + 1);  // k[c - 1]: to column c0 + c
      each<C>([&](auto c) RECUR_LANES_INLINE {
        const int col = c0 + c;
        if (!Full && c >= width) return;
        if (col > 0) {
          if constexpr (by_flag) set.in_double = col >= set.double_from;
          each<U>([&](auto u) RECUR_LANES_INLINE {
            if constexpr (Set::power_sums) {
              set.template advance<decltype(exact_c)::value, u, Kind>(scan, k);
            } else {
              set.template advance<decltype(exact_c)::value, u, Kind>(scan, k + (c - 1));
            }
          });
        }
        if (col > 0 && col % P == 0) {  // the check, before the column is stored
          set.drop_tiny_powers();
          if constexpr (by_flag) set.resume_float_steps();
          if (set.over(limit)) {
            if constexpr (Set::scales) {
              set.template scale<0>(limit);
              scaled = power_factors(set.ev[0], factor);
            } else if (col < stop) {
              double own = limit;
              if (set.over_own(own, rules)) stop = col;
            }
          }
        }
        // Column col of the unit's rows as T.
        if constexpr (Set::scales) {
          const __m256 p = __m256(set.a0[0]);
          v[0][c] = scaled == 0 ? p
                    : scaled == 1 ? p * factor[0]
                                  : p * factor[0] * factor[1] * factor[2];
        } else if constexpr (std::is_same_v<T, float>) {  // U = 2 double vectors
          v[0][c] = _mm256_set_m128(_mm256_cvtpd_ps(__m256d(leading(set.a0[1]))),
                                    _mm256_cvtpd_ps(__m256d(leading(set.a0[0]))));
        } else {
          each<VR>([&](auto k) RECUR_LANES_INLINE { v[k][c] = __m256d(leading(set.a0[k])); });
        }
      });
      // Each Q x Q block transposed: row r of the unit is then v[r / Q][c]
      // for its columns c = (r % Q) + Q m, m = 0, 1, ...
      each<VR>([&](auto k) RECUR_LANES_INLINE {
        each<C / Q>([&](auto m) RECUR_LANES_INLINE {
          Row b[Q];
          each<Q>([&](auto c) RECUR_LANES_INLINE { b[c] = v[k][m * Q + c]; });
          transpose(b);
          each<Q>([&](auto c) RECUR_LANES_INLINE { v[k][m * Q + c] = b[c]; });
        });
      });
      // Row after row from the unit's first: a pointer the compiler cannot
      // follow, so that it holds one, not 8 spilled to the stack.
      T* p = data + first * s0 + c0 * s1;
      each<VR>([&](auto k) RECUR_LANES_INLINE {
        each<Q>([&](auto r) RECUR_LANES_INLINE {
          each<C / Q>([&](auto m) RECUR_LANES_INLINE {
            if constexpr (Full) {
              store(p + m * Q, v[k][m * Q + r], stream);
            } else if (width > m * Q) {
              store_first(p + m * Q, v[k][m * Q + r], width - m * Q);
            }
          });
          // The row's line whole before the next row's: the compiler
          // otherwise moved some rows' second stores after other rows'
          // first ones, and lines left half written for a while slow
          // non-temporal stores down (in a probe of this loop, float
          // He_n/sqrt(n!) Fast at M = 2^20, N = 32, every row's first half
          // and then every second half took 11-12 ms against 2.8-3.7;
          // perf_tests/cpu_row_stores.cpp).
          p += s0;
          asm volatile("" : "+r"(p)::"memory");
        });
      });
    };
    using yes   = std::true_type;
    using no    = std::false_type;
    using plain = step_kind<StepKind::plain>;
    for (int c0 = 0; c0 < N && c0 <= stop; c0 += C) {
      const int width = N - c0 < C ? N - c0 : C;
      if constexpr (Set::may_double) {
        // Steps that may be in double: exact ones (the same bits), looking
        // at the flag.
        if (set.doubles_before(c0 + width)) {
          using by_flag = step_kind<StepKind::by_flag>;
          width == C ? block(c0, C, yes{}, yes{}, by_flag{}) : block(c0, width, no{}, yes{}, by_flag{});
          continue;
        }
      }
      if (zero_rule || !Set::inexact) {
        width == C ? block(c0, C, yes{}, yes{}, plain{}) : block(c0, width, no{}, yes{}, plain{});
      } else if constexpr (Set::inexact) {
        width == C ? block(c0, C, yes{}, no{}, plain{}) : block(c0, width, no{}, no{}, plain{});
      }
    }
    set.unpack_to(&u0[8 * unit], &u1[8 * unit]);
  }
  if (stop == N) return N - 1;
  // A lane past the limit at column `stop`: every lane's states there.
  _mm_sfence();
  for (int unit = 0; unit < R / 8; ++unit) {
    Set set;
    set.start(scan, xv, i0 + 8 * unit, starts.u0 + unit * U);
    for (int col = 1; col <= stop; ++col) set.template advance<true>(scan, col);
    set.unpack_to(&u0[8 * unit], &u1[8 * unit]);
  }
  return stop;
}

// Columns 0, 1, ... of the R rows of V from i0 (R an even multiple of the
// lanes of a vector) for a three-term kernel without prefactor or power sums
// (PowerSumsScan, scan_form.hpp: states (x, x)), whose states
// start plain (u0 = p_0 or NaN outside the domain, u1 = 0) and are checked
// every check_period steps, until column N - 1 or, in double and
// double-double, until a check finds a lane past `limit` (lane_limit's for
// three-term rows, Range<W>::periodic_limit for power sums). Float lanes
// (recur::Fast, float results) scale there themselves, lane by lane with
// keep_both_in_range as the scalar lanes do, and carry on. Returns the
// number of steps done, with the states after them in u0 and u1 and their
// columns stored; the caller carries on from there (scaling the lanes first
// when fewer than N - 1 steps were done). -1, nothing stored, where a row
// of a kernel with a prefactor does not start plain (LaneSet::prefactor_starts).
// rules: where the steps need step()'s rule for f = 0 (step_rules).
//
// Columns (LayoutLeft-like): every vector steps once a column, and the
// column goes to V at once. Between two checks the steps run in a loop with
// the store's form (streamed or not, scaled or not) fixed at compile time
// and no access to single lanes: one loop choosing per step, with the
// scaling lane by lane, kept the lanes in memory (float He_n/sqrt(n!) at M =
// 2^12, N = 32, in cache, one thread: 31 against 23 us a call,
// docs/performance.md). Rows (LayoutRight-like): rows_by_units above.
template <int R, class Scan, class XView, class VView, class W = typename Scan::number_type,
          class T = typename VView::non_const_value_type>
int rows(const Scan& scan, const XView& xv, const VView& V, std::int64_t i0, int N,
         W (&u0)[R], W (&u1)[R], bool stream, const StepRules& rules, double limit) {
  using Set       = LaneSet<Scan, R / width<Element<W>>>;
  constexpr int L = Set::L;
  constexpr int G = R / L;  // vectors of lanes
  constexpr int P = Scan::check_period;
  static_assert(G % 2 == 0, "recur: cpu_lanes::rows stores vectors in pairs");
  // LayoutLeft-like, else rows contiguous (LayoutRight: rows, whatever N,
  // so that its code is the rows' only)
  if constexpr (std::is_same_v<typename VView::array_layout, Kokkos::LayoutRight>) {
    return rows_by_units<R>(scan, xv, V, i0, N, u0, u1, stream, rules, limit);
  } else {
    if (V.stride_0() != 1) return rows_by_units<R>(scan, xv, V, i0, N, u0, u1, stream, rules, limit);
    // V's elements through a pointer and strides held here: the vector
    // stores below may alias anything (__m256 is may_alias), so V's own
    // would be loaded again after each.
    T* const data           = V.data();
    const std::ptrdiff_t s1 = V.stride_1();
    typename Set::template First<R> starts;  // (a prefactor's)
    if constexpr (has_prefactor_v<Scan>) {
      if (!Set::prefactor_starts(scan, xv, i0, starts.u0)) return -1;
    }
    Set set;
    set.start(scan, xv, i0, starts.u0);
    // (Float lanes' columns keep step()'s rule for f = 0: measured faster.)
    const bool zero_rule = Set::scales || set.zero_rule(rules);
    bool scaled          = false;
    // Column `col` of the lanes straight to V: a whole cache line or two of
    // each column, non-temporal where Stream; Scaled: values u0 2^e.
    const auto store_column = [&](int col, auto stream_c, auto scaled_c) RECUR_LANES_INLINE {
      constexpr bool Stream = decltype(stream_c)::value;
      T* const p            = data + i0 + col * s1;
      if constexpr (decltype(scaled_c)::value) {  // 8 floats a store
        each<G>([&](auto g) RECUR_LANES_INLINE {
          Vec<double> low, high;
          scaled_halves(set.a0[g], set.ev[g], low, high);
          put(p + g * L, low, high, Stream);
        });
      } else {
        each<G / 2>([&](auto h) RECUR_LANES_INLINE {
          put(p + 2 * h * L, leading(set.a0[2 * h]), leading(set.a0[2 * h + 1]), Stream);
        });
      }
    };
    // Columns [begin, end), no check between: each stored, each after the
    // first reached by a step (the first is column 0 or was just checked).
    const auto run = [&](int begin, int end) RECUR_LANES_INLINE {
      using yes          = std::true_type;
      using no           = std::false_type;
      const auto between = [&](auto stream_c, auto scaled_c, auto exact_c, auto kind_c) RECUR_LANES_INLINE {
        store_column(begin, stream_c, scaled_c);
        for (int col = begin + 1; col < end; ++col) {
          set.template advance<decltype(exact_c)::value, decltype(kind_c)::value>(scan, col);
          store_column(col, stream_c, scaled_c);
        }
      };
      const auto with = [&](auto stream_c) RECUR_LANES_INLINE {
        if constexpr (Set::may_double) {  // (float lanes: exact steps, zero_rule)
          if (set.doubles_before(end)) {
            using by_flag = step_kind<StepKind::by_flag>;
            scaled ? between(stream_c, yes{}, yes{}, by_flag{}) : between(stream_c, no{}, yes{}, by_flag{});
            return;
          }
        }
        using plain = step_kind<StepKind::plain>;
        if (scaled) {
          if constexpr (Set::scales) between(stream_c, yes{}, yes{}, plain{});
        } else if (zero_rule) {
          between(stream_c, no{}, yes{}, plain{});
        } else {
          if constexpr (Set::inexact && !Set::scales) between(stream_c, no{}, no{}, plain{});
        }
      };
      stream ? with(yes{}) : with(no{});
    };
    // Checks after each P-th step (columns P, 2 P, ...), before its column
    // is stored: a lane past the limit stops double and double-double lanes
    // after that column; float lanes scale and carry on.
    int col = 0;
    for (bool over = false;;) {
      const int next = (col / P + 1) * P;  // the next column checked
      const int end  = over ? col + 1 : (next < N ? next : N);
      run(col, end);
      if (over || end == N) {
        // (Non-temporal stores are fenced by the caller, once for many blocks.)
        set.unpack_to(u0, u1);
        return end - 1;
      }
      col = end;
      set.template advance<true>(scan, col);
      set.drop_tiny_powers();
      set.resume_float_steps();
      over = set.over(limit);
      if constexpr (!Set::scales) {
        if (over) over = set.over_own(limit, rules);
      }
      if constexpr (Set::scales) {
        if (over) {
          each<G>([&](auto g) RECUR_LANES_INLINE { set.template scale<g>(limit); });
          scaled = true;
          over   = false;
        }
      }
    }
  }
}

// Whether series.hpp's Clenshaw sums run in these vectors: a block of B x
// (B a multiple of the vectors' width) of a three-term kernel without
// prefactor, in double-double (recur::Accurate for double results), double
// (Accurate for float results, Fast for double) or float (Fast for float).
template <class Kernel>
struct series_lanes : std::false_type {};
template <class W, class MemorySpace>
struct series_lanes<ThreeTermKernel<W, MemorySpace, NoPrefactor>> : std::true_type {};
template <class Kernel, int B>
inline constexpr bool series_runs =
    series_lanes<Kernel>::value && B % width<Element<typename Kernel::number_type>> == 0;

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
// The same in double or float vectors (W), the scalar lanes' expressions:
// b_n = C(n) + step(affine(a_n, x, b_n), b_{n+1}, c_{n+1}, b_{n+2}), x
// rounded to W. The scalar lanes ran these sums one x at a time, their range
// check after every step in the loop: recur::Fast series (double) took 1.5
// times Accurate's (double-double, in vectors; docs/using-v.md).
template <int B, class Kernel, class Column, class W,
          std::enable_if_t<std::is_floating_point_v<W>, int> = 0>
inline bool clenshaw(const Kernel& kernel, const double (&x)[B], const Column& c, int N,
                     W (&b0)[B]) {
  constexpr int L = width<W>, G = B / L;
  const Vec<W> zero{}, limit = splat(W(Range<W>::limit));
  const auto beyond = [&](Vec<W> v) { return any((v > limit) | (v < -limit)); };
  Vec<W> xv[G], b1[G], b2[G];
  const Vec<W> last = splat(constant<W>(double(c(N - 1))));
  for (int g = 0; g < G; ++g) {
    xv[g] = lanes<W>([&](int l) { return W(x[g * L + l]); });
    b1[g] = last;
    b2[g] = zero;
  }
  if (beyond(last)) return false;
  for (int n = N - 2; n >= 0; --n) {
    const auto k    = kernel.coefficients(n);
    const W next    = n + 2 < N ? kernel.coefficients(n + 1).c : W{};
    const Vec<W> ka = splat(k.a), kb = splat(k.b), kc = splat(next);
    const Vec<W> cn = splat(constant<W>(double(c(n))));
    bool out        = false;
    for (int g = 0; g < G; ++g) {
      const Vec<W> b = cn + step(ka, kb, kc, xv[g], b1[g], b2[g], false);
      b2[g]          = b1[g];
      b1[g]          = b;
      out            = out || beyond(b);
    }
    if (out) return false;
  }
  for (int r = 0; r < B; ++r) b0[r] = b1[r / L][r % L];
  return true;
}

// p[0 .. B) = T(a[0 .. B)) in streamed whole cache lines (B T are whole
// lines; p aligned to 64 bytes): what LockstepDerivatives stores of a
// column slice's block.
template <int B, class T, class W>
inline void stream_lanes(T* p, const W (&a)[B]) {
  if constexpr (std::is_same_v<W, double>) {
    static_assert(B % 8 == 0);
    for (int g = 0; g < B; g += 8)
      put(p + g, Vec<double>(_mm256_loadu_pd(a + g)), Vec<double>(_mm256_loadu_pd(a + g + 4)), true);
  } else {
    static_assert(B % 16 == 0 && std::is_same_v<T, float>);
    for (int g = 0; g < B; g += 16)
      put(p + g, Vec<float>(_mm256_loadu_ps(a + g)), Vec<float>(_mm256_loadu_ps(a + g + 8)), true);
  }
}

// The steps of LockstepDerivatives (lockstep.hpp) for double or float
// numbers, in vectors: p_{n+1} = step(f, p_n, c, p_{n-1}) and p'_{n+1} =
// a p_n + step(f, p'_n, c, p'_{n-1}), f = affine(a, x, b), the scalar
// lanes' expressions. Runs steps n = 0, 1, ... while every lane's numbers
// stay below Range<W>::limit, after each step the lanes' p_{n+1} in u0 and
// p'_{n+1} in d0 and then put(n + 1); returns the step at which one passed
// it (all four arrays then hold its numbers, not yet put), or N - 1.
template <int B, class W, class Kernel, class Put>
inline int derivative_steps(const Kernel& kernel, const double (&x)[B], int N, W (&u0)[B],
                            W (&u1)[B], W (&d0)[B], W (&d1)[B], const Put& put) {
  constexpr int L = width<W>, G = B / L;
  const Vec<W> zero{}, limit = splat(W(Range<W>::limit));
  Vec<W> xv[G], p0[G], p1[G], q0[G], q1[G];
  const auto load = [&](const W(&a)[B], int g) { return lanes<W>([&](int l) { return a[g * L + l]; }); };
  for (int g = 0; g < G; ++g) {
    xv[g] = lanes<W>([&](int l) { return W(x[g * L + l]); });
    p0[g] = load(u0, g), p1[g] = load(u1, g), q0[g] = load(d0, g), q1[g] = load(d1, g);
  }
  const auto back = [&] {
    for (int g = 0; g < G; ++g) {
      unpack(p0[g], u0 + g * L), unpack(p1[g], u1 + g * L);
      unpack(q0[g], d0 + g * L), unpack(q1[g], d1 + g * L);
    }
  };
  int n = 0;
  for (; n + 1 < N; ++n) {
    const auto k    = kernel.coefficients(n);
    const Vec<W> ka = splat(k.a), kb = splat(k.b), kc = splat(k.c);
    bool over       = false;
    for (int g = 0; g < G; ++g) {
      const Vec<W> f = fused(ka, xv[g], kb);
      const Vec<W> p = kc * p1[g], q = kc * q1[g];
      const Vec<W> next  = f == zero ? zero - p : fused(f, p0[g], -p);
      const Vec<W> dnext = fused(ka, p0[g], f == zero ? zero - q : fused(f, q0[g], -q));
      p1[g] = p0[g], p0[g] = next, q1[g] = q0[g], q0[g] = dnext;
      over = over || any((next > limit) | (next < -limit) | (dnext > limit) | (dnext < -limit));
    }
    if (over) break;
    for (int g = 0; g < G; ++g) unpack(p0[g], u0 + g * L), unpack(q0[g], d0 + g * L);
    put(n + 1);
  }
  back();
  return n;
}
// The same in double-double (recur::Accurate for double results): f =
// affine(a, x, b), p_{n+1} = step(f, p_n, c, p_{n-1}) and p'_{n+1} =
// multiply(a, p_n) + step(f, p'_n, c, p'_{n-1}), numbers.hpp's operations
// without their branches for results beyond double's range. The caller
// runs them only where no intermediate can get there: no lane's |x| beyond
// Range::unchecked_x, no large coefficients (ThreeTermKernel), every number
// below Range::limit (checked after each step, as here). put(n + 1, v, d)
// gets the lanes' leading parts of p_{n+1} and p'_{n+1}.
template <int B, class Kernel, class Put>
inline int derivative_steps(const Kernel& kernel, const double (&x)[B], int N, DoubleDouble (&u0)[B],
                            DoubleDouble (&u1)[B], DoubleDouble (&d0)[B], DoubleDouble (&d1)[B],
                            const Put& put) {
  constexpr int L = width<double>, G = B / L;
  const Vec<double> limit = splat(Range<DoubleDouble>::limit);
  const auto beyond = [&](Vec<double> v) { return (v > limit) | (v < -limit); };
  Vec<double> xv[G];
  Pair p0[G], p1[G], q0[G], q1[G];
  const auto load = [&](const DoubleDouble(&a)[B], int g) {
    return number_lanes<DoubleDouble>([&](int l) { return a[g * L + l]; });
  };
  for (int g = 0; g < G; ++g) {
    xv[g] = lanes<double>([&](int l) { return x[g * L + l]; });
    p0[g] = load(u0, g), p1[g] = load(u1, g), q0[g] = load(d0, g), q1[g] = load(d1, g);
  }
  int n = 0;
  for (; n + 1 < N; ++n) {
    const auto k  = kernel.coefficients(n);
    const Pair ka = splat_number(k.a), kb = splat_number(k.b), kc = splat_number(k.c);
    Vec<double> over{};
    each<G>([&](auto g) RECUR_LANES_INLINE {  // (each vector by a constant index: in registers)
      const Pair f     = affine(ka, kb, xv[g], false);
      const Pair next  = step(f, kc, p0[g], p1[g]);
      const Pair dnext = add(multiply(ka, p0[g]), step(f, kc, q0[g], q1[g]));
      p1[g] = p0[g], p0[g] = next, q1[g] = q0[g], q0[g] = dnext;
      over = Vec<double>(_mm256_or_pd(__m256d(over), __m256d(beyond(next.hi) | beyond(dnext.hi))));
    });
    if (any(over)) break;
    alignas(32) double v[B], d[B];  // the leading parts, what is stored
    each<G>([&](auto g) RECUR_LANES_INLINE {
      _mm256_store_pd(v + g * L, __m256d(p0[g].hi)), _mm256_store_pd(d + g * L, __m256d(q0[g].hi));
    });
    put(n + 1, v, d);
  }
  for (int g = 0; g < G; ++g) {
    unpack(p0[g], u0 + g * L), unpack(p1[g], u1 + g * L);
    unpack(q0[g], d0 + g * L), unpack(q1[g], d1 + g * L);
  }
  return n;
}

}  // namespace cpu_lanes
#endif

}  // namespace recur::impl

#endif
