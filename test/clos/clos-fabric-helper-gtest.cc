/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Bad fabric configurations: Install() must refuse them with one line naming the attribute,
// before creating anything.
// Tests: clos-fabric-helper
#include "ns3/boolean.h"
#include "ns3/clos-fabric-helper.h"
#include "ns3/collective-permutation-helper.h"
#include "ns3/config.h"
#include "ns3/node-list.h"
#include "ns3/nstime.h"
#include "ns3/queue-size.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <string>

using namespace ns3;

namespace
{

/// One bad setting and the text its error must contain.
struct BadSetting
{
    std::string attribute;
    std::string value;
    std::string mustName;
};

class ClosFabricHelperBadInput : public ::testing::TestWithParam<BadSetting>
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
        Config::Reset();
    }
};

} // namespace

TEST_P(ClosFabricHelperBadInput, InstallThrowsNamingTheAttribute)
{
    const BadSetting& bad = GetParam();
    Ptr<ClosFabricHelper> helper = CreateObject<ClosFabricHelper>();
    ASSERT_TRUE(helper->SetAttributeFailSafe(bad.attribute, StringValue(bad.value)))
        << "attribute " << bad.attribute << " did not accept " << bad.value;
    try
    {
        helper->Install();
        FAIL() << "Install() accepted " << bad.attribute << "=" << bad.value;
    }
    catch (const std::invalid_argument& e)
    {
        std::string message = e.what();
        EXPECT_NE(message.find(bad.mustName), std::string::npos) << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << "not one line: " << message;
    }
    EXPECT_EQ(Simulator::GetEventCount(), 0u);
}

INSTANTIATE_TEST_SUITE_P(
    Attributes,
    ClosFabricHelperBadInput,
    ::testing::Values(BadSetting{"LeafPorts", "15", "LeafPorts"},
                      BadSetting{"SpinePorts", "3", "SpinePorts"},
                      BadSetting{"NicDataRate", "0bps", "NicDataRate"},
                      BadSetting{"NicDataRate", "999999bps", "NicDataRate"},
                      BadSetting{"FabricDataRate", "0bps", "FabricDataRate"},
                      BadSetting{"IntraServerDataRate", "1bps", "IntraServerDataRate"},
                      BadSetting{"EcnThreshold", "2MB", "EcnThreshold"},
                      BadSetting{"EcnThreshold", "10p", "EcnThreshold"},
                      BadSetting{"TcpSocketType", "ns3::TcpNoSuchThing", "TcpSocketType"},
                      BadSetting{"TcpSocketType", "ns3::Node", "TcpSocketType"},
                      BadSetting{"TcpBufferSize", "100", "TcpBufferSize"},
                      BadSetting{"TcpMinRto", "0s", "TcpMinRto"}),
    [](const ::testing::TestParamInfo<BadSetting>& info) {
        return info.param.attribute + "_" + std::to_string(info.index);
    });

class ClosFabricHelperOutOfRange : public ::testing::TestWithParam<BadSetting>
{
  protected:
    void TearDown() override
    {
        Config::Reset();
    }
};

// Out of its checker's range, a value is refused when it is set (object or default), before
// anything is built: Spines=100000 used to build 100,000 spines (1.5 GB in 20 s), and
// LinkDelay=1e300s, which ns-3's Time wraps to 0, used to give a zero delay.
TEST_P(ClosFabricHelperOutOfRange, TheAttributeRefusesIt)
{
    const BadSetting& bad = GetParam();
    Ptr<ClosFabricHelper> helper = CreateObject<ClosFabricHelper>();
    EXPECT_FALSE(helper->SetAttributeFailSafe(bad.attribute, StringValue(bad.value)))
        << bad.attribute << " accepted " << bad.value;
    EXPECT_FALSE(Config::SetDefaultFailSafe("ns3::ClosFabricHelper::" + bad.attribute,
                                            StringValue(bad.value)))
        << bad.attribute << " accepted " << bad.value << " as a default";
}

