# SPDX-License-Identifier: MIT
# Installs BUILD_DIR into WORK_DIR/prefix, checks the install tree, then configures, builds and
# runs the consumer projects at CONSUMER_SOURCE_DIR against it. Run with cmake -P (the
# example.find_package_consumer tests).
# - The install tree: the license; a version file that accepts only the same minor version while
#   the major is 0; exported targets that name no library path of the build machine; and for
#   shared libraries, SONAME lib<name>.so.<major>.<minor> on each, no internal symbol exported
#   (detail namespaces, nested Impl classes, OpenMP's named-critical locks), and the installed
#   tool and Python package loading our libraries through their RPATH (no LD_LIBRARY_PATH).
# - The consumers: the C++ one (CONSUMER_SOURCE_DIR), which also calls the C API and the Fortran
#   module where the package has them; c_only/ and fortran_only/ (projects without C++); the
#   components/ check of find_package(contact COMPONENTS ...); and a plain C program built with
#   pkg-config alone (contact-c.pc; with and without --static for a static package).
# The MPI consumer, where the package has contact_mpi (EXPECT_MPI: it must), runs under MPIEXEC
# on 2 ranks.
# With SHARED_FROM=<source dir>, BUILD_DIR is first configured there as shared libraries
# (BUILD_SHARED_LIBS=ON, no tests or benchmarks; the bindings, the tool and contact_mpi where
# EXPECT_MPI) and built: the consumers then link the shared libraries. PYTHON: the interpreter
# the Python package is built for. CMAKE_BUILD_PARALLEL_LEVEL in the environment sets the jobs of
# that build (default: all processors).
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
set(c_link_flags "")
if(SANITIZE)
    set(flags "-fsanitize=${SANITIZE}")  # comma-separated, as the build used
    # clang's C driver links UBSan's C runtime only; the package's C++ code needs its C++ part
    # (and that part, the C++ library).
    if(CXX_COMPILER_ID STREQUAL "Clang")
        set(c_link_flags "-fsanitize-link-c++-runtime -lstdc++")
    endif()
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
    set(mpi OFF)
    if(EXPECT_MPI)
        set(mpi ON)
    endif()
    run(${CMAKE_COMMAND} -S ${SHARED_FROM} -B ${BUILD_DIR} -DCMAKE_BUILD_TYPE=${BUILD_TYPE}
        -DBUILD_SHARED_LIBS=ON -DCONTACT_BUILD_TESTS=OFF -DCONTACT_BUILD_EXAMPLES=ON
        -DCONTACT_BUILD_BENCH=OFF -DCONTACT_BUILD_BINDINGS=ON -DCONTACT_MPI=${mpi} ${compilers}
        "-DCMAKE_CXX_FLAGS_${config}=-O0 -DNDEBUG")  # what is exported, not how fast
    # What is installed, not the other examples.
    run(${CMAKE_COMMAND} --build ${BUILD_DIR} --target help)
    set(targets "")
    foreach(t contact mesh_io contact_mpi contact_c contact_fortran _core contact-search)
        if(last_output MATCHES "(^|[\n ])${t}(:|\n)")
            list(APPEND targets ${t})
        endif()
    endforeach()
    set(jobs "")
    if(NOT DEFINED ENV{CMAKE_BUILD_PARALLEL_LEVEL})
        include(ProcessorCount)
        ProcessorCount(jobs)
        set(jobs --parallel ${jobs})
    endif()
    run(${CMAKE_COMMAND} --build ${BUILD_DIR} ${jobs} --target ${targets})
endif()
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

# --- The install tree.
file(GLOB license ${prefix}/share/doc/contact/LICENSE)
if(NOT license)
    message(FATAL_ERROR "no LICENSE installed in ${prefix}/share/doc/contact")
