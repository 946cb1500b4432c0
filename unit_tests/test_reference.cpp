// Every family against reference values computed with mpmath at 60 digits
// (unit_tests/reference/*.tsv, made by generate.py there), in both
// precisions, on the tested execution spaces (test_support.hpp), for N up
// to 2000.
//
// Metrics, per stored degree n of a row of N terms (N the smallest of 16, 64,
// 256, 2000 above n), both asserted <= tol(N) = 1e-13 sqrt(N) in double and
// 2e-6 sqrt(N) in float:
//   |got - ref| / max(|ref|, 1e-3 rowmax_N)    (plain)
//   |got - ref| / max(local, 1e-3 rowmax_N)    local = max(|p_{n-1}|, |p_n|, |p_{n+1}|)
// (test_support.hpp says why the neighbours count; with the working precisions
// recur uses, both hold).
// Values beyond the precision's range must be ±inf with the true sign; a
// non-finite result where the reference is representable fails.
//
// With RECUR_ACCURACY_REPORT=FILE set, the worst errors per family, precision
// and N (with the plain |ref| metric beside) are appended to FILE; that is how
// docs/accuracy.md is made.
#include "test_support.hpp"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

namespace reference_test {

using namespace recur_test;

struct ReferencePoint {
  double x;
  std::array<long double, 4> rowmax;  // for N = 16, 64, 256, 2000
};
struct ReferenceEntry {
  int point;
  int n;
  long double value;
  long double local;
};
struct ReferenceFile {
  std::string name;  // file stem, e.g. jacobi_alpha0.5_beta-0.5
  std::string family;
  double alpha = 0, beta = 0, lambda = 0;
  std::vector<ReferencePoint> points;
  std::vector<ReferenceEntry> entries;
};

constexpr std::array<int, 4> checked_N = {16, 64, 256, 2000};

inline ReferenceFile read_reference(const std::filesystem::path& path) {
  ReferenceFile file;
  file.name = path.stem().string();
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::istringstream words(line);
    if (line[0] == '#') {
      std::string hash, key;
      words >> hash >> key;
      if (key == "family") {
        words >> file.family;
        std::string parameter;
        double value;
        while (words >> parameter >> value) {
          if (parameter == "alpha") file.alpha = value;
          if (parameter == "beta") file.beta = value;
          if (parameter == "lambda") file.lambda = value;
        }
      } else if (key == "point") {
        int index;
        std::string x, r[4];
        words >> index >> x >> r[0] >> r[1] >> r[2] >> r[3];
        // %.9g names the float32 value uniquely; round back to it exactly.
        ReferencePoint point{double(std::strtof(x.c_str(), nullptr)), {}};
        for (int k = 0; k < 4; ++k) point.rowmax[k] = std::strtold(r[k].c_str(), nullptr);
        file.points.push_back(point);
      }
      continue;
    }
    std::string index, n, value, local;
    words >> index >> n >> value >> local;
    file.entries.push_back({std::atoi(index.c_str()), std::atoi(n.c_str()),
                            std::strtold(value.c_str(), nullptr),
                            std::strtold(local.c_str(), nullptr)});
  }
  return file;
}

inline std::vector<ReferenceFile> all_references() {
  std::vector<ReferenceFile> files;
  if (!std::filesystem::is_directory(reference_dir())) return files;
  for (const auto& entry : std::filesystem::directory_iterator(reference_dir()))
    if (entry.path().extension() == ".tsv") files.push_back(read_reference(entry.path()));
  std::sort(files.begin(), files.end(),
            [](const auto& a, const auto& b) { return a.name < b.name; });
  return files;
}

// How a file's family is evaluated: Auto, ScanAlongN in chunks of 7 terms
// (many chunks a row) where the family has a scan form, or Auto with
// recur::Fast.
enum class Mode { Auto, Scan, Fast };

template <class C>
auto evaluate_file(const ReferenceFile& f, const std::vector<typename C::scalar>& xs,
                   int N, Mode mode) {
  const auto x = to_device<typename C::XView>(xs);
  typename C::VView V("V", xs.size(), N);
  const auto go = [&](const auto& family) {
    if (mode == Mode::Scan) {
      recur::evaluate(typename C::space{}, family, x, V, recur::ScanAlongN{7});
    } else if (mode == Mode::Fast) {
      recur::evaluate(typename C::space{}, family, x, V, recur::Fast{});
    } else {
      recur::evaluate(typename C::space{}, family, x, V);
    }
    return to_host(V);
  };
  return with_family(f.family, f.alpha, f.beta, f.lambda, go);
}

