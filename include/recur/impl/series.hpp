#ifndef RECUR_IMPL_SERIES_HPP
#define RECUR_IMPL_SERIES_HPP

#include <recur/families.hpp>
#include <recur/impl/checks.hpp>
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
template <class Kernel, class Column>
KOKKOS_FUNCTION void clenshaw(const Kernel& kernel, double x, const Column& c, int N,
                              double& y, double* dy) {
  using W = typename Kernel::number_type;
  W b1{}, b2{}, d1{}, d2{};  // b_{n+1}, b_{n+2} and their derivatives
  int scale = 0;              // the b's binary exponent
  for (int n = N - 1; n >= 0; --n) {
    const double cn = double(c(n));
    W b = constant<W>(scale == 0 ? cn : times_power_of_two(cn, -scale)), d{};
    if (n + 1 < N) {
      const auto k    = kernel.coefficients(n);
      const W f       = affine(k.a, x, k.b);
      const auto next = n + 2 < N ? kernel.coefficients(n + 1).c : decltype(k.c){};
      b               = b + step(f, b1, next, b2);
      if (dy) d = k.a * b1 + step(f, d1, next, d2);
    }
    b2 = b1;
    b1 = b;
    d2 = d1;
    d1 = d;
    keep_together_in_range(scale, largest(b1, d1), b1, b2, d1, d2);
  }
  typename Kernel::state_type p0;
  kernel.start(x, p0);  // p_0, NaN outside the domain
  const int e = saturate_exponent((long long)scale + p0.e);
  y           = scaled_value(b1 * p0.u0, e);
  if (dy) {
    if constexpr (Kernel::has_prefactor) {
      *dy = scaled_value((d1 + b1 * kernel.prefactor.exponent_derivative(x)) * p0.u0, e);
    } else {
      *dy = scaled_value(d1 * p0.u0, e);
    }
  }
}

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

template <class T, class Kernel, class XView, class CView, class YView, class DView>
struct SeriesFunctor {
  Kernel kernel;
  XView x;
  CView C;
  YView Y;
  DView dY;
  bool derivative;

  KOKKOS_FUNCTION void operator()(std::int64_t item) const {
    const std::int64_t M = std::int64_t(Y.extent(0));
    const std::int64_t i = item % M;  // neighbouring items: neighbouring x
    const int k          = int(item / M);
    const int N          = int(C.extent(0));
    const double xi      = double(x(i));
    const auto column    = [&](int n) { return entry(C, n, k); };
    double y, dy;
    if constexpr (std::is_same_v<Kernel, PowerSums>) {
      power_series(xi, column, N, y, derivative ? &dy : nullptr);
    } else {
      clenshaw(kernel, xi, column, N, y, derivative ? &dy : nullptr);
    }
    entry(Y, i, k) = T(y);
    if (derivative) entry(dY, i, k) = T(dy);
  }
};

}  // namespace recur::impl

#endif
