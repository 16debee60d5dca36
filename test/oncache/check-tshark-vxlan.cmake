# Runs the oncache-pod-to-pod example with a pcap in Oncache mode and checks with tshark that
# the underlay capture decodes as Ethernet/IPv4/UDP/VXLAN with the pods' TCP inside.
set(dir "${WORKDIR}")
file(REMOVE_RECURSE "${dir}")
file(MAKE_DIRECTORY "${dir}")
execute_process(COMMAND ${PROGRAM} --mode=Oncache --bytes=20000 --pcap=1
                WORKING_DIRECTORY "${dir}" RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "example failed (${rc}): ${err}")
endif()
execute_process(COMMAND ${TSHARK} -r "${dir}/oncache-pod-to-pod-0-0.pcap" -T fields
                        -e frame.protocols -e vxlan.vni -e tcp.dstport
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tshark failed (${rc}): ${err}")
endif()
string(STRIP "${out}" out)
string(REGEX MATCHALL "eth:ethertype:ip:udp:vxlan:eth:ethertype:ip:tcp[^\n]*\t1\t[0-9]+" vxlan "${out}")
list(LENGTH vxlan n)
string(REGEX MATCHALL "\n" lines "\n${out}")
list(LENGTH lines total)
if(n LESS 10 OR NOT n EQUAL total)
  message(FATAL_ERROR "expected every frame to be eth/ip/udp/vxlan(vni 1)/eth/ip/tcp, "
                      "got ${n} of ${total}:\n${out}")
endif()
message(STATUS "tshark decodes all ${n} frames as VXLAN")
