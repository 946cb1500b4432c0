// recur info: versions, backends, devices and memory.

#include "commands.hpp"
#include "ranks.hpp"

#include <recur/stream.hpp>
#include <recur/version.hpp>

#include <Kokkos_Core.hpp>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>

namespace recur::cli {

const CommandSpec info_command{
    "info",
    "info",
    "Prints recur's version, the Kokkos it was built with (version, enabled backends,\n"
    "default execution space), the devices it runs on and their memory, and Kokkos' own\n"
    "configuration report.",
    {{"help", nullptr, "this help"}},
    ""};

namespace {

std::string gib(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GiB", bytes / double(1u << 30));
  return text;
}

// The node-local rank that launchers give (Open MPI, Slurm, MPICH's Hydra,
// MVAPICH2), or -1.
int local_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID", "MPI_LOCALRANKID",
                           "MV2_COMM_WORLD_LOCAL_RANK", "PMI_LOCAL_RANK"})
    if (const char* value = std::getenv(name)) return std::atoi(value);
  return -1;
}

// "rank R of P on HOST (local rank L): DEVICE".
std::string rank_line() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  std::ostringstream line;
  line << "  rank " << ranks::rank() << " of " << ranks::count() << " on " << host
       << " (local rank " << local_rank() << "): ";
  line << describe_device();
  line << "\n";
  return line.str();
}

}  // namespace

int run_info(const Arguments&) {
  KokkosSession kokkos;
  std::ostringstream out;
  print_configuration(out);
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  out << "host: " << std::thread::hardware_concurrency() << " hardware threads, "
      << Kokkos::DefaultHostExecutionSpace().concurrency() << " used by "
      << Kokkos::DefaultHostExecutionSpace::name() << "; memory "
      << (pages > 0 && page > 0 ? gib(double(pages) * double(page)) : std::string("unknown"))
      << " total, " << gib(double(recur::impl::available_host_memory())) << " available\n";
#ifdef KOKKOS_ENABLE_CUDA
  int devices = 0;
  if (cudaGetDeviceCount(&devices) == cudaSuccess) {
    const int in_use = Kokkos::Cuda().cuda_device();
    for (int d = 0; d < devices; ++d) {
      cudaDeviceProp properties;
      if (cudaGetDeviceProperties(&properties, d) != cudaSuccess) continue;
      out << "CUDA device " << d << ": " << properties.name << ", compute capability "
          << properties.major << "." << properties.minor << ", "
          << gib(double(properties.totalGlobalMem)) << " memory";
      if (d == in_use) {
        std::size_t free = 0, total = 0;
        if (cudaMemGetInfo(&free, &total) == cudaSuccess) out << ", " << gib(double(free)) << " free";
        out << " (in use)";
      }
      out << "\n";
    }
  }
#endif
  // Under MPI, one line a rank: where it runs and on what.
  const std::string ranks_lines = ranks::gather_lines(rank_line());
  if (ranks::rank() != 0) return 0;
  if (ranks::many()) out << "MPI ranks:\n" << ranks_lines;
  out << "\nKokkos configuration:\n";
  Kokkos::print_configuration(out, false);
  std::cout << out.str();
  return 0;
}

}  // namespace recur::cli
