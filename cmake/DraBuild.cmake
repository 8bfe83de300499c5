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
    -Wall -Wextra -Wpedantic -Wno-missing-field-initializers
    # GCC 12 reports std::function members inside libstdc++'s std::regex as maybe uninitialized
    # once they are inlined into our code at -O1 with the sanitizers; the warning is about
    # library internals we cannot change, and fires nowhere else.
    -Wno-maybe-uninitialized)
if(DRA_UNITY)
    # A unity batch #includes each .cpp, so GCC judges a test class derived from a fixture in
    # the file's anonymous namespace as if it were in a header. Not a real ODR risk: each batch
    # is one translation unit.
    target_compile_options(dra_build_options INTERFACE -Wno-subobject-linkage)
endif()
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

# dra_add_test(NAME SOURCES... LIBS... [LABEL unit|e2e|browser])
# One GoogleTest executable per module. ctest runs each of its suites as one entry,
# <NAME>.<Suite> (`ctest -R LexerTest`, `ctest -R dra_cel_tests`): a suite's tests share one
# process, so one ASan start-up and whatever the suite sets up once (a demo server) serve them
# all, and a failure names its suite, with each failed test's message in the output. LABEL says
# what the tests need, for `ctest -L`: unit (in process and quick; the default), e2e (they start
# dractl, a server or a browser-free client), browser (they drive the web console in a browser).
function(dra_add_test name)
    cmake_parse_arguments(ARG "" "LABEL" "SOURCES;LIBS" ${ARGN})
    if(NOT ARG_LABEL)
        set(ARG_LABEL unit)
    endif()
    if(NOT ARG_LABEL MATCHES "^(unit|e2e|browser)$")
        message(FATAL_ERROR "dra_add_test(${name}): LABEL ${ARG_LABEL} is not unit, e2e or browser")
    endif()
    add_executable(${name} ${ARG_SOURCES})
    target_link_libraries(${name} PRIVATE dra_test_support ${ARG_LIBS} dra_build_options)
    dra_use_pch(${name})

    # The suites are listed when the executable is built (CTEST_FILE), and take their
    # properties here, at configure time, so changing a label needs no rebuild.
    set(ctest_file "${CMAKE_CURRENT_BINARY_DIR}/${name}_suites.cmake")
    add_custom_command(TARGET ${name} POST_BUILD
        COMMAND ${CMAKE_COMMAND} -D EXE=$<TARGET_FILE:${name}> -D TARGET=${name}
            -D CTEST_FILE=${ctest_file} -P ${PROJECT_SOURCE_DIR}/cmake/DraListSuites.cmake
        BYPRODUCTS ${ctest_file}
        VERBATIM)
    if(ARG_LABEL STREQUAL "unit")
        set(timeout 300)
    else()
        set(timeout 1800) # a suite of end-to-end tests: several servers, rollouts, browsers
    endif()
    set(include_file "${CMAKE_CURRENT_BINARY_DIR}/${name}_include.cmake")
    file(WRITE ${include_file}
        "if(EXISTS [==[${ctest_file}]==])\n"
        "    include([==[${ctest_file}]==])\n"
        "    set_tests_properties(\${${name}_SUITES} PROPERTIES\n"
        "        LABELS ${ARG_LABEL} TIMEOUT ${timeout}\n"
        "        ENVIRONMENT [==[DRA_SHARED_DIR=${DRA_SHARED_DIR};QT_QPA_PLATFORM=offscreen]==]\n"
        # A suite whose every test skipped (reference data absent) shows as skipped: the test
        # main returns 77 then, and only then (a suite whose tests all failed is a failure).
        "        SKIP_RETURN_CODE 77)\n"
        "else()\n"
        "    add_test(${name}_NOT_BUILT ${name}_NOT_BUILT)\n"
        "endif()\n")
    set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${include_file})
endfunction()
