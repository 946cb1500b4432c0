#ifndef RECUR_IMPL_SERIES_HPP
#define RECUR_IMPL_SERIES_HPP

#include <recur/families.hpp>
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
// half the work of forming each p_n first. Families with an x-dependent
// prefactor (HermiteFunction) run it on the polynomial part and multiply by
// the prefactor. PowerSums, which is no three-term family, sums forward.
template <class Kernel>
struct is_scaled_kernel : std::false_type {};
template <class MemorySpace, class Family>
struct is_scaled_kernel<ScaledThreeTermKernel<MemorySpace, Family>> : std::true_type {};

template <class W, class Kernel, class Column>
KOKKOS_FUNCTION void clenshaw(const Kernel& kernel, double x, const Column& c, int N, W& y,
                              W* dy) {
  W b1{}, b2{}, d1{}, d2{};  // b_{n+1}, b_{n+2} and their derivatives
  for (int n = N - 1; n >= 0; --n) {
    W b = constant<W>(double(c(n))), d{};
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
  }
  y = b1 * kernel.initial;
  if (dy) *dy = d1 * kernel.initial;
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
    const double xi      = double(T(x(i)));
    const auto column    = [&](int n) { return C(n, k); };
    if constexpr (std::is_same_v<Kernel, PowerSums>) {
      // s_n = x + ... + x^(n+1), s'_n = 1 + ... + (n+1) x^n, summed forward.
      double power = xi, dpower = 1, s = 0, ds = 0, y = 0, dy = 0;
      for (int n = 0; n < N; ++n) {
        s += power;
        ds += dpower;
        y += double(column(n)) * s;
        dy += double(column(n)) * ds;
        dpower = (n + 2) * power;
        power *= xi;
      }
      Y(i, k) = T(y);
      if (derivative) dY(i, k) = T(dy);
    } else if constexpr (is_scaled_kernel<Kernel>::value) {
      double y, dy;
      clenshaw<double>(kernel, xi, column, N, y, derivative ? &dy : nullptr);
      const double g = kernel.family.exponent(xi), scale = kokkos_math::exp(g);
      Y(i, k) = T(y * scale);
      if (derivative) dY(i, k) = T((dy + kernel.family.exponent_derivative(xi) * y) * scale);
    } else {
      using W = std::decay_t<decltype(kernel.initial)>;
      W y, dy;
      clenshaw<W>(kernel, xi, column, N, y, derivative ? &dy : nullptr);
      Y(i, k) = T(to_double(y));
      if (derivative) dY(i, k) = T(to_double(dy));
    }
  }
};

}  // namespace recur::impl

#endif
