# The clos module. The packet-level Clos fabric: packet parsing, per-flow ECMP routing and its helper, the
# switch forwarder, the fabric and its helper, the link-load tracker.
suite_module(
  NAME clos
  SOURCES
    model/clos/clos-packet-parser.cc
    model/clos/clos-ecmp-routing.cc
    model/clos/clos-fabric.cc
    model/clos/clos-switch-forwarder.cc
    helper/clos/clos-ecmp-routing-helper.cc
    helper/clos/clos-fabric-helper.cc
    helper/clos/clos-link-load-tracker.cc
  HEADERS
    model/clos/clos-packet-parser.h
    model/clos/clos-ecmp-routing.h
    model/clos/clos-fabric.h
    model/clos/clos-switch-forwarder.h
    helper/clos/clos-ecmp-routing-helper.h
    helper/clos/clos-fabric-helper.h
    helper/clos/clos-link-load-tracker.h
  LIBRARIES
    ns3-cluster ns3-lean-link ns3-ocs ns3-pfc)
