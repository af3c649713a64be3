# Builds and runs a consumer project of agentry in a scratch directory.
# MODE=find_package: installs agentry into a prefix first. MODE=add_subdirectory: the consumer
# includes the source tree.
set(dir ${WORK}/${MODE})
file(REMOVE_RECURSE ${dir})
file(MAKE_DIRECTORY ${dir})

function(run)
    execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    message("${out}${err}")
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "failed: ${ARGV}")
    endif()
endfunction()

set(consumer_args -DCMAKE_CXX_COMPILER=${CXX})
if(MODE STREQUAL "find_package")
    run(${CMAKE_COMMAND} -S ${AGENTRY_SOURCE} -B ${dir}/agentry -G ${GENERATOR}
        -DCMAKE_CXX_COMPILER=${CXX} -DBUILD_TESTING=OFF -DCMAKE_INSTALL_PREFIX=${dir}/prefix)
    run(${CMAKE_COMMAND} --install ${dir}/agentry)
    if(NOT EXISTS ${dir}/prefix/share/agentry/cmake/agentryConfigVersion.cmake)
        message(FATAL_ERROR "agentryConfigVersion.cmake was not installed")
    endif()
    list(APPEND consumer_args -DCMAKE_PREFIX_PATH=${dir}/prefix)
else()
    list(APPEND consumer_args -DAGENTRY_SOURCE=${AGENTRY_SOURCE})
endif()
run(${CMAKE_COMMAND} -S ${CONSUMER} -B ${dir}/consumer -G ${GENERATOR} ${consumer_args})
run(${CMAKE_COMMAND} --build ${dir}/consumer)
run(${dir}/consumer/consumer)
