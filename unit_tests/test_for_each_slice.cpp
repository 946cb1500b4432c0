#include "test_support.hpp"

namespace for_each_slice_test {

using namespace recur_test;

template <class C>
class ForEachSlice : public ::testing::Test {};
TYPED_TEST_SUITE(ForEachSlice, AllConfigs, ConfigName);

// The seed's t2.py kernel body, as a user writes it: scalar in, slice out.
// (Device lambdas may not live in a gtest body, which is a private member.)
template <class C>
void seed_power_sums(const typename C::XView& x, const typename C::VView& V) {
  using T = typename C::scalar;
  recur::for_each_slice(
      typename C::space{}, x, V, KOKKOS_LAMBDA(T xi, recur::Slice<T> out) {
        T tmp1 = 0;
        T tmp  = xi;
        for (int i = 0; i < out.size(); ++i) {
          tmp1 += tmp;
          out(i) = tmp1;
          tmp *= xi;
        }
      });
}

// The seed's t3.py recurrence, normalized as it goes so that no n! is formed.
template <class C>
void seed_hermite_normalized(const typename C::XView& x,
                             const typename C::VView& V) {
  using T = typename C::scalar;
  recur::for_each_slice(x, V, KOKKOS_LAMBDA(T xi, recur::Slice<T> out) {
    out(0) = 1;
    if (out.size() > 1) out(1) = xi;
    for (int n = 1; n + 1 < out.size(); ++n)
      out(n + 1) = (xi * out(n) - recur::sqrt(T(n)) * out(n - 1)) /
                   recur::sqrt(T(n + 1));
  });
}

TYPED_TEST(ForEachSlice, SeedPowerSumsKernelMatchesReference) {
  using T     = typename TypeParam::scalar;
  const int M = 1000;
  const int N = 17;
  const std::vector<T> xs = sample_points<T>(M, 1.7);
  const auto x = to_device<typename TypeParam::XView>(xs);
  typename TypeParam::VView user("user", M, N);
  seed_power_sums<TypeParam>(x, user);
  const auto h = to_host(user);
  double worst = 0;
  for (int i = 0; i < M; ++i)
    worst = std::max(worst, scaled_error([&](std::size_t n) { return h(i, n); },
                                         power_sums_reference(xs[i], N)));
  EXPECT_LE(worst, tolerance<T>(N));
  EXPECT_EQ(h(1, 1), T(2));  // x = 1: 1 + 1
}

TYPED_TEST(ForEachSlice, SeedHermiteKernelMatchesReference) {
  using T     = typename TypeParam::scalar;
  const int M = 500;
  const int N = 40;  // past n = 35, where the seed's float kernel overflows
  const std::vector<T> xs = sample_points<T>(M, 5);
  const auto x = to_device<typename TypeParam::XView>(xs);
  typename TypeParam::VView V("V", M, N);
  seed_hermite_normalized<TypeParam>(x, V);
  const auto h = to_host(V);
  double worst = 0;
  for (int i = 0; i < M; ++i)
    worst = std::max(worst, scaled_error([&](std::size_t n) { return h(i, n); },
                                         hermite_e_normalized_reference(xs[i], N)));
  // sqrt per step in T, instead of coefficients tabulated in double.
  EXPECT_LE(worst, 4 * tolerance<T>(N));
}

TYPED_TEST(ForEachSlice, NamedFunctorReadsBackItsOwnSlice) {
  using T     = typename TypeParam::scalar;
  const int M = 333;
  const int N = 20;
  const std::vector<T> xs = sample_points<T>(M, 1.8);
  const auto x = to_device<typename TypeParam::XView>(xs);
  typename TypeParam::VView V("V", M, N);
  recur::for_each_slice(typename TypeParam::space{}, x, V,
                        PowerSumsReadingBack<T>{}, recur::ThreadPerX{});
  const auto h = to_host(V);
  double worst = 0;
  for (int i = 0; i < M; ++i)
    worst = std::max(worst, scaled_error([&](std::size_t n) { return h(i, n); },
                                         power_sums_reference(xs[i], N)));
  EXPECT_LE(worst, tolerance<T>(N));
}

}  // namespace for_each_slice_test
