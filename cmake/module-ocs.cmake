# The ocs module. Optical circuit switches: the OCS device, its port channel and helper.
suite_module(
  NAME ocs
  SOURCES
    model/ocs/ocs-switch.cc
    model/ocs/ocs-port-channel.cc
    helper/ocs/ocs-helper.cc
  HEADERS
    model/ocs/ocs-switch.h
    model/ocs/ocs-port-channel.h
    helper/ocs/ocs-helper.h
  LIBRARIES
    ns3-suite ns3::libinternet ns3::libpoint-to-point ns3::libstats)
