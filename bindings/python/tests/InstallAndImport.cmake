# SPDX-License-Identifier: MIT
# Installs the python component of BUILD_DIR into PREFIX and imports contact_search from
# PREFIX/PACKAGE_DIR with PYTHON (PRELOAD: the ASan runtime of sanitizer builds). Run with -P.
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX}
                        --component python
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "install failed (${rc}):\n${out}\n${err}")
endif()
set(env PYTHONPATH=${PREFIX}/${PACKAGE_DIR} PYTHONDONTWRITEBYTECODE=1)
if(PRELOAD)
    list(APPEND env LD_PRELOAD=${PRELOAD} ASAN_OPTIONS=detect_leaks=0)
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env ${env} ${PYTHON} -c
    "import contact_search as cs, sys; assert cs.__file__.startswith(sys.argv[1]), cs.__file__; \
s = cs.ContactSearch(); print('imported from the prefix', cs.__file__)" ${PREFIX}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "import failed (${rc}):\n${out}\n${err}")
endif()
message("${out}")
