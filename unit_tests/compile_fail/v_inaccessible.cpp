#include <recur/recur.hpp>
// A host execution space cannot write a View in CUDA device memory.
int main() {
  Kokkos::View<double*, Kokkos::HostSpace> x("x", 4);
  Kokkos::View<double**, Kokkos::CudaSpace> V("V", 4, 3);
  recur::evaluate(Kokkos::DefaultHostExecutionSpace{}, recur::HermiteE{}, x, V);
}
