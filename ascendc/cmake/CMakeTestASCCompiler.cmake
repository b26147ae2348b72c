# CMakeTestASCCompiler.cmake - dvcc compiles and links a small ASC program (once per build tree).
if(NOT CMAKE_ASC_COMPILER_WORKS)
    set(_asc_dir "${CMAKE_BINARY_DIR}${CMAKE_FILES_DIRECTORY}/CMakeScratch/TestASC")
    file(MAKE_DIRECTORY "${_asc_dir}")
    file(WRITE "${_asc_dir}/testASCCompiler.asc" "int main(void) { return 0; }\n")
    message(CHECK_START "Check for working ASC compiler: ${CMAKE_ASC_COMPILER}")
    execute_process(COMMAND "${CMAKE_ASC_COMPILER}" --npu-arch=${CMAKE_ASC_ARCHITECTURES} testASCCompiler.asc
                            -o testASCCompiler
                    WORKING_DIRECTORY "${_asc_dir}" RESULT_VARIABLE _asc_rc OUTPUT_VARIABLE _asc_out
                    ERROR_VARIABLE _asc_out)
    if(NOT _asc_rc EQUAL 0)
        message(CHECK_FAIL "broken")
        message(FATAL_ERROR "ASC: ${CMAKE_ASC_COMPILER} cannot build a program:\n${_asc_out}")
    endif()
    message(CHECK_PASS "works")
    set(CMAKE_ASC_COMPILER_WORKS TRUE CACHE INTERNAL "")
    file(REMOVE_RECURSE "${_asc_dir}")
    unset(_asc_dir)
    unset(_asc_rc)
    unset(_asc_out)
endif()
