# SPDX-License-Identifier: MIT
# pkg-config files, for builds that do not use CMake (cmake/contact.pc.in; paths relative to the
# file, so an install tree can be moved).
#
# contact_pkg_config(<name> DESCRIPTION <text> LIBS <flag>... [CFLAGS <flag>...]
#                    [REQUIRES <pkg>...] [REQUIRES_PRIVATE <pkg>...] [LIBS_PRIVATE <flag>...]):
# writes and installs <name>.pc. The private parts are what a static library's consumer links
# itself. Where the libraries are built static only, they go in Requires and Libs: there is no
# shared library to carry them, so `pkg-config --libs` must link them with or without --static.
function(contact_pkg_config name)
    cmake_parse_arguments(PARSE_ARGV 1 arg "" "DESCRIPTION"
                          "LIBS;CFLAGS;REQUIRES;REQUIRES_PRIVATE;LIBS_PRIVATE")
    if(NOT BUILD_SHARED_LIBS)
        list(APPEND arg_REQUIRES ${arg_REQUIRES_PRIVATE})
        list(APPEND arg_LIBS ${arg_LIBS_PRIVATE})
        set(arg_REQUIRES_PRIVATE "")
        set(arg_LIBS_PRIVATE "")
    endif()
    file(RELATIVE_PATH CONTACT_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
    string(REGEX REPLACE "/$" "" CONTACT_PC_TO_PREFIX "${CONTACT_PC_TO_PREFIX}")
    set(CONTACT_PC_NAME ${name})
    set(CONTACT_PC_DESCRIPTION "${arg_DESCRIPTION}")
    list(REMOVE_DUPLICATES arg_LIBS)
    list(REMOVE_DUPLICATES arg_LIBS_PRIVATE)
    list(JOIN arg_REQUIRES ", " CONTACT_PC_REQUIRES)
    list(JOIN arg_REQUIRES_PRIVATE ", " CONTACT_PC_REQUIRES_PRIVATE)
    list(JOIN arg_LIBS " " CONTACT_PC_LIBS)
    list(JOIN arg_LIBS_PRIVATE " " CONTACT_PC_LIBS_PRIVATE)
    list(JOIN arg_CFLAGS " " CONTACT_PC_CFLAGS)
    configure_file(${PROJECT_SOURCE_DIR}/cmake/contact.pc.in ${PROJECT_BINARY_DIR}/${name}.pc @ONLY)
    install(FILES ${PROJECT_BINARY_DIR}/${name}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endfunction()

# contact_pkg_config_libs(<out var> <library path or name>...): the linker flags of libraries
# found by find_library or FindOpenMP: -l<name>, with -L<dir> where the linker does not search
# the library's directory anyway.
function(contact_pkg_config_libs out)
    set(flags "")
    set(implicit ${CMAKE_CXX_IMPLICIT_LINK_DIRECTORIES} ${CMAKE_C_IMPLICIT_LINK_DIRECTORIES})
    foreach(lib IN LISTS ARGN)
        if(lib MATCHES "^-")
            list(APPEND flags ${lib})
        elseif(IS_ABSOLUTE "${lib}")
            get_filename_component(dir "${lib}" DIRECTORY)
            get_filename_component(file "${lib}" NAME)
            string(REGEX REPLACE "^lib(.*)\\.(so|a|dylib)(\\..*)?$" "\\1" stem "${file}")
            if(NOT dir IN_LIST implicit)
                list(APPEND flags -L${dir})
            endif()
            list(APPEND flags -l${stem})
        else()
            list(APPEND flags -l${lib})
        endif()
    endforeach()
    set(${out} ${flags} PARENT_SCOPE)
endfunction()
