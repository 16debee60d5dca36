/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "vclos-pfc-helper.h"

#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/vclos-pfc-channel.h"
#include "ns3/vclos-pfc-net-device.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("VclosPfcHelper");

VclosPfcHelper::VclosPfcHelper()
{
    m_deviceFactory.SetTypeId("ns3::VclosPfcNetDevice");
    m_channelFactory.SetTypeId("ns3::VclosPfcChannel");
    m_bufferFactory.SetTypeId("ns3::VclosPfcSwitchBuffer");
}

void
VclosPfcHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
VclosPfcHelper::SetChannelAttribute(const std::string& name, const AttributeValue& value)
{
    m_channelFactory.Set(name, value);
}

void
VclosPfcHelper::SetBufferAttribute(const std::string& name, const AttributeValue& value)
{
    m_bufferFactory.Set(name, value);
}

Ptr<VclosPfcSwitchBuffer>
VclosPfcHelper::InstallSwitchBuffer(Ptr<Node> node) const
{
    Ptr<VclosPfcSwitchBuffer> buffer = node->GetObject<VclosPfcSwitchBuffer>();
    if (!buffer)
    {
        buffer = m_bufferFactory.Create<VclosPfcSwitchBuffer>();
        buffer->Validate();
        node->AggregateObject(buffer);
    }
    return buffer;
}

NetDeviceContainer
VclosPfcHelper::Install(Ptr<Node> a, Ptr<Node> b) const
{
    NS_LOG_FUNCTION(this << a << b);
    Ptr<VclosPfcChannel> channel = m_channelFactory.Create<VclosPfcChannel>();
    NetDeviceContainer devices;
    for (Ptr<Node> node : {a, b})
    {
        Ptr<VclosPfcNetDevice> device = m_deviceFactory.Create<VclosPfcNetDevice>();
        device->Validate();
        device->SetAddress(Mac48Address::Allocate());
        node->AddDevice(device);
        device->Attach(channel);
        devices.Add(device);
    }
    for (uint32_t i = 0; i < 2; ++i)
    {
        Ptr<VclosPfcSwitchBuffer> buffer =
            devices.Get(i)->GetNode()->GetObject<VclosPfcSwitchBuffer>();
        if (buffer)
        {
            buffer->AddPort(DynamicCast<VclosPfcNetDevice>(devices.Get(i)));
        }
    }
    return devices;
}

void
VclosPfcHelper::EnablePcapInternal(std::string prefix,
                                   Ptr<NetDevice> nd,
                                   bool promiscuous,
                                   bool explicitFilename)
{
    Ptr<VclosPfcNetDevice> device = DynamicCast<VclosPfcNetDevice>(nd);
    if (!device)
    {
        NS_LOG_INFO("VclosPfcHelper::EnablePcapInternal: not a VclosPfcNetDevice");
        return;
    }
    PcapHelper pcapHelper;
    const std::string filename =
        explicitFilename ? prefix : pcapHelper.GetFilenameFromDevice(prefix, device);
    Ptr<PcapFileWrapper> file =
        pcapHelper.CreateFile(filename, std::ios::out, PcapHelper::DLT_EN10MB);
    pcapHelper.HookDefaultSink<VclosPfcNetDevice>(device,
                                                  promiscuous ? "PromiscSniffer" : "Sniffer",
                                                  file);
}

} // namespace ns3