INSTANTIATE_TEST_SUITE_P(Attributes,
                         ClosFabricHelperOutOfRange,
                         ::testing::Values(BadSetting{"Spines", "0", ""},
                                           BadSetting{"Spines", "257", ""},
                                           BadSetting{"Spines", "100000", ""},
                                           BadSetting{"Leaves", "0", ""},
                                           BadSetting{"Leaves", "257", ""},
                                           BadSetting{"ServersPerLeaf", "0", ""},
                                           BadSetting{"ServersPerLeaf", "257", ""},
                                           BadSetting{"GpusPerServer", "0", ""},
                                           BadSetting{"GpusPerServer", "65", ""},
                                           BadSetting{"LeafPorts", "65536", ""},
                                           BadSetting{"SpinePorts", "4294967295", ""},
                                           BadSetting{"Mtu", "100", ""},
                                           BadSetting{"Mtu", "65536", ""},
                                           BadSetting{"NicDelay", "1e300s", ""},
                                           BadSetting{"NicDelay", "1e10s", ""},
                                           BadSetting{"NicDelay", "0s", ""},
                                           BadSetting{"FabricDelay", "2s", ""},
                                           BadSetting{"FabricDelay", "-1us", ""},
                                           BadSetting{"IntraServerDelay", "1e300s", ""}),
                         [](const ::testing::TestParamInfo<BadSetting>& info) {
                             return info.param.attribute + "_" + std::to_string(info.index);
                         });

TEST(ClosFabricHelper, AFabricBeyondTheNodeCapIsRefusedBeforeBuilding)
{
    Ptr<ClosFabricHelper> helper = CreateObject<ClosFabricHelper>();
    helper->SetAttribute("Leaves", UintegerValue(256));
    helper->SetAttribute("ServersPerLeaf", UintegerValue(256));
    helper->SetAttribute("GpusPerServer", UintegerValue(64));
    try
    {
        helper->Install();
        FAIL() << "Install() built 4,194,304 GPUs";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("the packet-level fabric holds at most 16384"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_EQ(NodeList::GetNNodes(), 0u);
    // The next issue's shape at 1:1 (8,192 GPUs, 256 leaves, 128 spines) fits the attributes.
    Ptr<ClosFabricHelper> large = CreateObject<ClosFabricHelper>();
    EXPECT_TRUE(large->SetAttributeFailSafe("Leaves", UintegerValue(256)));
    EXPECT_TRUE(large->SetAttributeFailSafe("Spines", UintegerValue(128)));
    EXPECT_TRUE(large->SetAttributeFailSafe("ServersPerLeaf", UintegerValue(8)));
    Config::Reset();
}

TEST(CollectivePermutationHelper, AttributesOutOfRangeAreRefused)
{
    Ptr<CollectivePermutationHelper> helper = CreateObject<CollectivePermutationHelper>();
    // "-1" used to wrap to 2^64 - 1 bytes (a run without end), a huge SendSize allocated
    // that much per write, and a negative start time broke the plots.
    for (const auto& [attribute, value] : {std::make_pair("FlowBytes", "-1"),
                                           std::make_pair("FlowBytes", "10000000001"),
                                           std::make_pair("FlowBytes", "0"),
                                           std::make_pair("SendSize", "4294967295"),
                                           std::make_pair("StartTime", "-1s"),
                                           std::make_pair("StartTime", "3601s")})
    {
        EXPECT_FALSE(helper->SetAttributeFailSafe(attribute, StringValue(value)))
            << attribute << " accepted " << value;
    }
    EXPECT_TRUE(helper->SetAttributeFailSafe("FlowBytes", StringValue("10000000000")));
    EXPECT_TRUE(helper->SetAttributeFailSafe("SendSize", StringValue("16777216")));
    EXPECT_TRUE(helper->SetAttributeFailSafe("StartTime", StringValue("0s")));
}
