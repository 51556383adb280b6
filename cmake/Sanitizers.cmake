# SPDX-License-Identifier: MIT
# CONTACT_SANITIZE=address;undefined applies to every target of the build: sanitizers must see all
# compiled code, ours and the tests'.
if(CONTACT_SANITIZE)
    string(REPLACE ";" "," _contact_sanitizers "${CONTACT_SANITIZE}")
    add_compile_options(-fsanitize=${_contact_sanitizers} -fno-omit-frame-pointer
                        -fno-sanitize-recover=all)
    add_link_options(-fsanitize=${_contact_sanitizers})
endif()
