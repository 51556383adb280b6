# SPDX-License-Identifier: MIT
# contact_target_options(<target>): what every target of ours gets (and no dependency):
# - warnings on (-Wall -Wextra -Wpedantic);
# - no floating-point contraction (-ffp-contract=off): with FMA in the instruction set
#   (-march=native, -mfma) GCC fuses a * b + c differently in each place an expression is inlined,
#   so paths the tests hold bit-identical (the interior Newton loop and the active-set loop, warm
#   and cold projections, serial and MPI searches) would round apart; results then depend on the
#   flags a user builds with.
function(contact_target_options target)
    if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
        target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic
                                                 $<$<COMPILE_LANGUAGE:CXX,C>:-ffp-contract=off>)
    endif()
endfunction()

# contact_install_rpath(<target> <install dir, relative to the prefix>): an installed target of a
# shared build finds our shared libraries (and they find each other) through an RPATH relative to
# itself, $ORIGIN/<dir to the library dir>, so the install tree works where it is put. A
# CMAKE_INSTALL_RPATH the user sets wins; static builds get none (nothing of ours to load).
function(contact_install_rpath target dir)
    if(NOT BUILD_SHARED_LIBS OR DEFINED CMAKE_INSTALL_RPATH)
        return()
    endif()
    if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
        set(rpath "${CMAKE_INSTALL_LIBDIR}")
    else()
        file(RELATIVE_PATH to_lib /prefix/${dir} /prefix/${CMAKE_INSTALL_LIBDIR})
        set(rpath "$ORIGIN")
        if(to_lib)
            set(rpath "$ORIGIN/${to_lib}")
        endif()
    endif()
    set_target_properties(${target} PROPERTIES INSTALL_RPATH "${rpath}")
endfunction()
