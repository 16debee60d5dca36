/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pfc-helper.h"

#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/pfc-channel.h"
#include "ns3/pfc-net-device.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcHelper");

PfcHelper::PfcHelper()
{
    m_deviceFactory.SetTypeId("ns3::PfcNetDevice");
    m_channelFactory.SetTypeId("ns3::PfcChannel");
    m_bufferFactory.SetTypeId("ns3::PfcSwitchBuffer");
}

void
PfcHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
PfcHelper::SetChannelAttribute(const std::string& name, const AttributeValue& value)
{
    m_channelFactory.Set(name, value);
}

void
PfcHelper::SetBufferAttribute(const std::string& name, const AttributeValue& value)
{
    m_bufferFactory.Set(name, value);
}

Ptr<PfcSwitchBuffer>
PfcHelper::InstallSwitchBuffer(Ptr<Node> node) const
{
    Ptr<PfcSwitchBuffer> buffer = node->GetObject<PfcSwitchBuffer>();
    if (!buffer)
    {
        buffer = m_bufferFactory.Create<PfcSwitchBuffer>();
        buffer->Validate();
        node->AggregateObject(buffer);
    }
    return buffer;
}

NetDeviceContainer
PfcHelper::Install(Ptr<Node> a, Ptr<Node> b) const
{
    NS_LOG_FUNCTION(this << a << b);
    Ptr<PfcChannel> channel = m_channelFactory.Create<PfcChannel>();
    NetDeviceContainer devices;
    for (Ptr<Node> node : {a, b})
    {
        Ptr<PfcNetDevice> device = m_deviceFactory.Create<PfcNetDevice>();
        device->Validate();
        device->SetAddress(Mac48Address::Allocate());
        node->AddDevice(device);
        device->Attach(channel);
        devices.Add(device);
    }
    for (uint32_t i = 0; i < 2; ++i)
    {
        Ptr<PfcSwitchBuffer> buffer = devices.Get(i)->GetNode()->GetObject<PfcSwitchBuffer>();
        if (buffer)
        {
            buffer->AddPort(DynamicCast<PfcNetDevice>(devices.Get(i)));
        }
    }
    return devices;
}

void
PfcHelper::EnablePcapInternal(std::string prefix,
                              Ptr<NetDevice> nd,
                              bool promiscuous,
                              bool explicitFilename)
{
    Ptr<PfcNetDevice> device = DynamicCast<PfcNetDevice>(nd);
    if (!device)
    {
        NS_LOG_INFO("PfcHelper::EnablePcapInternal: not a PfcNetDevice");
        return;
    }
    PcapHelper pcapHelper;
    const std::string filename =
        explicitFilename ? prefix : pcapHelper.GetFilenameFromDevice(prefix, device);
    Ptr<PcapFileWrapper> file =
        pcapHelper.CreateFile(filename, std::ios::out, PcapHelper::DLT_EN10MB);
    pcapHelper.HookDefaultSink<PfcNetDevice>(device,
                                             promiscuous ? "PromiscSniffer" : "Sniffer",
                                             file);
}

} // namespace ns3
