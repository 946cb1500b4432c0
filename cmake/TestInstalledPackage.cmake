# ctest driver: installs the recur of BUILD_DIR into a scratch prefix, builds
# examples/ against it as an outside project would (find_package(recur)), and
# runs one example. Called with -DSOURCE_DIR -DBUILD_DIR -DWORK_DIR -DCXX.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples -B ${WORK_DIR}/build
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CXX}
    -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build --target recur_seed_power_sums)
run(${WORK_DIR}/build/recur_seed_power_sums)
if(NOT run_output MATCHES "\\[ +4 +20 +84 +340\\]\\]")
  message(FATAL_ERROR "the example built against the installed recur printed:\n${run_output}")
endif()
message(STATUS "installed package: found, built against and ran")
