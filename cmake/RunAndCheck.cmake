# SPDX-License-Identifier: MIT
# Runs CMD (a ;-list) and checks its exit code and output. Used by ctest: cmake -P RunAndCheck.cmake
#   -DCMD=... -DEXPECT_EXIT=<code> [-DEXPECT_STDOUT=<regex>] [-DEXPECT_STDERR=<regex>]
#   [-DTOUCH=<file to create first>] [-DWORKDIR=<dir>]
if(TOUCH)
    file(WRITE ${TOUCH} "existing output\n")
endif()
if(NOT WORKDIR)
    set(WORKDIR ${CMAKE_CURRENT_BINARY_DIR})
endif()
execute_process(COMMAND ${CMD} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                WORKING_DIRECTORY ${WORKDIR})
message("exit ${rc}\n--- stdout\n${out}--- stderr\n${err}")
if(NOT "${rc}" STREQUAL "${EXPECT_EXIT}")
    message(FATAL_ERROR "expected exit ${EXPECT_EXIT}, got ${rc}")
endif()
if(EXPECT_STDOUT AND NOT out MATCHES "${EXPECT_STDOUT}")
    message(FATAL_ERROR "stdout does not match '${EXPECT_STDOUT}'")
endif()
if(EXPECT_STDERR AND NOT err MATCHES "${EXPECT_STDERR}")
    message(FATAL_ERROR "stderr does not match '${EXPECT_STDERR}'")
endif()
if(TOUCH)
    file(READ ${TOUCH} content)
    if(NOT content STREQUAL "existing output\n")
        message(FATAL_ERROR "${TOUCH} was changed")
    endif()
endif()
