# Spack package of recur: `spack repo add <recur>/spack`, then `spack install recur`
# (docs/clusters.md says what was checked).

from spack.package import *


class Recur(CMakePackage, CudaPackage):
    """Batched recurrences on Kokkos: for every x of a batch, the N values of a
    recurrence-defined sequence (orthogonal polynomials, power sums, any
    recurrence a user writes) into an M x N Kokkos View at memory-bandwidth
    speed, and what users do next with them (series, Gauss rules, projections,
    fits), on a GPU or on CPUs, across MPI ranks."""

    homepage = "https://github.com/recur/recur"
    git = "https://github.com/recur/recur.git"

    license("Apache-2.0")

    version("main", branch="main")

    # The backend is the Kokkos recur builds against: these pass on to it.
    variant("openmp", default=True, description="CPUs: the Kokkos OpenMP backend")
    variant("serial", default=True, description="the Kokkos Serial backend")
    variant("mpi", default=True, description="recur/mpi.hpp; the command and perf suite across ranks")
    variant("kokkos_kernels", default=True,
            description="Kokkos Kernels for the products with V (series, projections)")
    variant("cli", default=True, description="build and install the recur command")

    depends_on("cxx", type="build")
    depends_on("cmake@3.16:", type="build")
    # recur is C++17: Kokkos 3.4 to 4.x (Kokkos 5 needs C++20).
    depends_on("kokkos@3.4:4")
    depends_on("kokkos+openmp", when="+openmp")
    depends_on("kokkos+serial", when="+serial")
    depends_on("kokkos+cuda+cuda_lambda+wrapper", when="+cuda")
    for arch in CudaPackage.cuda_arch_values:
        depends_on(f"kokkos cuda_arch={arch}", when=f"+cuda cuda_arch={arch}")
    depends_on("kokkos-kernels@3.4:4", when="+kokkos_kernels")
    depends_on("kokkos-kernels+cublas", when="+kokkos_kernels+cuda")
    depends_on("mpi", when="+mpi")
    depends_on("googletest", type="test")
    depends_on("benchmark", type="test")

    conflicts("+cuda", when="^kokkos@:3", msg="CUDA builds need Kokkos 4 (CUDA 12 and newer)")

    def cmake_args(self):
        spec = self.spec
        args = [
            self.define_from_variant("RECUR_ENABLE_MPI", "mpi"),
            self.define_from_variant("RECUR_ENABLE_CLI", "cli"),
            self.define("RECUR_ENABLE_TESTS", self.run_tests),
            self.define("RECUR_ENABLE_BENCHMARKS", self.run_tests),
            self.define("RECUR_ENABLE_EXAMPLES", False),
            self.define("Kokkos_ROOT", spec["kokkos"].prefix),
        ]
        if spec.satisfies("~kokkos_kernels"):
            args.append(self.define("CMAKE_DISABLE_FIND_PACKAGE_KokkosKernels", True))
        if spec.satisfies("+cuda"):
            # Kokkos' compiler wrapper compiles recur's kernels for the GPU.
            args.append(self.define("CMAKE_CXX_COMPILER", spec["kokkos"].kokkos_cxx))
        return args
