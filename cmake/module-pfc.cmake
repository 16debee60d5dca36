# The pfc module. Priority flow control (IEEE 802.1Qbb): PAUSE frames, the PFC device and channel, the shared
# switch buffer with per-ingress thresholds, and the helper.
suite_module(
  NAME pfc
  SOURCES
    model/pfc/pfc-header.cc
    model/pfc/pfc-channel.cc
    model/pfc/pfc-net-device.cc
    model/pfc/pfc-switch-buffer.cc
    helper/pfc/pfc-helper.cc
  HEADERS
    model/pfc/pfc-header.h
    model/pfc/pfc-channel.h
    model/pfc/pfc-net-device.h
    model/pfc/pfc-switch-buffer.h
    helper/pfc/pfc-helper.h
  LIBRARIES
    ns3-lean-link)
