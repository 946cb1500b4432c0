# Kokkos decides the backend: point Kokkos_ROOT (or CMAKE_PREFIX_PATH) at the
# install you want recur built for.
#
# `pip install .` (scikit-build-core) with no Kokkos named and none found:
# the Kokkos the fresh-machine path builds into .deps/ (cmake/run.sh kokkos
# builds it there when it is missing, and says where it is).
if(SKBUILD AND NOT Kokkos_ROOT AND NOT DEFINED ENV{Kokkos_ROOT} AND NOT Kokkos_DIR)
  find_package(Kokkos 3.4 QUIET)
  if(NOT Kokkos_FOUND)
    message(STATUS "recur: no Kokkos named (Kokkos_ROOT); using cmake/run.sh's, in .deps/")
    execute_process(COMMAND ${PROJECT_SOURCE_DIR}/cmake/run.sh kokkos
                    OUTPUT_VARIABLE Kokkos_ROOT OUTPUT_STRIP_TRAILING_WHITESPACE
                    RESULT_VARIABLE recur_no_kokkos)
    if(recur_no_kokkos)
      message(FATAL_ERROR "recur: cmake/run.sh kokkos could not build Kokkos; set Kokkos_ROOT "
                          "to a Kokkos install (position-independent, or shared libraries)")
    endif()
    # With that Kokkos, the flags run.sh's builds add to its architecture.
    if(NOT RECUR_ARCH_FLAGS)
      execute_process(COMMAND ${PROJECT_SOURCE_DIR}/cmake/run.sh arch-flags
                      OUTPUT_VARIABLE recur_run_arch_flags OUTPUT_STRIP_TRAILING_WHITESPACE)
      set_property(CACHE RECUR_ARCH_FLAGS PROPERTY VALUE "${recur_run_arch_flags}")
    endif()
  endif()
endif()
find_package(Kokkos 3.4 REQUIRED)
message(STATUS "recur: Kokkos ${Kokkos_VERSION} from ${Kokkos_DIR}, backends: ${Kokkos_DEVICES}")

foreach(backend IN LISTS RECUR_REQUIRE_BACKENDS)
  kokkos_check(DEVICES ${backend} RETURN_VALUE recur_has_backend)
  if(NOT recur_has_backend)
    message(FATAL_ERROR
      "recur: this build needs the Kokkos backend '${backend}', but the Kokkos "
      "at ${Kokkos_DIR} enables only: ${Kokkos_DEVICES}. Point Kokkos_ROOT at a "
      "Kokkos built with -DKokkos_ENABLE_${backend}=ON (see README.md).")
  endif()
endforeach()

# Usually installed beside Kokkos, so Kokkos_ROOT is a good hint.
find_package(KokkosKernels QUIET HINTS ${Kokkos_ROOT} $ENV{Kokkos_ROOT})
if(KokkosKernels_FOUND)
  set(RECUR_ENABLE_KOKKOSKERNELS ON)
  # The vendor BLAS behind it, as recur info reports it: the host BLAS
  # library Kokkos Kernels links (its Kokkos::BLAS target), cuBLAS by name.
  set(RECUR_VENDOR_BLAS "")
  if(TARGET Kokkos::BLAS)
    get_target_property(recur_blas Kokkos::BLAS INTERFACE_LINK_LIBRARIES)
    list(JOIN recur_blas " " RECUR_VENDOR_BLAS)
    set(RECUR_VENDOR_BLAS "host BLAS ${RECUR_VENDOR_BLAS}")
  endif()
  if(TARGET Kokkos::CUBLAS)
    if(RECUR_VENDOR_BLAS)
      set(RECUR_VENDOR_BLAS "cuBLAS and ${RECUR_VENDOR_BLAS}")
    else()
      set(RECUR_VENDOR_BLAS "cuBLAS")
    endif()
  endif()
  message(STATUS "recur: Kokkos Kernels ${KokkosKernels_VERSION} from ${KokkosKernels_DIR}; "
                 "vendor BLAS: ${RECUR_VENDOR_BLAS}")
else()
  set(RECUR_ENABLE_KOKKOSKERNELS OFF)
  message(STATUS "recur: Kokkos Kernels not found; building without it")
endif()
