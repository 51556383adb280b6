# SPDX-License-Identifier: MIT
# contact_set_warnings(<target>): warnings on our own targets only.
function(contact_set_warnings target)
    if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
        target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
    endif()
endfunction()
