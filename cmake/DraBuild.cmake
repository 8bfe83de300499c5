# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: DRA Console authors
#
# Build settings shared by every target: language level, warnings, sanitizers, the fast
# linker and the compiler cache. Targets opt in by linking dra_build_options privately.

if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
    set(CMAKE_BUILD_TYPE Debug CACHE STRING "Build type" FORCE)
endif()

set(CMAKE_CXX_STANDARD 23)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)

# ccache: CCACHE_BASEDIR makes paths relative, so a fresh clone in another folder (CI) still hits.
find_program(DRA_CCACHE ccache)
if(DRA_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
    set(CMAKE_CXX_COMPILER_LAUNCHER
        ${CMAKE_COMMAND} -E env CCACHE_BASEDIR=${CMAKE_SOURCE_DIR} CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
        ${DRA_CCACHE})
endif()

# Unity build: each target compiles its sources in batches, so the heavy headers (Qt, json,
# GoogleTest) and their template instantiations are compiled once a batch, not once a file.
# It more than halves a clean build on two cores. Turn it off to find a file that does not
# include what it uses.
option(DRA_UNITY "Compile the sources of each target in batches (unity build)" ON)
set(CMAKE_UNITY_BUILD ${DRA_UNITY})
set(CMAKE_UNITY_BUILD_BATCH_SIZE 12)

add_library(dra_build_options INTERFACE)
target_compile_features(dra_build_options INTERFACE cxx_std_23)
target_compile_definitions(dra_build_options INTERFACE
    QT_NO_CAST_FROM_ASCII QT_NO_CAST_TO_ASCII QT_NO_URL_CAST_FROM_STRING
    QT_USE_QSTRINGBUILDER QT_NO_KEYWORDS)
target_compile_options(dra_build_options INTERFACE
    -Wall -Wextra -Wpedantic -Wno-missing-field-initializers)
if(DRA_WERROR)
    target_compile_options(dra_build_options INTERFACE -Werror)
endif()

# The fast linker: mold, else gold.
find_program(DRA_MOLD mold)
if(DRA_MOLD)
    add_link_options(-fuse-ld=mold)
else()
    find_program(DRA_GOLD ld.gold)
    if(DRA_GOLD)
        add_link_options(-fuse-ld=gold)
    endif()
endif()

if(DRA_SANITIZE)
    add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
    add_link_options(-fsanitize=address,undefined)
endif()

# Precompiled headers: Qt Core and nlohmann/json dominate compile time. Each target builds its
# own (REUSE_FROM would need identical definitions across targets, which Qt modules break).
function(dra_use_pch target)
    target_precompile_headers(${target} PRIVATE "${PROJECT_SOURCE_DIR}/cmake/dra_pch.h")
endfunction()

# dra_add_module(NAME SOURCES... [PUBLIC deps...] [PRIVATE deps...])
# One static library per core module: dra_<name> with alias dra::<name>.
function(dra_add_module name)
    cmake_parse_arguments(ARG "" "" "SOURCES;PUBLIC;PRIVATE" ${ARGN})
    add_library(dra_${name} STATIC ${ARG_SOURCES})
    add_library(dra::${name} ALIAS dra_${name})
    target_include_directories(dra_${name} PUBLIC ${PROJECT_SOURCE_DIR})
    target_link_libraries(dra_${name} PUBLIC ${ARG_PUBLIC} PRIVATE dra_build_options ${ARG_PRIVATE})
    dra_use_pch(dra_${name})
endfunction()

# dra_add_test(NAME SOURCES... LIBS...) — one GoogleTest executable per module.
function(dra_add_test name)
    cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
    add_executable(${name} ${ARG_SOURCES})
    target_link_libraries(${name} PRIVATE dra_test_support ${ARG_LIBS} dra_build_options)
    dra_use_pch(${name})
    gtest_discover_tests(${name}
        DISCOVERY_TIMEOUT 60
        PROPERTIES ENVIRONMENT "DRA_SHARED_DIR=${DRA_SHARED_DIR};QT_QPA_PLATFORM=offscreen")
endfunction()
