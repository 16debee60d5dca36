# The fluid module. The fluid (flow-level) engine: max-min and equal-share rates, bursts, collective plans,
# replay of isolated jobs, and the flow executor for the scheduler.
suite_module(
  NAME fluid
  SOURCES
    model/fluid/fluid-engine.cc
    model/fluid/fluid-burst.cc
    model/fluid/fluid-replay.cc
    model/fluid/fluid-collective.cc
    model/fluid/fluid-executor.cc
  HEADERS
    model/fluid/fluid-engine.h
    model/fluid/fluid-burst.h
    model/fluid/fluid-replay.h
    model/fluid/fluid-collective.h
    model/fluid/fluid-executor.h
  LIBRARIES
    ns3-cluster)
# The flow executor replays isolated jobs ahead on a second thread (Boost.Asio thread_pool).
find_package(Threads REQUIRED)
target_link_libraries(ns3-fluid PRIVATE Threads::Threads)