endif()
file(GLOB config_dir ${prefix}/lib*/cmake/contact)
# find_package(contact <request>)'s verdict of the version file.
function(version_compatible request out)
    set(PACKAGE_FIND_VERSION ${request})
    string(REPLACE "." ";" parts "${request}.0.0")
    list(GET parts 0 PACKAGE_FIND_VERSION_MAJOR)
    list(GET parts 1 PACKAGE_FIND_VERSION_MINOR)
    list(GET parts 2 PACKAGE_FIND_VERSION_PATCH)
    include(${config_dir}/contactConfigVersion.cmake)
    set(${out} ${PACKAGE_VERSION_COMPATIBLE} PARENT_SCOPE)
    set(package_version ${PACKAGE_VERSION} PARENT_SCOPE)
endfunction()
version_compatible(0 unused)
string(REPLACE "." ";" v "${package_version}")
list(GET v 0 major)
list(GET v 1 minor)
version_compatible(${major}.${minor} same)
if(NOT same)
    message(FATAL_ERROR "contact ${package_version} refuses find_package(contact ${major}.${minor})")
endif()
if(major EQUAL 0 AND minor GREATER 0)
    math(EXPR older "${minor} - 1")
    version_compatible(0.${older} older_ok)
    if(older_ok)
        message(FATAL_ERROR "contact ${package_version} accepts find_package(contact 0.${older}): "
                            "a 0.x package is compatible with its own minor version only")
    endif()
endif()
file(GLOB exports ${config_dir}/contactTargets*.cmake)
foreach(f IN LISTS exports)
    file(STRINGS ${f} links REGEX "INTERFACE_LINK_LIBRARIES")
    if(links MATCHES "(\"|;)/[^;\"]*")
        message(FATAL_ERROR "${f} names a library of the build machine, ${CMAKE_MATCH_0}:\n${links}")
    endif()
endforeach()

if(SHARED_FROM)
    foreach(lib contact mesh_io contact_mpi contact_c contact_fortran)
        file(GLOB so ${prefix}/lib*/lib${lib}.so)
        if(NOT so)
            if(lib MATCHES "^(contact|mesh_io|contact_c)$" OR (lib STREQUAL "contact_mpi" AND EXPECT_MPI))
                message(FATAL_ERROR "no lib${lib}.so installed in ${prefix}")
            endif()
            continue()
        endif()
        run(objdump -p ${so})
        if(NOT last_output MATCHES "SONAME +lib${lib}\\.so\\.${major}\\.${minor}\n")
            message(FATAL_ERROR "lib${lib}.so has no SONAME lib${lib}.so.${major}.${minor}:\n"
                                "${last_output}")
        endif()
        run(nm -DC --defined-only ${so})
        string(REGEX MATCHALL "[^\n]*(contact::([a-z_]+::)?detail::|::Impl::|\\.gomp_critical_)[^\n]*"
               internal "${last_output}")
        if(internal)
            string(REPLACE ";" "\n" internal "${internal}")
            message(FATAL_ERROR "lib${lib}.so exports internal symbols:\n${internal}")
        endif()
    endforeach()
    # The installed tool and Python package find our libraries without LD_LIBRARY_PATH.
    run(${CMAKE_COMMAND} -E env --unset=LD_LIBRARY_PATH ${prefix}/bin/contact-search --version)
    message("installed tool: ${last_output}")
    file(GLOB python_dir ${prefix}/lib*/python*/*-packages)
    if(PYTHON AND python_dir)
        # (no ';' in the code: run() would split it)
        run(${CMAKE_COMMAND} -E env --unset=LD_LIBRARY_PATH PYTHONPATH=${python_dir} ${PYTHON} -c
            "import contact_search")
        message("installed python package: imported")
    endif()
endif()

# --- The consumers.
function(build_consumer source build)
    run(${CMAKE_COMMAND} -S ${source} -B ${build}
        -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=${BUILD_TYPE} ${compilers}
        "-DCMAKE_CXX_FLAGS=${flags}"
        "-DCMAKE_C_FLAGS=${flags}" "-DCMAKE_Fortran_FLAGS=${fortran_flags}" ${ARGN})
    run(${CMAKE_COMMAND} --build ${build})
endfunction()
build_consumer(${CONSUMER_SOURCE_DIR} ${WORK_DIR}/build)
run(${WORK_DIR}/build/consumer)
if(SHARED_FROM)  # the consumer must have linked the shared libraries
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

# Every component the package has is found; unknown ones are refused when required.
set(expect mesh_io)
file(GLOB has_c ${prefix}/lib*/libcontact_c.*)
file(GLOB has_fortran ${prefix}/lib*/libcontact_fortran.*)
if(has_c)
    list(APPEND expect C contact_c)
