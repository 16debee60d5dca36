# The documentation site: doc/ as HTML with Sphinx (Debian's python3-sphinx, installed by
# utils/install-deps.sh), warnings as errors, so a broken reference or title fails the build.
#   cmake --build build --target doc      then open build/doc/html/index.html
# ctest builds it too (suite-doc-html), with a control that a broken page fails.
find_program(SUITE_SPHINX_BUILD sphinx-build)
if(SUITE_SPHINX_BUILD)
  add_custom_target(doc
    COMMAND ${SUITE_SPHINX_BUILD} -q -W --keep-going -b html -d ${PROJECT_BINARY_DIR}/doc/doctrees
            ${PROJECT_SOURCE_DIR}/doc ${PROJECT_BINARY_DIR}/doc/html
    COMMENT "Sphinx: doc/ -> build/doc/html (warnings are errors)"
    VERBATIM)
endif()
