# SPDX-License-Identifier: MIT
# The libraries contact links privately (the OpenMP runtime, Exodus II, netCDF, Zoltan), as
# IMPORTED targets in the namespace ContactDeps::, made the same way for the build (the
# CMakeLists.txt files) and for a consumer of a static package (contactConfig.cmake, which
# installs this file beside it): a static library's private dependencies are linked by the
# consumer, so the exported targets name these targets, never a path of the build machine.
# Found by find_library alone, with no language: a C-only or Fortran-only consumer can make them.
include_guard(GLOBAL)

# contact_import_library(<target> <cache variable> NAMES <name>... [HINTS <dir>...]): <target>
# for the library find_library finds (the cache variable holds its path; set it to choose
# another). Sets <cache variable>_FOUND in the caller's scope.
function(contact_import_library target var)
    cmake_parse_arguments(PARSE_ARGV 2 arg "" "" "NAMES;HINTS")
    if(NOT TARGET ${target})
        find_library(${var} NAMES ${arg_NAMES} HINTS ${arg_HINTS})
        if(${var})
            add_library(${target} UNKNOWN IMPORTED)
            set_target_properties(${target} PROPERTIES IMPORTED_LOCATION "${${var}}")
        endif()
    endif()
    if(TARGET ${target})
        set(${var}_FOUND TRUE PARENT_SCOPE)
    else()
        set(${var}_FOUND FALSE PARENT_SCOPE)
    endif()
endfunction()

# contact_import_openmp_runtime(<library names> [HINTS <dir>...]): ContactDeps::OpenMP, the
# OpenMP runtime a static contact needs at link time (FindOpenMP's OpenMP_CXX_LIB_NAMES: gomp
# and pthread for GCC), without the compiler flags of FindOpenMP's per-language targets. A name
# find_library does not find is left to the linker (GCC's libgomp sits in GCC's own directory).
function(contact_import_openmp_runtime names)
    cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "HINTS")
    if(TARGET ContactDeps::OpenMP)
        return()
    endif()
    set(libraries "")
    foreach(name IN LISTS names)
        find_library(CONTACT_OPENMP_${name}_LIBRARY NAMES ${name} HINTS ${arg_HINTS})
        if(CONTACT_OPENMP_${name}_LIBRARY)
            list(APPEND libraries ${CONTACT_OPENMP_${name}_LIBRARY})
        else()
            list(APPEND libraries ${name})
        endif()
    endforeach()
    add_library(ContactDeps::OpenMP INTERFACE IMPORTED)
    set_target_properties(ContactDeps::OpenMP PROPERTIES INTERFACE_LINK_LIBRARIES "${libraries}")
endfunction()
