/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Bad fabric configurations: Install() must refuse them with one line naming the attribute,
// before creating anything.
#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/nstime.h"
#include "ns3/queue-size.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"
#include "ns3/vclos-fabric-helper.h"

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

class VclosFabricHelperBadInput : public ::testing::TestWithParam<BadSetting>
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
        Config::Reset();
    }
};

} // namespace

TEST_P(VclosFabricHelperBadInput, InstallThrowsNamingTheAttribute)
{
    const BadSetting& bad = GetParam();
    Ptr<VclosFabricHelper> helper = CreateObject<VclosFabricHelper>();
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
    VclosFabricHelperBadInput,
    ::testing::Values(BadSetting{"Spines", "0", "Spines"},
                      BadSetting{"Leaves", "0", "Leaves"},
                      BadSetting{"Leaves", "257", "Leaves"},
                      BadSetting{"ServersPerLeaf", "0", "ServersPerLeaf"},
                      BadSetting{"GpusPerServer", "0", "GpusPerServer"},
                      BadSetting{"GpusPerServer", "65", "GpusPerServer"},
                      BadSetting{"LeafPorts", "15", "LeafPorts"},
                      BadSetting{"SpinePorts", "3", "SpinePorts"},
                      BadSetting{"Mtu", "100", "Mtu"},
                      BadSetting{"NicDataRate", "0bps", "NicDataRate"},
                      BadSetting{"FabricDataRate", "0bps", "FabricDataRate"},
                      BadSetting{"EcnThreshold", "2MB", "EcnThreshold"},
                      BadSetting{"EcnThreshold", "10p", "EcnThreshold"},
                      BadSetting{"TcpSocketType", "ns3::TcpNoSuchThing", "TcpSocketType"},
                      BadSetting{"TcpSocketType", "ns3::Node", "TcpSocketType"},
                      BadSetting{"TcpBufferSize", "100", "TcpBufferSize"},
                      BadSetting{"TcpMinRto", "0s", "TcpMinRto"}),
    [](const ::testing::TestParamInfo<BadSetting>& info) {
        return info.param.attribute + "_" + std::to_string(info.index);
    });
