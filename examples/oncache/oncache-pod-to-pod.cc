/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// One TCP transfer between pods on two hosts, in a chosen data-path mode. Prints the transfer
// time, the path decisions and the CPU time, and can write a pcap of the underlay (VXLAN in
// the overlay modes).
//
//   oncache-pod-to-pod --mode=Oncache --bytes=1000000 --pcap=1
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/oncache-module.h"
#include "ns3/suite-module.h"

#include <iostream>
#include <stdexcept>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("OncachePodToPod");

int
main(int argc, char* argv[])
{
    std::string mode = "Oncache";
    uint32_t bytes = 1000000;
    bool pcap = false;
    SuiteCommandLine cmd(__FILE__);
    cmd.AddValue("mode", "Data path: BareMetal, Overlay, Oncache or OncacheRpeer", mode);
    cmd.AddValue("bytes", "Bytes to transfer (at least 1)", bytes);
    cmd.AddValue("pcap", "Write oncache-pod-to-pod-*.pcap of the hosts' NICs", pcap);
    cmd.Parse(argc, argv);
    if (bytes == 0)
    {
        // ns-3's BulkSend reads MaxBytes 0 as "no limit": the run would send for its whole
        // second.
        std::cerr << "error: --bytes=0: expected at least 1 byte" << std::endl;
        return 1;
    }

    try
    {
        Ptr<OncacheTopologyHelper> helper = CreateObject<OncacheTopologyHelper>();
        helper->SetAttribute("Mode", EnumValue(OncacheModeFromString(mode)));
        Ptr<OncacheCluster> cluster = helper->Install();
        Ptr<OncacheStatsTracker> stats = CreateObject<OncacheStatsTracker>();
        stats->Install(cluster);
        if (pcap)
        {
            helper->EnablePcap("oncache-pod-to-pod");
        }
        Ipv4Address client = helper->GetPodAddress(0, 0);
        Ipv4Address server = helper->GetPodAddress(1, 0);

        PacketSinkHelper sink("ns3::TcpSocketFactory",
                              InetSocketAddress(Ipv4Address::GetAny(), 5001));
        ApplicationContainer sinkApp = sink.Install(cluster->GetPod(server));
        BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(server, 5001));
        bulk.SetAttribute("MaxBytes", UintegerValue(bytes));
        bulk.SetAttribute("SendSize", UintegerValue(helper->GetPodMtu() - 52)); // one per segment
        ApplicationContainer bulkApp = bulk.Install(cluster->GetPod(client));
        bulkApp.Start(MicroSeconds(10));

        Time last(0);
        Ptr<PacketSink> packetSink = DynamicCast<PacketSink>(sinkApp.Get(0));
        packetSink->TraceConnectWithoutContext(
            "Rx",
            MakeBoundCallback(
                +[](Time* t, Ptr<const Packet>, const Address&) { *t = Simulator::Now(); },
                &last));
        Simulator::Stop(Seconds(1));
        Simulator::Run();

        std::cout << "mode " << mode << ", pod MTU " << helper->GetPodMtu() << ", received "
                  << packetSink->GetTotalRx() << " bytes, last at " << last.As(Time::US)
                  << std::endl;
        const char* names[] = {"native", "fast", "miss", "reverse", "fallback"};
        for (auto dir : {OncacheHostDatapath::EGRESS, OncacheHostDatapath::INGRESS})
        {
            std::cout << (dir == OncacheHostDatapath::EGRESS ? "egress " : "ingress");
            for (int p = 0; p < 5; ++p)
            {
                std::cout << " " << names[p] << "="
                          << stats->GetPathCount(dir, static_cast<OncacheHostDatapath::Path>(p));
            }
            std::cout << std::endl;
        }
        for (uint32_t h = 0; h < cluster->GetNHosts(); ++h)
        {
            std::cout << "host " << h << " CPU busy " << stats->GetHostBusy(h).As(Time::US)
                      << std::endl;
        }
        std::cout << "drops " << stats->GetTotalDrops() << std::endl;
        Simulator::Destroy();
    }
    catch (const std::exception& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }
    return 0;
}
