# The collective module. Collectives at packet level: the rank application, its helper and tracker, permutation
# traffic, and the packet executor for the scheduler.
suite_module(
  NAME collective
  SOURCES
    model/collective/collective-app.cc
    helper/collective/collective-permutation-helper.cc
    helper/collective/collective-helper.cc
    helper/collective/collective-tracker.cc
    model/collective/collective-packet-executor.cc
  HEADERS
    model/collective/collective-app.h
    helper/collective/collective-permutation-helper.h
    helper/collective/collective-helper.h
    helper/collective/collective-tracker.h
    model/collective/collective-packet-executor.h
  LIBRARIES
    ns3-clos ns3-roce)