endif()
if(has_fortran)
    list(APPEND expect Fortran contact_fortran)
endif()
if(EXPECT_MPI)
    list(APPEND expect mpi contact_mpi)
endif()
string(REPLACE ";" "," expect "${expect}")  # one argument through run()
run(${CMAKE_COMMAND} -S ${CONSUMER_SOURCE_DIR}/components -B ${WORK_DIR}/components
    -DCMAKE_PREFIX_PATH=${prefix} ${compilers} -DEXPECT=${expect})
message("${last_output}")

# The bindings from projects without C++ (find_package(contact) enables no language).
if(has_c)
    build_consumer(${CONSUMER_SOURCE_DIR}/c_only ${WORK_DIR}/c_only
                   "-DCMAKE_EXE_LINKER_FLAGS=${c_link_flags}")
    run(${WORK_DIR}/c_only/consumer_c)
    message("c_only: ${last_output}")
endif()
if(has_fortran AND SANITIZE AND NOT fortran_flags)
    # gfortran cannot link the runtime of the compiler that instrumented the package.
    message("fortran_only: not built (a package instrumented by ${CXX_COMPILER_ID})")
elseif(has_fortran)
    build_consumer(${CONSUMER_SOURCE_DIR}/fortran_only ${WORK_DIR}/fortran_only)
    run(${WORK_DIR}/fortran_only/consumer_fortran)
    message("fortran_only: ${last_output}")
endif()

# A plain C program built with pkg-config alone: a static package links with or without
# --static, a shared one finds its libraries through the RPATH given here.
find_program(PKG_CONFIG pkg-config)
file(GLOB pc_dir ${prefix}/lib*/pkgconfig)
if(PKG_CONFIG AND has_c AND EXISTS ${pc_dir}/contact-c.pc)
    set(cc cc)
    if(C_COMPILER)
        set(cc ${C_COMPILER})
    endif()
    set(ENV{PKG_CONFIG_PATH} ${pc_dir})
    if(SHARED_FROM)
        set(variants shared)
    else()
        set(variants default static)
    endif()
    foreach(variant IN LISTS variants)
        set(static "")
        if(variant STREQUAL "static")
            set(static --static)
        endif()
        run(${PKG_CONFIG} --cflags contact-c)
        separate_arguments(cflags UNIX_COMMAND "${last_output}")
        run(${PKG_CONFIG} --libs ${static} contact-c)
        separate_arguments(libs UNIX_COMMAND "${last_output}")
        run(${PKG_CONFIG} --variable=libdir contact-c)
        string(STRIP "${last_output}" libdir)
        set(exe ${WORK_DIR}/pkg_config_c_${variant})
        separate_arguments(sanitize UNIX_COMMAND "${flags} ${c_link_flags}")
        run(${cc} ${sanitize} ${cflags} ${CONSUMER_SOURCE_DIR}/consumer_c.c -o ${exe} ${libs}
            -lm -Wl,-rpath,${libdir})
        run(${exe})
        message("pkg-config (${variant}): ${last_output}")
    endforeach()
elseif(NOT PKG_CONFIG)
    message(WARNING "no pkg-config: the pkg-config consumer is not checked")
endif()
