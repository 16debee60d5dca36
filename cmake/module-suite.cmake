# The suite module: what every program of the other modules shares (strict text-to-number
# and attribute-text parsing, the command-line wrapper, gnuplot without a shell, plot ranges,
# output prefix checks, values shortened for error messages, the program runner that turns an
# exception into one line, the interruption check (signals, a wall-clock limit), numbers written
# exactly for CSV files, the re-run on transparent huge pages).
suite_module(
  NAME suite
  SOURCES
    helper/suite/suite-number-parser.cc
    helper/suite/suite-unit-parser.cc
    helper/suite/suite-attribute-text.cc
    helper/suite/suite-command-line.cc
    helper/suite/suite-gnuplot.cc
    helper/suite/suite-plot-bounds.cc
    helper/suite/suite-output-prefix.cc
    helper/suite/suite-run-program.cc
    helper/suite/suite-run-interruption.cc
    helper/suite/suite-exact-number.cc
    helper/suite/suite-huge-pages.cc
    helper/suite/suite-program-support.cc
    model/suite/suite-csv-reader.cc
    model/suite/suite-run-status.cc
    model/suite/suite-shown-text.cc
  HEADERS
    helper/suite/suite-number-parser.h
    helper/suite/suite-unit-parser.h
    helper/suite/suite-attribute-text.h
    helper/suite/suite-command-line.h
    helper/suite/suite-gnuplot.h
    helper/suite/suite-plot-bounds.h
    helper/suite/suite-output-prefix.h
    helper/suite/suite-run-program.h
    helper/suite/suite-run-interruption.h
    helper/suite/suite-exact-number.h
    helper/suite/suite-huge-pages.h
    helper/suite/suite-program-support.h
    model/suite/suite-check.h
    model/suite/suite-csv-reader.h
    model/suite/suite-run-status.h
    model/suite/suite-shown-text.h
  LIBRARIES
    ns3::libcore ns3::libnetwork ns3::libstats)
