# The roce module. The RoCEv2 transport (IBTA RoCEv2 annex): BTH/RETH/AETH headers, queue pairs with go-back-N,
# the NIC, the host receive path, DCQCN rate control, and the helper.
suite_module(
  NAME roce
  SOURCES
    model/roce/roce-header.cc
    model/roce/roce-qp.cc
    model/roce/roce-nic.cc
    model/roce/roce-host-path.cc
    model/roce/roce-dcqcn.cc
    helper/roce/roce-helper.cc
  HEADERS
    model/roce/roce-rate-control.h
    model/roce/roce-dcqcn.h
    model/roce/roce-header.h
    model/roce/roce-qp.h
    model/roce/roce-nic.h
    model/roce/roce-host-path.h
    helper/roce/roce-helper.h
  LIBRARIES
    ns3-lean-link)
