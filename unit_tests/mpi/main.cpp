// recur/mpi.hpp under mpirun: every rank runs every test; a test passes when it
// passes on every rank (the exit status is then 0 on every rank).
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>
#include <mpi.h>

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int status = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    // Only rank 0 prints the usual report; every rank reports its failures.
    if (rank != 0) {
      auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
      delete listeners.Release(listeners.default_result_printer());
    }
    status = RUN_ALL_TESTS();
    if (status != 0 && rank != 0)
      std::fprintf(stderr, "rank %d: %d test(s) failed\n", rank,
                   ::testing::UnitTest::GetInstance()->failed_test_count());
  }
  MPI_Allreduce(MPI_IN_PLACE, &status, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return status;
}
