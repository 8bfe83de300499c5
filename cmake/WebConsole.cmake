# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: DRA Console authors
#
# The web console is written as plain ES modules in resources/web and bundled at build time
# by esbuild (pinned in package-lock.json) into ${CMAKE_BINARY_DIR}/web, which is compiled into
# the target as the Qt resource :/web. The binary then serves the console with nothing to fetch
# at run time; `dractl serve --web-root DIR` serves a bundle from disk while working on it.

find_program(DRA_NODE node)
find_program(DRA_NPM npm)
if(NOT DRA_NODE OR NOT DRA_NPM)
    message(FATAL_ERROR
        "The web console is bundled at build time with Node.js (18 or newer) and npm, and "
        "they are not on PATH. On Debian 12: apt-get install nodejs npm")
endif()
execute_process(COMMAND "${DRA_NODE}" --version OUTPUT_VARIABLE DRA_NODE_VERSION
    OUTPUT_STRIP_TRAILING_WHITESPACE)
string(REGEX MATCH "^v([0-9]+)" _dra_node_major "${DRA_NODE_VERSION}")
if(NOT _dra_node_major OR CMAKE_MATCH_1 LESS 18)
    message(FATAL_ERROR "The web console needs Node.js 18 or newer to build; ${DRA_NODE} is "
        "'${DRA_NODE_VERSION}'")
endif()

# dra_add_web_console(TARGET): bundles the console and adds it to TARGET as :/web.
function(dra_add_web_console target)
    set(web "${PROJECT_SOURCE_DIR}/resources/web")
    set(out "${CMAKE_BINARY_DIR}/web")
    set(stamp "${out}/npm-ci.stamp")
    file(GLOB_RECURSE sources CONFIGURE_DEPENDS
        "${web}/*.js" "${web}/*.mjs" "${web}/*.css" "${web}/*.html" "${web}/*.svg")
    # Runs every build but touches the stamp only when it had to run `npm ci` (node_modules
    # missing or older than the lock file), so the bundle is redone only when something changed.
    add_custom_target(dra_web_npm_ci
        COMMAND "${CMAKE_COMMAND}" "-DNPM=${DRA_NPM}" "-DSOURCE_DIR=${PROJECT_SOURCE_DIR}"
            "-DSTAMP=${stamp}" -P "${PROJECT_SOURCE_DIR}/cmake/WebNpmCi.cmake"
        BYPRODUCTS "${stamp}"
        COMMENT "Checking the web console's npm packages"
        VERBATIM)
    set(bundle "${out}/index.html" "${out}/app.js" "${out}/style.css")
    add_custom_command(OUTPUT ${bundle}
        COMMAND "${DRA_NODE}" "${web}/build.mjs" "${out}"
        DEPENDS ${sources} "${stamp}" "${PROJECT_SOURCE_DIR}/package-lock.json"
        WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
        COMMENT "Bundling the web console with esbuild"
        VERBATIM)
    add_custom_target(dra_web_bundle DEPENDS ${bundle})
    add_dependencies(dra_web_bundle dra_web_npm_ci)
    add_dependencies(${target} dra_web_bundle)
    qt_add_resources(${target} "dra_web_console" PREFIX "/web" BASE "${out}" FILES ${bundle})
endfunction()
