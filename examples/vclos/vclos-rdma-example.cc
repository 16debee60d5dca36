/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// One RoCEv2 transfer between two hosts on a point-to-point link.
//
// Host a posts --messages RDMA WRITE messages of --bytes each on one RC queue pair to host b
// (RoceNic attributes from the command line, e.g. --ns3::RoceNic::Mtu=1024).
// Prints the transfer time, the goodput and the go-back-N counters; --pcap writes
// vclos-rdma-example-<node>-<device>.pcap. Bad attributes are refused with one line.

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/roce-helper.h"

#include <iomanip>
#include <iostream>
#include <stdexcept>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("VclosRdmaExample");

int
main(int argc, char* argv[])
{
    uint64_t bytes = 10000000;
    uint32_t messages = 1;
    std::string dataRate = "100Gbps";
    Time delay = MicroSeconds(1);
    bool pcap = false;

    CommandLine cmd(__FILE__);
    cmd.AddValue("bytes", "bytes per message", bytes);
    cmd.AddValue("messages", "messages posted at time 0", messages);
    cmd.AddValue("dataRate", "rate of the link", dataRate);
    cmd.AddValue("delay", "propagation delay of the link", delay);
    cmd.AddValue("pcap", "write pcap files", pcap);
    cmd.Parse(argc, argv);
    if (bytes == 0 || messages == 0 || delay.IsStrictlyNegative())
    {
        std::cerr << "vclos-rdma-example: --bytes and --messages must be > 0, --delay >= 0"
                  << std::endl;
        return 1;
    }

    NodeContainer hosts;
    hosts.Create(2);
    PointToPointHelper link;
    link.SetDeviceAttribute("DataRate", StringValue(dataRate));
    link.SetDeviceAttribute("Mtu", UintegerValue(9000)); // jumbo frames, as RoCE needs
    link.SetChannelAttribute("Delay", TimeValue(delay));
    NetDeviceContainer devices = link.Install(hosts);
    InternetStackHelper internet;
    internet.Install(hosts);
    Ipv4AddressHelper addresses("10.0.0.0", "255.255.255.0");
    Ipv4InterfaceContainer interfaces = addresses.Assign(devices);

    Ptr<RoceQp> qp;
    try
    {
        RoceHelper rdma;
        auto nics = rdma.Install(hosts);
        qp = nics[0]->Connect(interfaces.GetAddress(1));
    }
    catch (const std::exception& e)
    {
        std::cerr << "vclos-rdma-example: " << e.what() << std::endl;
        return 1;
    }
    if (pcap)
    {
        link.EnablePcapAll("vclos-rdma-example");
    }

    Time done;
    const uint64_t total = bytes * messages;
    qp->SetSendCompleteCallback(
        MakeCallback(+[](Time* done, uint64_t total, Ptr<RoceQp> qp, uint64_t) {
            if (qp->GetBytesAcked() == total)
            {
                *done = Simulator::Now();
            }
        }).Bind(&done, total));
    for (uint32_t m = 0; m < messages; ++m)
    {
        qp->Send(bytes);
    }
    Simulator::Run();
    const uint64_t delivered =
        hosts.Get(1)->GetObject<RoceNic>()->GetQp(qp->GetRemoteQpn())->GetBytesDelivered();
    std::cout << std::fixed << std::setprecision(3) << "bytes," << total << "\ndelivered,"
              << delivered << "\ntime_us," << done.GetSeconds() * 1e6 << "\ngoodput_gbps,"
              << (done.IsStrictlyPositive() ? total * 8.0 / done.GetSeconds() / 1e9 : 0.0)
              << "\nretransmitted_bytes," << qp->GetRetransmittedBytes() << "\nnaks,"
              << qp->GetNaks() << "\ntimeouts," << qp->GetTimeouts() << std::endl;
    Simulator::Destroy();
    return delivered == total ? 0 : 2;
}
