# ctest driver: recur as an outside project sees it, relocated. Called with
# -DSOURCE_DIR -DKOKKOS_DIR (the Kokkos_DIR recur was built with) -DWORK_DIR
# -DCXX -DGENERATOR.
#
#  1. Kokkos' install prefix is copied into a staging prefix (unless it is a
#     system prefix such as /usr, which stays where it is), as
#     `cmake/run.sh install PREFIX` does;
#  2. recur (the library alone) is configured against that copy in a scratch
#     build tree, built and installed into the same prefix;
#  3. the scratch build tree is deleted and the prefix moved to another
#     name, so that no path recorded while building stays valid;
#  4. examples/ is built against the moved prefix as an outside project
#     would (find_package(recur), no build type: recur's config warns), and
#     the demo runs. Its Kokkos must be the moved one.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
  set(run_errors "${err}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
set(stage ${WORK_DIR}/stage)
set(moved ${WORK_DIR}/moved)
get_filename_component(kokkos_prefix "${KOKKOS_DIR}/../../.." ABSOLUTE)
if(kokkos_prefix MATCHES "^(/|/usr|/usr/local|/opt)$")
  set(bundled OFF)
  set(kokkos_root ${kokkos_prefix})
else()
  set(bundled ON)
  file(MAKE_DIRECTORY ${stage})
  file(COPY ${kokkos_prefix}/ DESTINATION ${stage})
  set(kokkos_root ${stage})
endif()

run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -G "${GENERATOR}"
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CXX} -DKokkos_ROOT=${kokkos_root}
    -DCMAKE_INSTALL_PREFIX=${stage} -DRECUR_ENABLE_TESTS=OFF -DRECUR_ENABLE_BENCHMARKS=OFF
    -DRECUR_ENABLE_EXAMPLES=OFF -DRECUR_ENABLE_CLI=OFF
    -DRECUR_ETI_FAMILIES=PowerSums)
cmake_host_system_information(RESULT cores QUERY NUMBER_OF_LOGICAL_CORES)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build --parallel ${cores})
run(${CMAKE_COMMAND} --install ${WORK_DIR}/build)
file(REMOVE_RECURSE ${WORK_DIR}/build)
file(RENAME ${stage} ${moved})

# A fresh shell: no Kokkos_ROOT or CMAKE_PREFIX_PATH from the build's
# environment (cmake/run.sh exports Kokkos_ROOT, and find_package honours it
# before any hint).
run(${CMAKE_COMMAND} -E env --unset=Kokkos_ROOT --unset=KokkosKernels_ROOT --unset=CMAKE_PREFIX_PATH
    ${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples -B ${WORK_DIR}/examples -G "${GENERATOR}"
    -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_PREFIX_PATH=${moved})
if(NOT run_errors MATCHES "recur: CMAKE_BUILD_TYPE is not set")
  message(FATAL_ERROR "recur's package config did not warn about the missing build type:\n${run_errors}")
endif()
file(STRINGS ${WORK_DIR}/examples/CMakeCache.txt kokkos_found REGEX "^Kokkos_DIR:")
if(bundled AND NOT kokkos_found MATCHES "^Kokkos_DIR:[A-Z]*=${moved}/")
  message(FATAL_ERROR "the installed recur found ${kokkos_found}, not the Kokkos in its own moved prefix ${moved}")
endif()
run(${CMAKE_COMMAND} -E env --unset=Kokkos_ROOT --unset=KokkosKernels_ROOT --unset=CMAKE_PREFIX_PATH
    ${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples -B ${WORK_DIR}/examples -DCMAKE_BUILD_TYPE=Release)
if(run_errors MATCHES "recur: CMAKE_BUILD_TYPE is not set")
  message(FATAL_ERROR "recur's package config warned although the build type is set:\n${run_errors}")
endif()
# The demo calls recur::evaluate for built-in families: with the precompiled
# instances, it links to the installed library's. The library holds those of
# PowerSums alone (RECUR_ETI_FAMILIES; all 19 families take two cores about
# three minutes), so the demo links to PowerSums' and compiles
# HermiteENormalized's in place.
run(${CMAKE_COMMAND} --build ${WORK_DIR}/examples --target recur_demo --parallel ${cores})
run(${WORK_DIR}/examples/recur_demo 12)
if(NOT run_output MATCHES "\\[ +4 +20 +84 +340\\]\\].*HermiteENormalized")
  message(FATAL_ERROR "the example built against the installed recur printed:\n${run_output}")
endif()
message(STATUS "installed package: found, built against and ran (${kokkos_found}, moved with recur: ${bundled})")
