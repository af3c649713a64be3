# SPDX-License-Identifier: BSL-1.0
# Shared by the install test scripts. Inputs: AGENTRY_SOURCE, WORK, CXX, GENERATOR, BOOST_DIR.

# run(<command>...): runs a command, shows its output, and stops the script if it fails.
function(run)
    execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    message("${out}${err}")
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "failed: ${ARGV}")
    endif()
endfunction()

# The arguments every CMake configure in these tests takes: the project's compiler and Boost.
set(configure_args -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX})
if(BOOST_DIR)
    list(APPEND configure_args -DBoost_DIR=${BOOST_DIR})
endif()

# build_and_run(<source dir> <build dir> <program> <configure args>...): configures and builds a
# consumer project, then runs <program> from its build dir.
function(build_and_run source binary program)
    run(${CMAKE_COMMAND} -S ${source} -B ${binary} ${configure_args} ${ARGN})
    run(${CMAKE_COMMAND} --build ${binary})
    run(${binary}/${program})
endfunction()

# fresh_dir(<var> <name>): sets <var> to an emptied directory WORK/<name>.
function(fresh_dir var name)
    file(REMOVE_RECURSE ${WORK}/${name})
    file(MAKE_DIRECTORY ${WORK}/${name})
    set(${var} ${WORK}/${name} PARENT_SCOPE)
endfunction()
