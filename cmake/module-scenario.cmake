# The scenario module. Scenario files: the JSON reader and its validation, jobs from traces
# and workloads, the scenario's attributes applied to the other modules; the engines (packet,
# flow) chosen by TypeId, the one runner every program shares, and the figures of its runs
# (jobs and summary CSV rows, the console table).
suite_module(
  NAME scenario
  SOURCES
    helper/scenario/scenario-config.cc
    helper/scenario/scenario-engine.cc
    helper/scenario/scenario-runner.cc
    helper/scenario/scenario-report.cc
  HEADERS
    helper/scenario/scenario-config.h
    helper/scenario/scenario-engine.h
    helper/scenario/scenario-runner.h
    helper/scenario/scenario-report.h
  LIBRARIES
    ns3-collective ns3-fluid)
# Scenario files are JSON (Debian's nlohmann-json3-dev, header-only, private to the library).
find_package(nlohmann_json 3.10 REQUIRED)
target_link_libraries(ns3-scenario PRIVATE nlohmann_json::nlohmann_json)
