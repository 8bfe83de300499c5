# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: DRA Console authors
#
# cmake -DNPM=npm -DSOURCE_DIR=... -DSTAMP=... -P WebNpmCi.cmake
# Installs the web console's npm packages exactly as package-lock.json pins them when
# node_modules is missing or older than the lock file, and then touches STAMP.
set(lock "${SOURCE_DIR}/package-lock.json")
set(installed "${SOURCE_DIR}/node_modules/.package-lock.json")
if(NOT EXISTS "${installed}" OR "${lock}" IS_NEWER_THAN "${installed}")
    message(STATUS "npm ci in ${SOURCE_DIR} (node_modules missing or older than package-lock.json)")
    execute_process(COMMAND "${NPM}" ci --no-audit --no-fund
        WORKING_DIRECTORY "${SOURCE_DIR}" RESULT_VARIABLE result)
    if(NOT result EQUAL 0)
        message(FATAL_ERROR "npm ci failed (${result}): the web console's packages could not be "
            "installed from the npm registry; see the output above")
    endif()
    file(TOUCH "${STAMP}")
elseif(NOT EXISTS "${STAMP}")
    file(TOUCH "${STAMP}")
endif()
