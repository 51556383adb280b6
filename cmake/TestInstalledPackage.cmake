# SPDX-License-Identifier: MIT
# Installs BUILD_DIR into WORK_DIR/prefix, then configures, builds and runs the consumer project
# at CONSUMER_SOURCE_DIR against it. Run with cmake -P (the example.find_package_consumer test).
set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})

function(run)
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
    endif()
    set(last_output "${out}" PARENT_SCOPE)
endfunction()

set(flags "")
if(SANITIZE)
    set(flags "-fsanitize=${SANITIZE}")  # comma-separated, as the build used
endif()
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
run(${CMAKE_COMMAND} -S ${CONSUMER_SOURCE_DIR} -B ${WORK_DIR}/build
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=${BUILD_TYPE} "-DCMAKE_CXX_FLAGS=${flags}"
    "-DCMAKE_C_FLAGS=${flags}" "-DCMAKE_Fortran_FLAGS=${flags}")
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/consumer)
message("${last_output}")
foreach(binding consumer_c consumer_fortran)  # the C API and the Fortran module, when installed
    if(EXISTS ${WORK_DIR}/build/${binding})
        run(${WORK_DIR}/build/${binding})
        message("${last_output}")
    endif()
endforeach()
