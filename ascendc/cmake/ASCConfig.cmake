# ASCConfig.cmake - find_package(ASC) for dvsim: CANN's ASC language (Ascend C sources, .asc) compiled
# by dvcc, dvsim's compiler driver, and linked against dvsim's AscendCL shim, so that a CANN sample's
# unmodified CMakeLists.txt builds a program that runs on the model (docs/ASCENDC.md).
#
#   find_package(ASC REQUIRED)              # found through CMAKE_PREFIX_PATH (source PREFIX/set_env.sh)
#   project(demo LANGUAGES ASC CXX)
#   add_executable(demo kernel.asc)
#
# Cache variables, as in CANN:
#   CMAKE_ASC_ARCHITECTURES   dav-2201 (Atlas A2; the default and the only architecture dvsim models)
#   CMAKE_ASC_RUN_MODE        npu, cpu or sim: all three build the same program, which runs on the model
# Targets: tiling_api, register, platform, unified_dlog, graph_base, ascendalog: the names CANN's samples link for
# the host tiling API, which dvsim's headers implement inline, so linking them adds only those headers.
include_guard(GLOBAL)

get_filename_component(ASC_INSTALL_PREFIX "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(ASC_INCLUDE_DIRS "${ASC_INSTALL_PREFIX}/include/ascendc" "${ASC_INSTALL_PREFIX}/include")
set(ASC_LIBRARY_DIR "${ASC_INSTALL_PREFIX}/lib")

# The language's modules (CMakeDetermineASCCompiler.cmake, ...) live beside this file.
list(APPEND CMAKE_MODULE_PATH "${CMAKE_CURRENT_LIST_DIR}")

set(CMAKE_ASC_ARCHITECTURES "dav-2201" CACHE STRING "NPU architecture: dav-2201 (the one dvsim models)")
if(NOT CMAKE_ASC_ARCHITECTURES STREQUAL "dav-2201")
    message(FATAL_ERROR "CMAKE_ASC_ARCHITECTURES=${CMAKE_ASC_ARCHITECTURES}: dvsim models dav-2201 "
                        "(Atlas A2, the 910B profiles) only")
endif()

set(CMAKE_ASC_RUN_MODE "npu" CACHE STRING "Run mode: npu, cpu or sim (on dvsim all three run on the model)")
if(NOT CMAKE_ASC_RUN_MODE MATCHES "^(npu|cpu|sim)$")
    message(FATAL_ERROR "CMAKE_ASC_RUN_MODE=${CMAKE_ASC_RUN_MODE}: must be npu, cpu or sim")
endif()
message(STATUS "ASC: dvsim at ${ASC_INSTALL_PREFIX}: CMAKE_ASC_RUN_MODE=${CMAKE_ASC_RUN_MODE} builds a program "
               "that runs on the dvsim model of ${CMAKE_ASC_ARCHITECTURES} (DVSIM_PROFILE picks the 910B profile)")

foreach(_asc_lib IN ITEMS tiling_api register platform unified_dlog graph_base ascendalog)
    if(NOT TARGET ${_asc_lib})
        add_library(${_asc_lib} INTERFACE IMPORTED)
        set_target_properties(${_asc_lib} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${ASC_INCLUDE_DIRS}")
    endif()
endforeach()
unset(_asc_lib)

set(ASC_FOUND TRUE)
