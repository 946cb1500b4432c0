#ifndef RECUR_IMPL_SERIES_HPP
#define RECUR_IMPL_SERIES_HPP

#include <recur/families.hpp>
#include <recur/impl/checks.hpp>
#include <recur/impl/cpu_lanes.hpp>
#include <recur/impl/kokkos_compat.hpp>
#include <recur/impl/three_term.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace recur::impl {

// y(x) = sum_n c_n p_n(x), and y'(x), for one x and one coefficient column,
// in the working number W of the family's evaluation.
//
// Three-term families: Clenshaw's backward recurrence,
//   b_n = c_n + (a_n x + b_n') b_{n+1} - c'_{n+1} b_{n+2},  b_N = b_{N+1} = 0,
//   y = p_0 b_0
// (p_{-1} = 0 makes the usual correction term vanish), differentiated term by
// term for y' = p_0 b'_0. It needs no p_n at all, and its rounding errors stay
// of the size of sum |c_n p_n| eps, the same bound as the forward sum, at
// half the work of forming each p_n first. The b_n share a binary exponent
// (numbers.hpp) once they pass 2^256, so sums beyond double's range come out
// as ±inf, never NaN. Families with an x-dependent prefactor
// (HermiteFunction) run it on the polynomial part: p_0 is then the
// prefactor's state, exp(g) as a number and a binary exponent, and
// y' = p_0 (b'_0 + g' b_0). PowerSums, which is no three-term family, sums
// forward.
//
// B values of x at once (the lanes, run in lockstep: one coefficient load
// serves them all, and on a CPU B independent chains of multiply-adds fill
// the pipeline where one x at a time waits on each one's latency); every lane
// does exactly the arithmetic of one x alone, so its y is the same, bit for
// bit, whatever B. Lanes past `lanes` are not computed.
template <int B, class Kernel, class Column>
KOKKOS_FUNCTION void clenshaw(const Kernel& kernel, const double (&x)[B], int lanes,
                              const Column& c, int N, double (&y)[B], double* dy) {
  using W = typename Kernel::number_type;
  W b1[B], b2[B], d1[B], d2[B];  // b_{n+1}, b_{n+2} and their derivatives
  int scale[B];                   // each lane's b's binary exponent
  for (int r = 0; r < B; ++r) b1[r] = b2[r] = d1[r] = d2[r] = W{}, scale[r] = 0;
  bool summed = false;  // by the CPU's vectors, every lane below the limit
#ifdef RECUR_IMPL_CPU_LANES
  if constexpr (cpu_lanes::series_runs<Kernel, B>) {
    if (lanes == B && !dy) summed = cpu_lanes::clenshaw<B>(kernel, x, c, N, b1);
  }
#endif
  for (int n = N - 1; n >= 0 && !summed; --n) {
    const double cn = double(c(n));
    if (n + 1 < N) {
      const auto k    = kernel.coefficients(n);
      const auto next = n + 2 < N ? kernel.coefficients(n + 1).c : decltype(k.c){};
      for (int r = 0; r < B; ++r) {
        if (r >= lanes) break;
        const W f = affine(k.a, x[r], k.b);
        W b       = constant<W>(scale[r] == 0 ? cn : times_power_of_two(cn, -scale[r]));
        b         = b + step(f, b1[r], next, b2[r]);
        W d{};
        if (dy) d = k.a * b1[r] + step(f, d1[r], next, d2[r]);
        b2[r] = b1[r], b1[r] = b, d2[r] = d1[r], d1[r] = d;
        keep_together_in_range(scale[r], largest(b1[r], d1[r]), b1[r], b2[r], d1[r], d2[r]);
      }
    } else {
      for (int r = 0; r < B; ++r) {
        if (r >= lanes) break;
        b2[r] = b1[r], b1[r] = constant<W>(cn), d2[r] = d1[r], d1[r] = W{};
        keep_together_in_range(scale[r], largest(b1[r], d1[r]), b1[r], b2[r], d1[r], d2[r]);
      }
    }
  }
  for (int r = 0; r < B; ++r) {
    if (r >= lanes) break;
    typename Kernel::state_type p0;
    kernel.start(x[r], p0);  // p_0, NaN outside the domain
    const int e = saturate_exponent((long long)scale[r] + p0.e);
    y[r]        = scaled_value(b1[r] * p0.u0, e);
    if (dy) {
      if constexpr (Kernel::has_prefactor) {
        dy[r] = scaled_value((d1[r] + b1[r] * kernel.prefactor.exponent_derivative(x[r])) * p0.u0, e);
      } else {
        dy[r] = scaled_value(d1[r] * p0.u0, e);
      }
    }
  }
}

// Whether clenshaw() for B x of Kernel runs in the CPU's vectors.
template <class Kernel, int B>
inline constexpr bool cpu_lanes_series_runs =
#ifdef RECUR_IMPL_CPU_LANES
    cpu_lanes::series_runs<Kernel, B>;
#else
    false;
#endif

// Power sums s_n = x + ... + x^(n+1), s'_n = 1 + ... + (n+1) x^n, summed
// forward; the running numbers share a binary exponent.
template <class Column>
KOKKOS_FUNCTION void power_series(double x, const Column& c, int N, double& y, double* dy) {
  const bool valid = in_domain(x);
  double power = valid ? x : not_a_number<double>(), dpower = 1, s = 0, ds = 0, sum = 0,
         dsum = 0;
  int e = 0;
  for (int n = 0; n < N; ++n) {
    s += power;
    ds += dpower;
    sum += double(c(n)) * s;
    dsum += double(c(n)) * ds;
    dpower = (n + 2) * power;
    power *= x;
    keep_together_in_range(e, largest(power, ds, sum, dsum), power, dpower, s, ds, sum, dsum);
  }
  y = scaled_value(sum, e);
  if (dy) *dy = scaled_value(dsum, e);
}

// Work item: B consecutive x (a lockstep block: 8 or 16 on CPUs, 1 on GPUs, whose
// threads are the lanes) for one coefficient column; neighbouring items take
// neighbouring blocks of the same column.
template <int B, class T, class Kernel, class XView, class CView, class YView, class DView>
struct SeriesFunctor {
  Kernel kernel;
  XView x;
  CView C;
  YView Y;
  DView dY;
  bool derivative;

  KOKKOS_FUNCTION void operator()(std::int64_t item) const {
    const std::int64_t M      = std::int64_t(Y.extent(0));
    const std::int64_t blocks = (M + B - 1) / B;
    const std::int64_t i0     = (item % blocks) * B;
    const int k               = int(item / blocks);
    const int lanes           = M - i0 < B ? int(M - i0) : B;
    const int N               = int(C.extent(0));
    const auto column         = [&](int n) { return entry(C, n, k); };
    double xs[B], y[B], dy[B];
    for (int r = 0; r < B; ++r) xs[r] = r < lanes ? double(x(i0 + r)) : 0.0;
    if constexpr (is_power_sums<Kernel>::value) {
      for (int r = 0; r < lanes; ++r)
        power_series(xs[r], column, N, y[r], derivative ? &dy[r] : nullptr);
    } else {
      clenshaw<B>(kernel, xs, lanes, column, N, y, derivative ? dy : nullptr);
    }
    for (int r = 0; r < lanes; ++r) {
      entry(Y, i0 + r, k) = T(y[r]);
      if (derivative) entry(dY, i0 + r, k) = T(dy[r]);
    }
  }
};

}  // namespace recur::impl

#endif
