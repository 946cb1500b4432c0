// Bad calls fail with a message that says what to fix, and kernels carry
// labels that Kokkos Tools can show.
#include "test_support.hpp"

#include <functional>
#include <stdexcept>

namespace errors_test {

using Space = Kokkos::DefaultExecutionSpace;
using XView = Kokkos::View<double*, Space>;
using VView = Kokkos::View<double**, Space>;

void expect_invalid_argument(const std::function<void()>& call,
                             const std::string& message) {
  EXPECT_EQ(recur_test::invalid_argument_message(call), message);
}

TEST(Errors, EvaluateNamesBothExtentsWhenRowsDiffer) {
  XView x("x", 5);
  VView V("V", 4, 3);
  expect_invalid_argument(
      [&] { recur::evaluate(Space{}, recur::HermiteE{}, x, V); },
      "recur::evaluate: x has 5 entries but V has 4 rows; V must be M x N "
      "with M = x.extent(0)");
}

TEST(Errors, EvaluateRejectsEmptyN) {
  XView x("x", 4);
  VView V("V", 4, 0);
  expect_invalid_argument(
      [&] { recur::evaluate(recur::PowerSums{}, x, V); },
      "recur::evaluate: V has 0 columns; N = V.extent(1) is the number of "
      "terms per x and must be at least 1");
}

template <class T>
struct Ones {
  KOKKOS_FUNCTION void operator()(T, const recur::Slice<T>& s) const {
    for (int n = 0; n < s.size(); ++n) s(n) = 1;
  }
};

TEST(Errors, ForEachSliceNamesBothExtentsWhenRowsDiffer) {
  XView x("x", 2);
  VView V("V", 7, 3);
  expect_invalid_argument(
      [&] { recur::for_each_slice(x, V, Ones<double>{}); },
      "recur::for_each_slice: x has 2 entries but V has 7 rows; V must be M x "
      "N with M = x.extent(0)");
}

TEST(Errors, ForEachSliceRejectsEmptyN) {
  XView x("x", 3);
  VView V("V", 3, 0);
  expect_invalid_argument(
      [&] { recur::for_each_slice(Space{}, x, V, Ones<double>{}); },
      "recur::for_each_slice: V has 0 columns; N = V.extent(1) is the number "
      "of terms per x and must be at least 1");
}

TEST(Errors, FailedCallLeavesVUntouched) {
  XView x("x", 3);
  VView V("V", 2, 2);
  Kokkos::deep_copy(V, 5.0);
  EXPECT_THROW(recur::evaluate(recur::HermiteE{}, x, V), std::invalid_argument);
  const auto h = recur_test::to_host(V);
  EXPECT_EQ(h(0, 0) + h(0, 1) + h(1, 0) + h(1, 1), 20.0);
}

TEST(Errors, EmptyBatchIsAcceptedAndLaunchesNothing) {
  XView x("x", 0);
  VView V("V", 0, 4);
  EXPECT_NO_THROW(recur::evaluate(recur::HermiteENormalized{}, x, V));
}

// Kernel labels, as a Kokkos Tools profiler sees them.
std::vector<std::string>& seen_labels() {
  static std::vector<std::string> labels;
  return labels;
}
void record_label(const char* name, std::uint32_t, std::uint64_t*) {
  seen_labels().emplace_back(name);
}

template <class T>
void run_labelled_kernels() {
  const int M = 8;
  Kokkos::View<T*, Space> x("x", M);
  Kokkos::View<T**, Kokkos::LayoutRight, Space> V("V", M, 3);
  recur::evaluate(Space{}, recur::HermiteENormalized{}, x, V);
  recur::evaluate(Space{}, recur::PowerSums{}, x, V, recur::ThreadPerX{});
  recur::for_each_slice(x, V, Ones<T>{});
  recur::evaluate(Space{}, recur::HermiteE{}, x, V, recur::Staged{});
  recur::for_each_slice(x, V, Ones<T>{}, recur::Staged{});
  Kokkos::fence();
}

TEST(Labels, KernelsAreNamedAfterOperationFamilyAndPolicy) {
  seen_labels().clear();
  Kokkos::Tools::Experimental::set_begin_parallel_for_callback(record_label);
  run_labelled_kernels<float>();
  Kokkos::Tools::Experimental::set_begin_parallel_for_callback(nullptr);
  const auto has = [](const std::string& label) {
    return std::find(seen_labels().begin(), seen_labels().end(), label) !=
           seen_labels().end();
  };
  // Staged runs as what it is on this backend: staged on a GPU, one thread
  // per x on CPUs; Auto stages a three-term family's row slices on a GPU.
  const std::string staged =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, Space::memory_space>::accessible
          ? "ThreadPerX"
          : "Staged";
  EXPECT_TRUE(has("recur::evaluate[HermiteENormalized," + staged + "]"));
  EXPECT_TRUE(has("recur::evaluate[PowerSums,ThreadPerX]"));
  EXPECT_TRUE(has("recur::for_each_slice[ThreadPerX]"));
  EXPECT_TRUE(has("recur::evaluate[HermiteE," + staged + "]"));
  EXPECT_TRUE(has("recur::for_each_slice[" + staged + "]"));
}

}  // namespace errors_test

namespace errors_test {

TEST(Errors, FamilyParametersOutsideTheirRangeAreRejectedByName) {
  EXPECT_EQ(recur_test::invalid_argument_message([] { recur::Laguerre{-1.0}; }),
            "recur::Laguerre: alpha = -1 is invalid; alpha must be > -1");
  EXPECT_EQ(recur_test::invalid_argument_message([] { recur::Jacobi(0.5, -2.5); }),
            "recur::Jacobi: beta = -2.5 is invalid; beta must be > -1");
  EXPECT_EQ(recur_test::invalid_argument_message([] { recur::JacobiNormalized(std::nan(""), 0.0); }),
            "recur::Jacobi: alpha = nan is invalid; alpha must be > -1");
  EXPECT_EQ(recur_test::invalid_argument_message([] { recur::Gegenbauer{-0.5}; }),
            "recur::Gegenbauer: lambda = -0.5 is invalid; lambda must be > -1/2");
  EXPECT_EQ(recur_test::invalid_argument_message([] { recur::GegenbauerNormalized{-0.75}; }),
            "recur::Gegenbauer: lambda = -0.75 is invalid; lambda must be > -1/2");
  EXPECT_EQ(recur_test::invalid_argument_message([] { recur::Laguerre{INFINITY}; }),
            "recur::Laguerre: alpha = inf is invalid; alpha must be > -1");
}

TEST(Errors, DerivativeViewMustMatchV) {
  XView x("x", 4);
  VView V("V", 4, 3), wrong("wrong", 4, 2);
  expect_invalid_argument(
      [&] { recur::evaluate(recur::Legendre{}, x, V, wrong); },
      "recur::evaluate: dV is 4 x 2 but V is 4 x 3; dV must have V's extents");
  expect_invalid_argument(
      [&] { recur::evaluate(Space{}, recur::Legendre{}, x, V, V); },
      "recur::evaluate: dV and V are the same memory; pass a separate View for "
      "the derivatives");
}

}  // namespace errors_test
