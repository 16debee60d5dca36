# Builds the documentation site from DOC_DIR into WORKDIR with SPHINX (warnings are errors).
# With BREAK set, a copy of DOC_DIR gets a page with a reference to a page that does not exist
# first: the build must then fail (the control), and this script fails if it does not.
if(NOT SPHINX)
  message(FATAL_ERROR "sphinx-build not found: utils/install-deps.sh installs python3-sphinx")
endif()
file(REMOVE_RECURSE "${WORKDIR}")
set(source "${DOC_DIR}")
if(BREAK)
  file(COPY "${DOC_DIR}/" DESTINATION "${WORKDIR}/doc")
  set(source "${WORKDIR}/doc")
  file(APPEND "${source}/index.rst" "\nSee :doc:`no-such-page`.\n")
endif()
execute_process(COMMAND ${SPHINX} -q -W --keep-going -b html -d "${WORKDIR}/doctrees"
                        "${source}" "${WORKDIR}/html"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(BREAK)
  if(rc EQUAL 0 OR NOT err MATCHES "no-such-page")
    message(FATAL_ERROR "a broken reference built without a warning (exit ${rc}):\n${err}")
  endif()
  message(STATUS "control: the broken reference failed the build:\n${err}")
elseif(NOT rc EQUAL 0)
  message(FATAL_ERROR "the documentation site has warnings (exit ${rc}):\n${err}")
endif()
