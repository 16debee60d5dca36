/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// LeanLinkMaybeMarkCe, the RED/ECN curve of the lean and PFC ports (DCQCN's switch side):
// no mark at or below Kmin, always above Kmax, in between with probability
// Pmax (q - Kmin) / (Kmax - Kmin), decided here with a draw fixed by hand; a marked packet
// leaves with CE in its IPv4 header. Refusals: a packet that is not ECN-capable is never
// marked (unless the curve asks for any packet), nor one already CE.
// Tests: lean-link-ecn-mark
#include "ns3/double.h"
#include "ns3/ipv4-header.h"
#include "ns3/lean-link-ecn-mark.h"
#include "ns3/packet.h"
#include "ns3/random-variable-stream.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

Ptr<Packet>
IpPacket(Ipv4Header::EcnType ecn)
{
    Ptr<Packet> p = Create<Packet>(100);
    Ipv4Header h;
    h.SetEcn(ecn);
    h.SetPayloadSize(100);
    p->AddHeader(h);
    return p;
}

Ipv4Header::EcnType
EcnOf(const Ptr<Packet>& p)
{
    Ipv4Header h;
    p->PeekHeader(h);
    return h.GetEcn();
}

/// A "uniform" variable that always draws `value`.
Ptr<UniformRandomVariable>
Draw(double value)
{
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    rng->SetAttribute("Min", DoubleValue(value));
    rng->SetAttribute("Max", DoubleValue(value));
    return rng;
}

DcqcnEcnCurve
Curve(uint64_t kmin, uint64_t kmax, double pmax)
{
    DcqcnEcnCurve c;
    c.kmin = kmin;
    c.kmax = kmax;
    c.pmax = pmax;
    return c;
}

} // namespace

TEST(LeanLinkEcnMark, NoMarkAtOrBelowKminAlwaysAboveKmax)
{
    const DcqcnEcnCurve c = Curve(10000, 20000, 0.2);
    Ptr<UniformRandomVariable> never = Draw(0.999);
    Ptr<Packet> p = IpPacket(Ipv4Header::ECN_ECT0);
    EXPECT_FALSE(LeanLinkMaybeMarkCe(p, 0, c, PeekPointer(never)));
    EXPECT_FALSE(LeanLinkMaybeMarkCe(p, 10000, c, PeekPointer(never)));
    EXPECT_EQ(EcnOf(p), Ipv4Header::ECN_ECT0);
    EXPECT_TRUE(LeanLinkMaybeMarkCe(p, 20001, c, PeekPointer(never)));
    EXPECT_EQ(EcnOf(p), Ipv4Header::ECN_CE);
    EXPECT_EQ(p->GetSize(), 120u); // the header replaced, not added
    Ptr<Packet> q = IpPacket(Ipv4Header::ECN_ECT1);
    EXPECT_TRUE(LeanLinkMaybeMarkCe(q, 1000000, c, nullptr)); // no draw above Kmax
    EXPECT_EQ(EcnOf(q), Ipv4Header::ECN_CE);
}

TEST(LeanLinkEcnMark, RampProbabilityWorkedOutByHand)
{
    // Kmin 10 KB, Kmax 20 KB, Pmax 0.2: at 15 KB p = 0.2 * 5000 / 10000 = 0.1, at 20 KB 0.2.
    const DcqcnEcnCurve c = Curve(10000, 20000, 0.2);
    Ptr<Packet> p = IpPacket(Ipv4Header::ECN_ECT0);
    EXPECT_TRUE(LeanLinkMaybeMarkCe(p, 15000, c, PeekPointer(Draw(0.099))));
    p = IpPacket(Ipv4Header::ECN_ECT0);
    EXPECT_FALSE(LeanLinkMaybeMarkCe(p, 15000, c, PeekPointer(Draw(0.1))));
    EXPECT_EQ(EcnOf(p), Ipv4Header::ECN_ECT0);
    EXPECT_TRUE(LeanLinkMaybeMarkCe(p, 20000, c, PeekPointer(Draw(0.199))));
    p = IpPacket(Ipv4Header::ECN_ECT0);
    EXPECT_FALSE(LeanLinkMaybeMarkCe(p, 20000, c, PeekPointer(Draw(0.2))));
    // Just above Kmin: p = 0.2 * 1 / 10000 = 2e-5.
    EXPECT_FALSE(LeanLinkMaybeMarkCe(p, 10001, c, PeekPointer(Draw(2.1e-5))));
    EXPECT_TRUE(LeanLinkMaybeMarkCe(p, 10001, c, PeekPointer(Draw(1.9e-5))));
}

TEST(LeanLinkEcnMark, NotEctAndAlreadyCeAreNotMarked)
{
    const DcqcnEcnCurve c = Curve(0, 0, 1.0); // every packet above 0 bytes
    Ptr<Packet> notEct = IpPacket(Ipv4Header::ECN_NotECT);
    EXPECT_FALSE(LeanLinkMaybeMarkCe(notEct, 5000, c, nullptr));
    EXPECT_EQ(EcnOf(notEct), Ipv4Header::ECN_NotECT);
    Ptr<Packet> ce = IpPacket(Ipv4Header::ECN_CE);
    EXPECT_FALSE(LeanLinkMaybeMarkCe(ce, 5000, c, nullptr));
    // A curve for any packet (HPCC's): the not-ECT one is marked.
    DcqcnEcnCurve any = c;
    any.requiresEct = false;
    EXPECT_TRUE(LeanLinkMaybeMarkCe(notEct, 5000, any, nullptr));
    EXPECT_EQ(EcnOf(notEct), Ipv4Header::ECN_CE);
}
