#ifndef RECUR_PYTHON_COMMON_HPP
#define RECUR_PYTHON_COMMON_HPP

// recur._recur: the compiled half of the Python package (src/python/recur):
// what its sources share (module.cpp holds the module, the others one group
// of functions each, so that a build compiles them in parallel).
//
// Every function here takes arrays the caller owns, through DLPack
// (nb::ndarray: NumPy, CuPy, PyTorch, JAX), and writes its results into
// arrays the caller passed, so no array is ever copied on the way in or out;
// the Python half allocates outputs in the caller's kind of array and turns
// the argument forms users write into the few forms accepted here:
//   - x and the other inputs: contiguous, of the output's dtype;
//   - outputs: C-contiguous (LayoutRight) or F-contiguous (LayoutLeft).
// Arrays must be in the memory recur's backend computes in: the host for a
// CPU build; in a CUDA build the GPU recur runs on, or the host, in which
// case the array is staged through the GPU (a copy each way). The work runs
// on the caller's CUDA stream where one is given (Kokkos::Cuda instance on
// that stream), with the GIL released, and is fenced before returning.

#include "../cli/errors.hpp"
#include "../cli/families.hpp"

#include <recur/recur.hpp>
#include <recur/version.hpp>

#include <Kokkos_Core.hpp>
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace nb = nanobind;

namespace recur::python {

using Space  = Kokkos::DefaultExecutionSpace;
using Memory = Space::memory_space;
constexpr bool host_build = std::is_same_v<Memory, Kokkos::HostSpace>;

using Input  = nb::ndarray<nb::ro>;
using Output = nb::ndarray<>;

// A family as the Python side names it: the command's name and parameters.
inline cli::FamilyChoice family_choice(const std::string& name, std::optional<double> alpha,
                                std::optional<double> beta, std::optional<double> lambda) {
  return {name, alpha, beta, lambda};
}

// The execution space instance on the caller's stream (CUDA builds; 0: the
// default instance). Instances are kept, one a stream, until Kokkos ends.
inline std::map<std::uintptr_t, Space>& instances() {
  static std::map<std::uintptr_t, Space> kept;
  return kept;
}
inline Space space_on(std::uintptr_t stream) {
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same_v<Space, Kokkos::Cuda>) {
    if (stream != 0) {
      auto& kept = instances();
      auto found = kept.find(stream);
      if (found == kept.end())
        found = kept.emplace(stream, Kokkos::Cuda(reinterpret_cast<cudaStream_t>(stream))).first;
      return found->second;
    }
  }
#endif
  (void)stream;
  return Space{};
}

inline std::string shape_of(const Input& a) {
  std::string s = "(";
  for (std::size_t i = 0; i < a.ndim(); ++i) s += (i ? ", " : "") + std::to_string(a.shape(i));
  return s + (a.ndim() == 1 ? ",)" : ")");
}

template <class T>
constexpr const char* dtype_name() {
  return std::is_same_v<T, float> ? "float32" : "float64";
}

// Whether recur can use the array where it is: host arrays always (staged
// in device builds), device arrays on recur's own GPU.
template <class Array>
bool on_host(const Array& a, const std::string& where, const char* what) {
  const int type = a.device_type();
  if (type == nb::device::cpu::value) return true;
  if constexpr (host_build) {
    throw std::invalid_argument(where + what +
                                " is a device array, but this recur computes on the host (" +
                                Space::name() + "); pass a NumPy (host) array");
  } else {
#ifdef KOKKOS_ENABLE_CUDA
    if (type != nb::device::cuda::value && type != nb::device::cuda_managed::value)
      throw std::invalid_argument(where + what +
                                  " is on a device this recur does not compute on; pass a "
                                  "CUDA array (CuPy, PyTorch, JAX) or a host array");
    const int in_use = Space().cuda_device();
    if (a.device_id() != in_use)
      throw std::invalid_argument(where + what + " is on GPU " + std::to_string(a.device_id()) +
                                  " but recur computes on GPU " + std::to_string(in_use) +
                                  "; move it there (or start recur on that GPU)");
#endif
    return false;
  }
}

// The array as a View in Memory with extents `extents` (its rank's) and
// layout L: the array's own memory, or in device builds for a host array a
// copy on the device (`copy_in`: with the array's values), copied back by
// `finish` for outputs.
template <class DataType, class L>
class Bound {
 public:
  using view_type  = Kokkos::View<DataType, L, Memory, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using value_type = typename view_type::value_type;
  using host_type  =
      Kokkos::View<DataType, L, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

  template <class Array>
  Bound(const Space& space, const Array& a, const std::string& where, const char* what,
        bool copy_in)
      : m_layout(layout_of(a)) {
    auto* data = static_cast<value_type*>(const_cast<void*>(static_cast<const void*>(a.data())));
    if (on_host(a, where, what) && !host_build) {
      m_host    = host_type(data, m_layout);
      m_staged  = Kokkos::View<std::remove_const_t<value_type>*, Memory>(
          Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "recur::python::staged"),
          m_host.span());
      m_view    = view_type(m_staged.data(), m_layout);
      m_staging = true;
      if (copy_in) {
        const Kokkos::View<const value_type*, Kokkos::HostSpace,
                           Kokkos::MemoryTraits<Kokkos::Unmanaged>>
            from(m_host.data(), m_host.span());
        Kokkos::deep_copy(space, m_staged, from);
      }
    } else {
      m_view = view_type(data, m_layout);
    }
  }

  const view_type& view() const { return m_view; }

  void finish(const Space& space) const {
    if (!m_staging) return;
    const Kokkos::View<std::remove_const_t<value_type>*, Kokkos::HostSpace,
                       Kokkos::MemoryTraits<Kokkos::Unmanaged>>
        to(const_cast<std::remove_const_t<value_type>*>(m_host.data()), m_host.span());
    Kokkos::deep_copy(space, to, m_staged);
  }

 private:
  template <class Array>
  static L layout_of(const Array& a) {
    if (a.ndim() == 1) return L(a.shape(0));
    if (a.ndim() == 2) return L(a.shape(0), a.shape(1));
    return L(a.shape(0), a.shape(1), a.shape(2));
  }

  L m_layout;
  view_type m_view;
  host_type m_host;
  Kokkos::View<std::remove_const_t<value_type>*, Memory> m_staged;
  bool m_staging = false;
};

