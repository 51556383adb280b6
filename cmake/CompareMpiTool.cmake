# SPDX-License-Identifier: MIT
# contact-search serially and under mpiexec on one model: both exit 0, both agree with the
# exhaustive reference (--verify), and their pair CSV and VTU files are byte for byte the same;
# with -DMORTAR=ON (segment mode) their mortar files too.
#   cmake -DTOOL=<contact-search> -DMPIEXEC=<mpiexec> -DRANKS=<n> -DMODEL=<file> -DARGS=<;-list>
#         -DOUT=<file prefix> [-DMORTAR=ON] -P CompareMpiTool.cmake
set(serial ${TOOL} ${MODEL} ${ARGS} --verify --force --pairs ${OUT}.serial.csv --vtu ${OUT}.serial.vtu)
set(mpi ${MPIEXEC} --oversubscribe -n ${RANKS} ${TOOL} ${MODEL} ${ARGS} --verify --force
    --pairs ${OUT}.mpi.csv --vtu ${OUT}.mpi.vtu)
if(MORTAR)
    file(REMOVE_RECURSE ${OUT}.serial.mortar ${OUT}.mpi.mortar)
    list(APPEND serial --mortar ${OUT}.serial.mortar)
    list(APPEND mpi --mortar ${OUT}.mpi.mortar)
endif()
foreach(run serial mpi)
    execute_process(COMMAND ${${run}} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    message("--- ${run}: exit ${rc}\n${out}${err}")
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "${run} run: exit ${rc}")
    endif()
    if(NOT out MATCHES "exhaustive reference agrees: 0 missed, 0 extra")
        message(FATAL_ERROR "${run} run: --verify does not agree")
    endif()
endforeach()
if(NOT out MATCHES "MPI: ${RANKS} ranks")
    message(FATAL_ERROR "the mpiexec run did not search over ${RANKS} ranks")
endif()
foreach(ext csv vtu)
    execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}.serial.${ext} ${OUT}.mpi.${ext}
                    RESULT_VARIABLE differ)
    if(NOT differ EQUAL 0)
        message(FATAL_ERROR "${OUT}.serial.${ext} and ${OUT}.mpi.${ext} differ")
    endif()
endforeach()
if(MORTAR)
    file(GLOB files RELATIVE ${OUT}.serial.mortar ${OUT}.serial.mortar/*)
    if(NOT files)
        message(FATAL_ERROR "no mortar files in ${OUT}.serial.mortar")
    endif()
    foreach(f ${files})
        execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}.serial.mortar/${f}
                                ${OUT}.mpi.mortar/${f} RESULT_VARIABLE differ)
        if(NOT differ EQUAL 0)
            message(FATAL_ERROR "${OUT}.serial.mortar/${f} and ${OUT}.mpi.mortar/${f} differ")
        endif()
    endforeach()
    message("identical mortar files: ${files}")
endif()
message("identical: ${OUT}.serial.csv ${OUT}.mpi.csv (and .vtu)")