template <class C>
class Reference : public ::testing::Test {};
TYPED_TEST_SUITE(Reference, AllConfigs, ConfigName);

template <class TypeParam>
void check_against_references(Mode mode) {
  using T = typename TypeParam::scalar;
  const auto files = all_references();
  ASSERT_GE(files.size(), 20u) << "reference data missing in " << reference_dir();
  const long double range = std::numeric_limits<T>::max();
  const char* report_path = std::getenv("RECUR_ACCURACY_REPORT");
  for (const auto& f : files) {
    std::vector<T> xs;
    for (const auto& p : f.points) xs.push_back(T(p.x));
    const auto h = evaluate_file<TypeParam>(f, xs, checked_N.back(), mode);
    std::array<double, 4> worst_local{}, worst_plain{}, worst_ulp{};
    std::array<int, 4> not_finite{}, not_infinite{};
    for (const auto& e : f.entries) {
      int k = 0;
      while (e.n >= checked_N[k]) ++k;
      if (std::fabs(e.value) > range * (1 + 1e-6L)) {  // beyond T: ±inf, the true sign
        const T got = h(e.point, e.n);
        not_infinite[k] += !(std::isinf(got) && std::signbit(got) == std::signbit(e.value));
        continue;
      }
      if (std::fabs(e.value) > range) continue;  // rounds to the largest T or to inf
      // Below the smallest normal number results lose relative precision
      // (gradual underflow) or flush to 0: judge them on that scale.
      const long double floor = std::max<long double>(
          1e-3L * std::min(f.points[e.point].rowmax[k], range), std::numeric_limits<T>::min());
      const long double got   = h(e.point, e.n);
      if (!std::isfinite(got)) {
        ++not_finite[k];
        continue;
      }
      const long double error = std::fabs(got - e.value);
      worst_local[k] = std::max(worst_local[k], double(error / std::max(e.local, floor)));
      worst_plain[k] =
          std::max(worst_plain[k], double(error / std::max(std::fabs(e.value), floor)));
      // In units in the last place of the value, away from zeros of the row
      // (|p_n| at least half its neighbours') and from its smallest values.
      if (std::fabs(e.value) >= e.local / 2 && std::fabs(e.value) >= floor) {
        const long double ulp = std::ldexp(
            1.0L, std::ilogb(e.value) - (std::numeric_limits<T>::digits - 1));
        worst_ulp[k] = std::max(worst_ulp[k], double(error / ulp));
      }
    }
    for (int k = 0; k < 4; ++k) {
      EXPECT_EQ(not_finite[k], 0) << f.name << " N=" << checked_N[k];
      EXPECT_EQ(not_infinite[k], 0) << f.name << " N=" << checked_N[k] << ": values beyond "
                                    << (std::is_same_v<T, float> ? "float" : "double")
                                    << "'s range must be inf with their sign";
      const double bound = mode == Mode::Fast ? fast_tolerance<T>(checked_N[k])
                                              : tolerance<T>(checked_N[k]);
      EXPECT_LE(worst_local[k], bound) << f.name << " N=" << checked_N[k];
      EXPECT_LE(worst_plain[k], bound) << f.name << " N=" << checked_N[k];
      if (report_path && mode != Mode::Scan && std::string(TypeParam::space::name()) ==
                             Kokkos::DefaultExecutionSpace::name() &&
          std::is_same_v<typename TypeParam::layout, Kokkos::LayoutRight>) {
        std::ofstream report(report_path, std::ios::app);
        report << f.name << '\t' << (std::is_same_v<T, float> ? "float" : "double")
               << (mode == Mode::Fast ? "-fast" : "") << '\t'
               << checked_N[k] << '\t' << worst_local[k] << '\t' << worst_plain[k] << '\t'
               << not_finite[k] << '\t' << worst_ulp[k] << '\n';
      }
    }
  }
}

TYPED_TEST(Reference, EveryFamilyMatchesMpmathUpToN2000) {
  check_against_references<TypeParam>(Mode::Auto);
}

TYPED_TEST(Reference, ScanAlongNMatchesMpmathUpToN2000) {
  check_against_references<TypeParam>(Mode::Scan);
}

// recur::Fast: plain arithmetic in V's own type, whose rounding errors grow
// with n (like n^2 near x = ±1 for the Jacobi-type families), held to
// fast_tolerance.
TYPED_TEST(Reference, FastMatchesMpmathWithinItsBoundUpToN2000) {
  check_against_references<TypeParam>(Mode::Fast);
}

}  // namespace reference_test
