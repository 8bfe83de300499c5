# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: DRA Console authors
#
# Run after a test executable is built (see dra_add_test): lists its GoogleTest suites and
# writes CTEST_FILE with one ctest entry per suite, named <target>.<suite>, each running
# `EXE --gtest_filter=<suite>.*`, and the list of their names in <target>_SUITES (the file that
# includes it gives them their properties).
#   cmake -D EXE=... -D TARGET=... -D CTEST_FILE=... -P DraListSuites.cmake

# Listing starts the test main: a Qt application, under the sanitizers.
set(ENV{QT_QPA_PLATFORM} offscreen)
set(ENV{ASAN_OPTIONS} detect_leaks=0)
set(listing_file "${CTEST_FILE}.list.json")
file(REMOVE "${listing_file}")
execute_process(COMMAND "${EXE}" --gtest_list_tests "--gtest_output=json:${listing_file}"
    OUTPUT_VARIABLE output ERROR_VARIABLE errors RESULT_VARIABLE status TIMEOUT 120)
if(NOT status EQUAL 0 OR NOT EXISTS "${listing_file}")
    message(FATAL_ERROR "${TARGET} --gtest_list_tests failed (${status}):\n${output}\n${errors}")
endif()
file(READ "${listing_file}" listing)

string(JSON count LENGTH "${listing}" testsuites)
if(count EQUAL 0)
    message(FATAL_ERROR "${TARGET} lists no test suite")
endif()
set(script "")
set(names "")
math(EXPR last "${count} - 1")
foreach(index RANGE ${last})
    string(JSON suite GET "${listing}" testsuites ${index} name)
    set(name "${TARGET}.${suite}")
    string(APPEND script
        "add_test([==[${name}]==] [==[${EXE}]==] [==[--gtest_filter=${suite}.*]==])\n")
    string(APPEND names " [==[${name}]==]")
endforeach()
file(WRITE "${CTEST_FILE}" "${script}set(${TARGET}_SUITES${names})\n")