// Checks that `a` has rank `rank`, dtype T and, for rank > 1, the strides
// of layout L (C order: LayoutRight, F order: LayoutLeft); rank 1: unit
// stride.
template <class T, class L, class Array>
void check_array(const Array& a, const std::string& where, const char* what, std::size_t rank) {
  if (a.ndim() != rank)
    throw std::invalid_argument(where + what + " has " + std::to_string(a.ndim()) +
                                " dimensions; it must have " + std::to_string(rank));
  if (a.dtype() != nb::dtype<T>())
    throw nb::type_error((where + what + " must hold " + dtype_name<T>()).c_str());
  for (std::size_t k = 0; k < rank; ++k)
    if (a.shape(k) == 0) return;  // empty: any strides will do
  std::int64_t expected = 1;
  for (std::size_t k = 0; k < rank; ++k) {
    const std::size_t i = std::is_same_v<L, Kokkos::LayoutRight> ? rank - 1 - k : k;
    if (a.shape(i) > 1 && a.stride(i) != expected)
      throw std::invalid_argument(
          where + what + " must be " +
          (rank == 1 ? std::string("contiguous")
                     : std::is_same_v<L, Kokkos::LayoutRight> ? std::string("C-contiguous")
                                                              : std::string("F-contiguous")));
    expected *= std::int64_t(a.shape(i));
  }
}

// Whether a rank-2 output is in F order (LayoutLeft) rather than C order.
inline bool fortran_order(const Output& a) {
  if (a.ndim() < 2) return false;
  const bool c = a.shape(1) <= 1 || a.stride(1) == 1;
  return !c && (a.shape(0) <= 1 || a.stride(0) == 1);
}

template <class F>
void with_dtype(const Output& a, const std::string& where, F&& f) {
  if (a.dtype() == nb::dtype<float>())
    f(float{});
  else if (a.dtype() == nb::dtype<double>())
    f(double{});
  else
    throw nb::type_error((where + "the output must be float32 or float64").c_str());
}

template <class F>
void with_layout(bool fortran, F&& f) {
  if (fortran)
    f(Kokkos::LayoutLeft{});
  else
    f(Kokkos::LayoutRight{});
}

template <class F>
void with_precision(bool fast, F&& f) {
  if (fast)
    f(Fast{});
  else
    f(Accurate{});
}


// Where the last vander read x from: the tests check that x is read in place.
extern std::uintptr_t last_input;

// V (and dV) of `family` at x in Precision: V M x N, C or F order, float32
// or float64; x M values of V's dtype. One source per precision.
template <class Precision>
void vander_in(const cli::FamilyChoice& choice, const Input& x, const Output& V,
               const std::optional<Output>& dV, std::uintptr_t stream);
extern template void vander_in<Accurate>(const cli::FamilyChoice&, const Input&, const Output&,
                                         const std::optional<Output>&, std::uintptr_t);
extern template void vander_in<Fast>(const cli::FamilyChoice&, const Input&, const Output&,
                                     const std::optional<Output>&, std::uintptr_t);

void series(const cli::FamilyChoice& choice, const Input& C, const Input& x, const Output& Y,
            bool fast, std::uintptr_t stream);
void gauss(const cli::FamilyChoice& choice, const Output& nodes, const Output& weights);
void fit(const cli::FamilyChoice& choice, const Input& x, const Input& y, const Output& c,
         const std::optional<Input>& w, std::uintptr_t stream);
void project(const cli::FamilyChoice& choice, const Input& nodes, const Input& weights,
             const Input& values, const Output& c);
void product_vander(const std::vector<cli::FamilyChoice>& choices, const Input& indices,
                    const Input& X, const Output& Psi, const std::optional<Output>& dPsi,
                    bool fast, std::uintptr_t stream);
void product_series(const std::vector<cli::FamilyChoice>& choices, const Input& indices,
                    const Input& C, const Input& X, const Output& Y, bool fast,
                    std::uintptr_t stream);
void product_fit(const std::vector<cli::FamilyChoice>& choices, const Input& indices,
                 const Input& X, const Input& y, const Output& c, const std::optional<Input>& w,
                 std::uintptr_t stream);
std::tuple<double, double, std::vector<double>, std::vector<double>> product_sobol(
    const std::vector<cli::FamilyChoice>& choices, const Input& indices,
    const std::vector<double>& c);

#ifdef RECUR_ENABLE_MPI
void mpi_initialize();
void mpi_finalize();
std::tuple<int, int> mpi_rank_size();
void mpi_fit(const cli::FamilyChoice& choice, const Input& x, const Input& y, const Output& c,
             const std::optional<Input>& w, std::uintptr_t stream);
void mpi_fail(const std::string& message);
#endif

}  // namespace recur::python

#endif
