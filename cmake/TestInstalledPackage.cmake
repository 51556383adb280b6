# SPDX-License-Identifier: MIT
# Installs BUILD_DIR into WORK_DIR/prefix, then configures, builds and runs the consumer project
# at CONSUMER_SOURCE_DIR against it. Run with cmake -P (the example.find_package_consumer tests).
# The MPI consumer, where the package has contact_mpi (EXPECT_MPI: it must), runs under MPIEXEC
# on 2 ranks.
# With SHARED_FROM=<source dir>, BUILD_DIR is first configured there as the libraries alone
# (BUILD_SHARED_LIBS=ON, no tests, examples, benchmarks, bindings or MPI) and built: the consumer
# then links the shared libraries.
set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})

function(run)
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
    endif()
    set(last_output "${out}" PARENT_SCOPE)
endfunction()

# The consumer takes the build's C and C++ compilers (C_COMPILER, CXX_COMPILER): a sanitized
# static package needs the runtime of the compiler that instrumented it.
set(compilers "")
if(C_COMPILER AND CXX_COMPILER)
    set(compilers -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_CXX_COMPILER=${CXX_COMPILER})
endif()
set(flags "")
if(SANITIZE)
    set(flags "-fsanitize=${SANITIZE}")  # comma-separated, as the build used
endif()
# gfortran links gcc's sanitizer runtimes into what it detects as instrumented: beside a package
# another compiler instrumented, the Fortran main program stays uninstrumented (the package's code
# is not).
set(fortran_flags "${flags}")
if(CXX_COMPILER_ID AND NOT CXX_COMPILER_ID STREQUAL "GNU")
    set(fortran_flags "")
endif()
if(SHARED_FROM)
    string(TOUPPER "${BUILD_TYPE}" config)
    file(REMOVE_RECURSE ${BUILD_DIR})
    run(${CMAKE_COMMAND} -S ${SHARED_FROM} -B ${BUILD_DIR} -DCMAKE_BUILD_TYPE=${BUILD_TYPE}
        -DBUILD_SHARED_LIBS=ON -DCONTACT_BUILD_TESTS=OFF -DCONTACT_BUILD_EXAMPLES=OFF
        -DCONTACT_BUILD_BENCH=OFF -DCONTACT_BUILD_BINDINGS=OFF -DCONTACT_MPI=OFF
        "-DCMAKE_CXX_FLAGS_${config}=-O0 -DNDEBUG")  # what is exported, not how fast
    include(ProcessorCount)
    ProcessorCount(jobs)
    run(${CMAKE_COMMAND} --build ${BUILD_DIR} --parallel ${jobs})
endif()
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
run(${CMAKE_COMMAND} -S ${CONSUMER_SOURCE_DIR} -B ${WORK_DIR}/build
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=${BUILD_TYPE} ${compilers}
    "-DCMAKE_CXX_FLAGS=${flags}"
    "-DCMAKE_C_FLAGS=${flags}" "-DCMAKE_Fortran_FLAGS=${fortran_flags}")
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/consumer)
if(SHARED_FROM)  # the consumer must have linked the shared libraries
    file(GLOB shared ${prefix}/lib*/libcontact.so*)
    if(NOT shared)
        message(FATAL_ERROR "no libcontact.so installed in ${prefix}")
    endif()
    execute_process(COMMAND ldd ${WORK_DIR}/build/consumer OUTPUT_VARIABLE deps)
    if(NOT deps MATCHES "libcontact\\.so")
        message(FATAL_ERROR "the consumer does not load libcontact.so:\n${deps}")
    endif()
endif()
message("${last_output}")
foreach(binding consumer_c consumer_fortran)  # the C API and the Fortran module, when installed
    if(EXISTS ${WORK_DIR}/build/${binding})
        run(${WORK_DIR}/build/${binding})
        message("${last_output}")
    endif()
endforeach()
if(EXPECT_MPI AND NOT EXISTS ${WORK_DIR}/build/consumer_mpi)
    message(FATAL_ERROR "the package was built with contact_mpi, but find_package(contact) gave "
                        "no contact::contact_mpi")
endif()
if(EXISTS ${WORK_DIR}/build/consumer_mpi)
    if(NOT MPIEXEC)
        message(FATAL_ERROR "the package has contact_mpi: give MPIEXEC to run its consumer")
    endif()
    run(${MPIEXEC} --oversubscribe -n 2 ${WORK_DIR}/build/consumer_mpi)
    message("${last_output}")
    if(NOT last_output MATCHES "consumer_mpi: 2 ranks.*: OK")
        message(FATAL_ERROR "consumer_mpi did not report OK")
    endif()
endif()
