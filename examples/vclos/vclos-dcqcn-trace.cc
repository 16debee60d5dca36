/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// DCQCN's reaction point alone: R_C, R_T and α under periodic CNPs, then their recovery.
//
// One Dcqcn starts at --lineRate; a CNP arrives every --cnpPeriod from --cnpStart until
// --cnpStop, then none until --duration. Prints CSV rows "time_us,rc_gbps,rt_gbps,alpha"
// every --sample on stdout, and on stderr a comment line with the events the RP scheduled
// and how many a periodic-timer implementation would have had.
//
//   vclos-dcqcn-trace --profile=hpcc --cnpPeriod=20us --cnpStop=2ms --duration=20ms
//
// --profile=none keeps the attribute defaults (and any --ns3::Dcqcn::X=... given);
// --variant=paper|mellanox overrides the profile's variant.

#include "ns3/core-module.h"
#include "ns3/roce-dcqcn.h"

#include <cstdio>
#include <iostream>
#include <stdexcept>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("VclosDcqcnTrace");

int
main(int argc, char* argv[])
{
    std::string profile = "hpcc";
    std::string variant;
    std::string lineRate = "100Gbps";
    Time cnpPeriod = MicroSeconds(50);
    Time cnpStart = MicroSeconds(100);
    Time cnpStop = MilliSeconds(1);
    Time duration = MilliSeconds(10);
    Time sample = MicroSeconds(10);

    CommandLine cmd(__FILE__);
    cmd.AddValue("profile", "parameter set: paper, hpcc, simai, nvidia or none", profile);
    cmd.AddValue("variant", "paper or mellanox (default: the profile's)", variant);
    cmd.AddValue("lineRate", "NIC rate", lineRate);
    cmd.AddValue("cnpPeriod", "time between CNPs", cnpPeriod);
    cmd.AddValue("cnpStart", "first CNP", cnpStart);
    cmd.AddValue("cnpStop", "no CNP from this time on", cnpStop);
    cmd.AddValue("duration", "end of the run", duration);
    cmd.AddValue("sample", "time between CSV rows", sample);
    cmd.Parse(argc, argv);

    auto refuse = [](const std::string& why) {
        std::cerr << "vclos-dcqcn-trace: " << why << std::endl;
        return 1;
    };
    if (!cnpPeriod.IsStrictlyPositive())
    {
        return refuse("--cnpPeriod must be > 0");
    }
    if (!sample.IsStrictlyPositive())
    {
        return refuse("--sample must be > 0");
    }
    if (cnpStart.IsNegative() || cnpStop < cnpStart || duration < cnpStop)
    {
        return refuse("need 0 <= --cnpStart <= --cnpStop <= --duration");
    }
    if (variant != "" && variant != "paper" && variant != "mellanox")
    {
        return refuse("--variant must be paper or mellanox (got '" + variant + "')");
    }
    DataRateValue parsed;
    if (!parsed.DeserializeFromString(lineRate, MakeDataRateChecker()) ||
        parsed.Get().GetBitRate() == 0)
    {
        return refuse("--lineRate: '" + lineRate + "' is not a positive rate");
    }
    const DataRate line = parsed.Get();

    auto rp = CreateObject<Dcqcn>();
    try
    {
        if (profile != "none")
        {
            rp->ApplyProfile(profile, line);
        }
        if (!variant.empty())
        {
            rp->SetAttribute("Variant",
                             EnumValue(variant == "paper" ? Dcqcn::PAPER : Dcqcn::MELLANOX));
        }
        rp->Start(line);
    }
    catch (const std::invalid_argument& e)
    {
        return refuse(e.what());
    }

    uint64_t cnps = 0;
    for (Time t = cnpStart; t < cnpStop; t += cnpPeriod)
    {
        Simulator::Schedule(t, &Dcqcn::NotifyCnp, rp);
        ++cnps;
    }
    uint64_t samples = 0;
    std::cout << "time_us,rc_gbps,rt_gbps,alpha\n";
    for (Time t = Time(0); t <= duration; t += sample)
    {
        Simulator::Schedule(t, [rp, t]() {
            std::printf("%.3f,%.9f,%.9f,%.12g\n",
                        t.GetMicroSeconds() + (t.GetNanoSeconds() % 1000) / 1000.0,
                        rp->GetRate().GetBitRate() * 1e-9,
                        rp->GetTargetRate().GetBitRate() * 1e-9,
                        rp->GetAlpha());
        });
        ++samples;
    }
    Simulator::Stop(duration + NanoSeconds(1));
    Simulator::Run();
    const uint64_t rpEvents = Simulator::GetEventCount() - cnps - samples;
    std::fflush(stdout);

    // A periodic implementation (HPCC's) from the first CNP to the end: Mellanox has the α
    // and decrease timers plus the increase timer; the paper variant the α and increase ones.
    EnumValue v;
    rp->GetAttribute("Variant", v);
    TimeValue alphaInterval;
    TimeValue decreaseInterval;
    TimeValue increaseTimer;
    rp->GetAttribute("AlphaInterval", alphaInterval);
    rp->GetAttribute("RateDecreaseInterval", decreaseInterval);
    rp->GetAttribute("IncreaseTimer", increaseTimer);
    const int64_t span = cnps > 0 ? (duration - cnpStart).GetTimeStep() : 0;
    int64_t periodic =
        span / alphaInterval.Get().GetTimeStep() + span / increaseTimer.Get().GetTimeStep();
    if (v.Get() == Dcqcn::MELLANOX)
    {
        periodic += span / decreaseInterval.Get().GetTimeStep();
    }
    std::cerr << "# " << cnps << " CNPs; the RP scheduled " << rpEvents
              << " events; periodic timers from the first CNP would fire " << periodic << std::endl;
    rp->Stop();
    Simulator::Destroy();
    return 0;
}
