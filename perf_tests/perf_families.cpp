// recur_perf's entries for the built-in families beyond the suite's four
// (perf_evaluate.cpp), at the table's shape: a translation unit of their
// own, compiled beside perf_evaluate.cpp.
#include "perf_evaluate.hpp"
#include "perf_support.hpp"

#include <string>
#include <type_traits>

namespace recur_perf {

namespace {

// The other built-in families at the table's shape (M = 2^24 on GPUs,
// 2^20 on CPUs, N = 32), Auto and Auto-Fast: the performance targets hold
// for every built-in family (docs/performance.md).
template <class Space, class T, class Layout, class Family>
void add_table_shape(const std::string& layout) {
  const bool device =
      !Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible;
  const std::string name = std::string("evaluate/") + Space::name() + "/" +
                           (std::is_same_v<T, float> ? "float" : "double") + "/" + layout + "/" +
                           Family::name() + "/";
  const auto shape = [&](benchmark::internal::Benchmark* b) {
    b->ArgNames({"log2M", "N"})->UseManualTime()->Unit(benchmark::kMillisecond)->Args({device ? 24 : 20, 32});
  };
  shape(benchmark::RegisterBenchmark((name + "Auto").c_str(),
                                     evaluate<Space, T, Layout, Family, recur::Auto>, recur::Auto{}));
  shape(benchmark::RegisterBenchmark((name + "Auto-Fast").c_str(),
                                     evaluate<Space, T, Layout, Family, recur::Auto, recur::Fast>,
                                     recur::Auto{}));
}
template <class Space, class T, class Layout>
void add_families_of(const std::string& layout) {
  add_table_shape<Space, T, Layout, recur::Monomials>(layout);
  add_table_shape<Space, T, Layout, recur::Hermite>(layout);
  add_table_shape<Space, T, Layout, recur::HermiteNormalized>(layout);
  add_table_shape<Space, T, Layout, recur::HermiteFunction>(layout);
  add_table_shape<Space, T, Layout, recur::LegendreNormalized>(layout);
  add_table_shape<Space, T, Layout, recur::ChebyshevT>(layout);
  add_table_shape<Space, T, Layout, recur::ChebyshevU>(layout);
  add_table_shape<Space, T, Layout, recur::Laguerre>(layout);
  add_table_shape<Space, T, Layout, recur::LaguerreNormalized>(layout);
  add_table_shape<Space, T, Layout, recur::Jacobi>(layout);
  add_table_shape<Space, T, Layout, recur::JacobiNormalized>(layout);
  add_table_shape<Space, T, Layout, recur::Gegenbauer>(layout);
  add_table_shape<Space, T, Layout, recur::GegenbauerNormalized>(layout);
}

}  // namespace

template <class Space>
void add_other_families() {
  add_families_of<Space, float, Kokkos::LayoutLeft>("LayoutLeft");
  add_families_of<Space, float, Kokkos::LayoutRight>("LayoutRight");
  add_families_of<Space, double, Kokkos::LayoutLeft>("LayoutLeft");
  add_families_of<Space, double, Kokkos::LayoutRight>("LayoutRight");
}

template void add_other_families<Kokkos::DefaultExecutionSpace>();
#ifdef KOKKOS_ENABLE_CUDA
template void add_other_families<HostSpace>();
#endif

}  // namespace recur_perf
