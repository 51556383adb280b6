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
