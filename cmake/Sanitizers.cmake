# SPDX-License-Identifier: MIT
# CONTACT_SANITIZE=address;undefined applies to every target of the build: sanitizers must see all
# compiled code, ours and the tests'.
if(CONTACT_SANITIZE)
    string(REPLACE ";" "," _contact_sanitizers "${CONTACT_SANITIZE}")
    add_compile_options(-fsanitize=${_contact_sanitizers} -fno-omit-frame-pointer
                        -fno-sanitize-recover=all)
    add_link_options(-fsanitize=${_contact_sanitizers})
endif()

# libFuzzer builds: coverage instrumentation on everything, the fuzzer main only on fuzz targets.
if(CONTACT_FUZZ)
    if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
        message(FATAL_ERROR "CONTACT_FUZZ needs clang (e.g. -DCMAKE_CXX_COMPILER=clang++-14)")
    endif()
    add_compile_options(-fsanitize=fuzzer-no-link)
endif()
