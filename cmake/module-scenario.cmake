# The scenario module. Scenario files: the JSON reader and its validation, jobs from traces and workloads, and the
# scenario's attributes applied to the other modules.
suite_module(
  NAME scenario
  SOURCES
    helper/scenario/scenario-config.cc
    helper/scenario/scenario-runner.cc
  HEADERS
    helper/scenario/scenario-config.h
    helper/scenario/scenario-runner.h
  LIBRARIES
    ns3-collective ns3-fluid)
# Scenario files are JSON (Debian's nlohmann-json3-dev, header-only, private to the library).
find_package(nlohmann_json 3.10 REQUIRED)
target_link_libraries(ns3-scenario PRIVATE nlohmann_json::nlohmann_json)
