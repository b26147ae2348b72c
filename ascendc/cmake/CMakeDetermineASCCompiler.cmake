# CMakeDetermineASCCompiler.cmake - the ASC language's compiler: dvcc (docs/ASCENDC.md).  The ASC
# environment variable or CMAKE_ASC_COMPILER may name another dvcc; the default is the one installed
# with this package.
if(NOT CMAKE_ASC_COMPILER)
    if(DEFINED ENV{ASC} AND NOT "$ENV{ASC}" STREQUAL "")
        set(CMAKE_ASC_COMPILER "$ENV{ASC}")
    else()
        get_filename_component(_asc_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
        find_program(CMAKE_ASC_COMPILER NAMES dvcc PATHS "${_asc_prefix}/bin" NO_DEFAULT_PATH)
        find_program(CMAKE_ASC_COMPILER NAMES dvcc)
        unset(_asc_prefix)
    endif()
endif()
mark_as_advanced(CMAKE_ASC_COMPILER)
if(NOT CMAKE_ASC_COMPILER OR NOT EXISTS "${CMAKE_ASC_COMPILER}")
    message(FATAL_ERROR "ASC: dvcc not found (looked in ${CMAKE_CURRENT_LIST_DIR}/../../../bin and on PATH): "
                        "install dvsim with make install PREFIX=DIR and source DIR/set_env.sh")
endif()

execute_process(COMMAND "${CMAKE_ASC_COMPILER}" --version OUTPUT_VARIABLE _asc_version_out RESULT_VARIABLE _asc_rc
                ERROR_QUIET)
if(NOT _asc_rc EQUAL 0 OR NOT _asc_version_out MATCHES "^dvcc ([0-9.]+)")
    message(FATAL_ERROR "ASC: ${CMAKE_ASC_COMPILER} --version did not answer as dvcc does")
endif()
set(CMAKE_ASC_COMPILER_ID "dvcc")
set(CMAKE_ASC_COMPILER_VERSION "${CMAKE_MATCH_1}")
set(CMAKE_ASC_COMPILER_ENV_VAR "ASC")
unset(_asc_version_out)
unset(_asc_rc)

configure_file("${CMAKE_CURRENT_LIST_DIR}/CMakeASCCompiler.cmake.in" "${CMAKE_PLATFORM_INFO_DIR}/CMakeASCCompiler.cmake"
               @ONLY)
