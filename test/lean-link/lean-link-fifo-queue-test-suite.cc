/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// LeanLinkFifoQueue (a drop-tail FIFO in a ring buffer) against ns-3's DropTailQueue.
//
// Differential: the same random enqueue / dequeue / remove / peek sequence (fixed seed, the
// same item objects) drives a DropTailQueue and a LeanLinkFifoQueue, of Packet and of
// QueueDiscItem, limited in packets and in bytes; every return value (accepted or dropped,
// which item), every trace firing in order (Enqueue, Dequeue, Drop, DropBeforeEnqueue,
// DropAfterDequeue, PacketsInQueue, BytesInQueue, with the item or value) and every counter
// must match. Controls: a DropTailQueue one packet (or 100 bytes) larger, and a LIFO queue, make
// the same comparison fail. By hand: limits of 3 packets and of 1000 bytes, FIFO order, the
// empty queue; the ring grows to the backlog and then stays. As a RED queue disc's internal
// queue, RED's drops, ECN marks and output order are DropTailQueue's. On the fabric: the lean
// device queues and the RED / FIFO queue discs' internal queues are VclosFifoQueues, a queue
// disc set with SetQueueDisc keeps ns-3's own internal queue, and LeanLinkHelper's default
// and SetQueue are unchanged. A TCP permutation over RED (marks and drops) puts the same frames
// on the wire at the same times with VclosFifoQueues (inside RED; and as the lean devices'
// queues) as with ns-3's DropTailQueues (p2p devices, RED set by hand with SetQueueDisc);
// control: that RED one packet larger does not.
// Tests: lean-link-fifo-queue, lean-link-helper

#include "clos/clos-wire-digest.h"

#include "ns3/boolean.h"
#include "ns3/clos-fabric-helper.h"
#include "ns3/clos-fabric.h"
#include "ns3/collective-permutation-helper.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/lean-link-fifo-queue.h"
#include "ns3/lean-link-helper.h"
#include "ns3/lean-link-net-device.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/queue-disc.h"
#include "ns3/queue-size.h"
#include "ns3/red-queue-disc.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"

#include <cstdio>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// A LIFO queue (enqueues at the front): the negative control of the comparison.
template <typename Item>
class LifoQueue : public Queue<Item>
{
  public:
    /// \return the TypeId (not registered: created with CreateObject)
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("VclosFifoQueueTestLifo/" + Queue<Item>::GetTypeId().GetName())
                                .SetParent<Queue<Item>>()
                                .HideFromDocumentation();
        return tid;
    }

    bool Enqueue(Ptr<Item> item) override
    {
        return this->DoEnqueue(this->GetContainer().begin(), item);
    }

    Ptr<Item> Dequeue() override
    {
        return this->DoDequeue(this->GetContainer().begin());
    }

    Ptr<Item> Remove() override
    {
        return this->DoRemove(this->GetContainer().begin());
    }

    Ptr<const Item> Peek() const override
    {
        return this->DoPeek(this->GetContainer().begin());
    }
};

/// Everything a queue's trace sources say, in order, as text.
template <typename Item>
class TraceLog
{
  public:
    /// \param queue connect to all of its trace sources, by name
    explicit TraceLog(Ptr<Queue<Item>> queue)
    {
        for (const char* name :
             {"Enqueue", "Dequeue", "Drop", "DropBeforeEnqueue", "DropAfterDequeue"})
        {
            std::string n = name;
            queue->TraceConnectWithoutContext(
                n,
                Callback<void, Ptr<const Item>>(
                    [this, n](Ptr<const Item> item) { m_lines.push_back(n + " " + Id(item)); }));
        }
        for (const char* name : {"PacketsInQueue", "BytesInQueue"})
        {
            std::string n = name;
            queue->TraceConnectWithoutContext(
                n,
                Callback<void, uint32_t, uint32_t>([this, n](uint32_t from, uint32_t to) {
                    m_lines.push_back(n + " " + std::to_string(from) + "->" + std::to_string(to));
                }));
        }
    }

    /// \return the lines so far
    const std::vector<std::string>& Lines() const
    {
        return m_lines;
    }

    /// \param item an item or null \return its identity (the address of the object)
    static std::string Id(Ptr<const Item> item)
    {
        std::ostringstream os;
        os << PeekPointer(item);
        return os.str();
    }

  private:
    std::vector<std::string> m_lines; //!< the trace firings
};

/// \return a packet of \p bytes
Ptr<Packet>
MakeItem(Packet*, uint32_t bytes)
{
    return Create<Packet>(bytes);
}

/// \return an IPv4 queue disc item holding a packet of \p bytes (plus a 20-byte header)
Ptr<QueueDiscItem>
MakeItem(QueueDiscItem*, uint32_t bytes)
{
    Ipv4Header header;
    header.SetPayloadSize(bytes);
    return Create<Ipv4QueueDiscItem>(Create<Packet>(bytes),
                                     Mac48Address::GetBroadcast(),
                                     0x0800,
                                     header);
}

/// The counters QueueBase keeps, as text.
std::string
Counters(Ptr<QueueBase> q)
{
    std::ostringstream os;
    os << q->GetNPackets() << " " << q->GetNBytes() << " " << q->GetTotalReceivedPackets() << " "
       << q->GetTotalReceivedBytes() << " " << q->GetTotalDroppedPackets() << " "
       << q->GetTotalDroppedBytes() << " " << q->GetTotalDroppedPacketsBeforeEnqueue() << " "
       << q->GetTotalDroppedBytesBeforeEnqueue() << " " << q->GetTotalDroppedPacketsAfterDequeue()
       << " " << q->GetTotalDroppedBytesAfterDequeue() << " " << q->GetCurrentSize();
    return os.str();
}

/// What a random sequence did to the reference queue (so a run is known to reach the limits).
struct SequenceStats
{
    uint32_t drops = 0;      //!< enqueues refused
    uint32_t removes = 0;    //!< items removed (dropped after dequeue)
    uint32_t emptyTakes = 0; //!< dequeues and removes of an empty queue
    uint32_t maxBacklog = 0; //!< largest number of items held
};

/**
 * \brief Drive \p ref and \p test with the same \p steps random operations (seed \p seed) and
 *        the same item objects.
 * \return "" when every return value, trace firing and counter matched, else the first
 *         difference
 */
template <typename Item>
std::string
Compare(Ptr<Queue<Item>> ref,
        Ptr<Queue<Item>> test,
        uint32_t seed,
        uint32_t steps,
        SequenceStats* stats = nullptr)
{
    TraceLog<Item> refLog(ref);
    TraceLog<Item> testLog(test);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<uint32_t> op(0, 99);
    std::uniform_int_distribution<uint32_t> bytes(40, 1500);
    for (uint32_t step = 0; step < steps; ++step)
    {
        const uint32_t o = op(rng);
        std::string a;
        std::string b;
        if (o < 55) // enqueue
        {
            Ptr<Item> item = MakeItem(static_cast<Item*>(nullptr), bytes(rng));
            const bool ra = ref->Enqueue(item);
            const bool rb = test->Enqueue(item);
            a = "enqueue " + std::to_string(ra);
            b = "enqueue " + std::to_string(rb);
            if (stats && !ra)
            {
                ++stats->drops;
            }
        }
        else if (o < 85) // dequeue
        {
            Ptr<Item> ia = ref->Dequeue();
            a = "dequeue " + TraceLog<Item>::Id(ia);
            b = "dequeue " + TraceLog<Item>::Id(test->Dequeue());
            if (stats && !ia)
            {
                ++stats->emptyTakes;
            }
        }
        else if (o < 93) // remove
        {
            Ptr<Item> ia = ref->Remove();
            a = "remove " + TraceLog<Item>::Id(ia);
            b = "remove " + TraceLog<Item>::Id(test->Remove());
            if (stats)
            {
                ++(ia ? stats->removes : stats->emptyTakes);
            }
        }
        else // peek
        {
            a = "peek " + TraceLog<Item>::Id(ref->Peek());
            b = "peek " + TraceLog<Item>::Id(test->Peek());
        }
        if (stats)
        {
            stats->maxBacklog = std::max(stats->maxBacklog, ref->GetNPackets());
        }
        const std::string ca = Counters(ref);
        const std::string cb = Counters(test);
        if (a != b || ca != cb || refLog.Lines() != testLog.Lines())
        {
            return "step " + std::to_string(step) + ": " + a + " / " + b + "; counters " + ca +
                   " / " + cb + "; trace lines " + std::to_string(refLog.Lines().size()) + " / " +
                   std::to_string(testLog.Lines().size());
        }
    }
    // Flush removes what is left, through Remove.
    ref->Flush();
    test->Flush();
    if (Counters(ref) != Counters(test) || refLog.Lines() != testLog.Lines())
    {
        return "after Flush: " + Counters(ref) + " / " + Counters(test);
    }
    return "";
}

/// \return a queue of type \p type (TypeId name) limited to \p size
template <typename Item>
Ptr<Queue<Item>>
MakeQueue(const std::string& type, const std::string& size)
{
    ObjectFactory factory(type);
    factory.Set("MaxSize", QueueSizeValue(QueueSize(size)));
    return factory.Create<Queue<Item>>();
}

/// The random sequence against DropTailQueue, with its controls.
template <typename Item>
class LeanLinkFifoQueueDifferentialTestCase : public TestCase
{
  public:
    /// \param itemName "Packet" or "QueueDiscItem"
    explicit LeanLinkFifoQueueDifferentialTestCase(const std::string& itemName)
        : TestCase("LeanLinkFifoQueue<" + itemName +
                   "> against DropTailQueue: random enqueue, dequeue, remove, peek, packet and "
                   "byte limits; controls: a larger limit, LIFO order"),
          m_item(itemName)
    {
    }

  private:
    void DoRun() override
    {
        const std::string drop = "ns3::DropTailQueue<" + m_item + ">";
        const std::string fifo = "ns3::LeanLinkFifoQueue<" + m_item + ">";
        // size limit, a larger one (control: one packet more, or 100 bytes; the 1-byte boundary
        // is checked by hand below)
        const std::vector<std::pair<std::string, std::string>> limits = {{"5p", "6p"},
                                                                         {"2p", "3p"},
                                                                         {"6000B", "6100B"}};
        for (const auto& [limit, larger] : limits)
        {
            for (uint32_t seed : {1U, 2U, 3U})
            {
                SequenceStats stats;
                const std::string diff = Compare<Item>(MakeQueue<Item>(drop, limit),
                                                       MakeQueue<Item>(fifo, limit),
                                                       seed,
                                                       4000,
                                                       &stats);
                NS_TEST_ASSERT_MSG_EQ(diff, "", limit << " seed " << seed);
                // The sequence reached the limit, emptied the queue, and removed items.
                NS_TEST_ASSERT_MSG_GT(stats.drops, 100, limit << ": drops at the limit");
                NS_TEST_ASSERT_MSG_GT(stats.removes, 100, limit << ": removes");
                NS_TEST_ASSERT_MSG_GT(stats.emptyTakes, 10, limit << ": takes from empty");
                NS_TEST_ASSERT_MSG_GT(stats.maxBacklog, 1, limit << ": backlog");

                // Controls: the same check fails for a limit one unit larger, and for LIFO.
                const std::string larger1 = Compare<Item>(MakeQueue<Item>(drop, limit),
                                                          MakeQueue<Item>(drop, larger),
                                                          seed,
                                                          4000);
                NS_TEST_ASSERT_MSG_NE(larger1, "", "control: " << larger << " vs " << limit);
                Ptr<Queue<Item>> lifo = CreateObject<LifoQueue<Item>>();
                lifo->SetMaxSize(QueueSize(limit));
                const std::string lifo1 =
                    Compare<Item>(MakeQueue<Item>(drop, limit), lifo, seed, 4000);
                NS_TEST_ASSERT_MSG_NE(lifo1, "", "control: LIFO, " << limit);
            }
        }
    }

    std::string m_item; //!< "Packet" or "QueueDiscItem"
};

/// Limits, order and growth by hand.
class LeanLinkFifoQueueByHandTestCase : public TestCase
{
  public:
    LeanLinkFifoQueueByHandTestCase()
        : TestCase("LeanLinkFifoQueue by hand: 3-packet and 1000-byte limits, FIFO order, empty "
                   "queue, registration, the ring grows to the backlog and then stays")
    {
    }

  private:
    void DoRun() override
    {
        // Packets: three fit, the fourth is dropped; they come out 1, 2, 3.
        Ptr<LeanLinkFifoQueue<Packet>> q = CreateObject<LeanLinkFifoQueue<Packet>>();
        NS_TEST_ASSERT_MSG_EQ(q->GetMaxSize(), QueueSize("100p"), "default as DropTailQueue's");
        q->SetMaxSize(QueueSize("3p"));
        NS_TEST_ASSERT_MSG_EQ(q->Peek(), nullptr, "empty: nothing to peek");
        NS_TEST_ASSERT_MSG_EQ(q->Dequeue(), nullptr, "empty: nothing to dequeue");
        NS_TEST_ASSERT_MSG_EQ(q->Remove(), nullptr, "empty: nothing to remove");
        Ptr<Packet> p[4] = {Create<Packet>(100),
                            Create<Packet>(200),
                            Create<Packet>(300),
                            Create<Packet>(400)};
        NS_TEST_ASSERT_MSG_EQ(q->Enqueue(p[0]), true, "1st of 3");
        NS_TEST_ASSERT_MSG_EQ(q->Enqueue(p[1]), true, "2nd of 3");
        NS_TEST_ASSERT_MSG_EQ(q->Enqueue(p[2]), true, "3rd of 3");
        NS_TEST_ASSERT_MSG_EQ(q->Enqueue(p[3]), false, "4th: over 3 packets");
        NS_TEST_ASSERT_MSG_EQ(q->GetNPackets(), 3, "packets held");
        NS_TEST_ASSERT_MSG_EQ(q->GetNBytes(), 600, "bytes held");
        NS_TEST_ASSERT_MSG_EQ(q->GetTotalDroppedPacketsBeforeEnqueue(), 1, "one dropped");
        NS_TEST_ASSERT_MSG_EQ(q->GetTotalDroppedBytesBeforeEnqueue(), 400, "its bytes");
        NS_TEST_ASSERT_MSG_EQ(q->Peek(), p[0], "front");
        NS_TEST_ASSERT_MSG_EQ(q->Dequeue(), p[0], "first in, first out");
        NS_TEST_ASSERT_MSG_EQ(q->Remove(), p[1], "then the second");
        NS_TEST_ASSERT_MSG_EQ(q->GetTotalDroppedPacketsAfterDequeue(), 1, "removed = dropped");
        NS_TEST_ASSERT_MSG_EQ(q->GetTotalDroppedBytesAfterDequeue(), 200, "its bytes");
        NS_TEST_ASSERT_MSG_EQ(q->Dequeue(), p[2], "then the third");
        NS_TEST_ASSERT_MSG_EQ(q->Dequeue(), nullptr, "then none");
        NS_TEST_ASSERT_MSG_EQ(q->GetNBytes(), 0, "no bytes left");

        // Bytes: 400 + 400 fit in 1000; 300 more would not; 200 more fits exactly; 1 more not.
        Ptr<LeanLinkFifoQueue<Packet>> b = CreateObject<LeanLinkFifoQueue<Packet>>();
        b->SetMaxSize(QueueSize("1000B"));
        NS_TEST_ASSERT_MSG_EQ(b->Enqueue(Create<Packet>(400)), true, "400 of 1000");
        NS_TEST_ASSERT_MSG_EQ(b->Enqueue(Create<Packet>(400)), true, "800 of 1000");
        NS_TEST_ASSERT_MSG_EQ(b->Enqueue(Create<Packet>(300)), false, "1100 > 1000");
        NS_TEST_ASSERT_MSG_EQ(b->Enqueue(Create<Packet>(200)), true, "1000 of 1000");
        NS_TEST_ASSERT_MSG_EQ(b->Enqueue(Create<Packet>(1)), false, "1001 > 1000");
        NS_TEST_ASSERT_MSG_EQ(b->GetNBytes(), 1000, "bytes held");
        NS_TEST_ASSERT_MSG_EQ(b->GetNPackets(), 3, "packets held");

        // The ring grows to the largest backlog (doubling from 4) and stays there.
        Ptr<LeanLinkFifoQueue<Packet>> g = CreateObject<LeanLinkFifoQueue<Packet>>();
        g->SetMaxSize(QueueSize("1000p"));
        NS_TEST_ASSERT_MSG_EQ(g->GetCapacity(), 0, "nothing before the first item");
        for (uint32_t i = 0; i < 9; ++i)
        {
            g->Enqueue(Create<Packet>(10));
        }
        NS_TEST_ASSERT_MSG_EQ(g->GetCapacity(), 16, "9 items: 4, 8, 16");
        for (uint32_t round = 0; round < 1000; ++round)
        {
            g->Enqueue(Create<Packet>(10));
            g->Dequeue();
        }
        NS_TEST_ASSERT_MSG_EQ(g->GetCapacity(), 16, "steady backlog of 9: no growth");
        NS_TEST_ASSERT_MSG_EQ(g->GetNPackets(), 9, "backlog");

        // Registered for both item types, as Queue subclasses with DropTailQueue's attribute.
        for (const std::string item : {"Packet", "QueueDiscItem"})
        {
            TypeId tid;
            NS_TEST_ASSERT_MSG_EQ(
                TypeId::LookupByNameFailSafe("ns3::LeanLinkFifoQueue<" + item + ">", &tid),
                true,
                item);
            NS_TEST_ASSERT_MSG_EQ(tid.GetParent().GetName(), "ns3::Queue<" + item + ">", item);
            TypeId::AttributeInformation info;
            NS_TEST_ASSERT_MSG_EQ(tid.LookupAttributeByName("MaxSize", &info), true, item);
        }
    }
};

/// RED with a LeanLinkFifoQueue inside against RED with its own DropTailQueue.
class LeanLinkFifoQueueRedTestCase : public TestCase
{
  public:
    LeanLinkFifoQueueRedTestCase()
        : TestCase("LeanLinkFifoQueue in RED: same drops, ECN marks and output order as RED's own "
                   "DropTailQueue; control: a DropTailQueue one packet larger differs")
    {
    }

  private:
    /// \return RED as the fabric sets it (DCTCP-style, K = 4, 8 packets), with \p internal
    ///         as its internal queue (empty: RED's own), ready
    Ptr<RedQueueDisc> MakeRed(const std::string& internal, const std::string& internalSize)
    {
        Ptr<RedQueueDisc> red = CreateObject<RedQueueDisc>();
        red->SetAttribute("MaxSize", QueueSizeValue(QueueSize("8p")));
        red->SetAttribute("MinTh", DoubleValue(4));
        red->SetAttribute("MaxTh", DoubleValue(5));
        red->SetAttribute("QW", DoubleValue(1.0));
        red->SetAttribute("UseEcn", BooleanValue(true));
        red->SetAttribute("UseHardDrop", BooleanValue(false));
        red->SetAttribute("LinkBandwidth", DataRateValue(DataRate("100Gbps")));
        if (!internal.empty())
        {
            red->AddInternalQueue(MakeQueue<QueueDiscItem>(internal, internalSize));
        }
        red->AssignStreams(5);
        red->Initialize();
        return red;
    }

    /// \return what RED did with a random sequence (seed \p seed): outputs, stats, traces
    std::string Run(Ptr<RedQueueDisc> red, uint32_t seed)
    {
        std::ostringstream out;
        red->TraceConnectWithoutContext(
            "Drop",
            Callback<void, Ptr<const QueueDiscItem>>([&out](Ptr<const QueueDiscItem> item) {
                out << "drop " << item->GetPacket()->GetUid() << "\n";
            }));
        red->TraceConnectWithoutContext("Mark",
                                        Callback<void, Ptr<const QueueDiscItem>, const char*>(
                                            [&out](Ptr<const QueueDiscItem> item, const char* why) {
                                                out << "mark " << item->GetPacket()->GetUid() << " "
                                                    << why << "\n";
                                            }));
        std::mt19937 rng(seed);
        std::uniform_int_distribution<uint32_t> op(0, 99);
        for (uint32_t step = 0; step < 3000; ++step)
        {
            if (op(rng) < 60)
            {
                Ipv4Header header;
                header.SetEcn(Ipv4Header::ECN_ECT0);
                header.SetPayloadSize(1000);
                red->Enqueue(Create<Ipv4QueueDiscItem>(Create<Packet>(1000),
                                                       Mac48Address::GetBroadcast(),
                                                       0x0800,
                                                       header));
            }
            else
            {
                Ptr<QueueDiscItem> item = red->Dequeue();
                out << "out " << (item ? item->GetPacket()->GetUid() : 0) << "\n";
            }
        }
        out << red->GetStats();
        return out.str();
    }

    void DoRun() override
    {
        // The packet uids differ between runs; start each run from the same uid.
        const std::string own = Run(MakeRed("", ""), 11);
        NS_TEST_ASSERT_MSG_NE(own.find("mark "), std::string::npos, "RED marked");
        NS_TEST_ASSERT_MSG_NE(own.find("drop "), std::string::npos, "RED dropped");
        std::string ownRelative = Relative(own);
        const std::string fifo =
            Relative(Run(MakeRed("ns3::LeanLinkFifoQueue<QueueDiscItem>", "8p"), 11));
        NS_TEST_ASSERT_MSG_EQ(fifo, ownRelative, "LeanLinkFifoQueue inside RED");
        const std::string larger =
            Relative(Run(MakeRed("ns3::DropTailQueue<QueueDiscItem>", "9p"), 11));
        NS_TEST_ASSERT_MSG_NE(larger, ownRelative, "control: DropTailQueue of 9 packets");
        Simulator::Destroy();
    }

    /// \return \p text with every packet uid made relative to the first one in it
    static std::string Relative(const std::string& text)
    {
        std::istringstream in(text);
        std::ostringstream out;
        std::string line;
        uint64_t base = 0;
        while (std::getline(in, line))
        {
            std::istringstream words(line);
            std::string kind;
            uint64_t uid = 0;
            if ((words >> kind) && (kind == "out" || kind == "drop" || kind == "mark") &&
                (words >> uid))
            {
                if (base == 0 && uid != 0)
                {
                    base = uid;
                }
                std::string rest;
                std::getline(words, rest);
                out << kind << " " << (uid ? uid - base + 1 : 0) << rest << "\n";
            }
            else
            {
                out << line << "\n";
            }
        }
        return out.str();
    }
};

/// Where the fabric and the link helper use LeanLinkFifoQueue, and where they do not.
class LeanLinkFifoQueueFabricTestCase : public TestCase
{
  public:
    LeanLinkFifoQueueFabricTestCase()
        : TestCase("LeanLinkFifoQueue on the fabric: lean device queues and RED and FIFO internal "
                   "queues; SetQueueDisc and LeanLinkHelper::SetQueue keep the user's queues")
    {
    }

  private:
    /// What a fabric's switch ports hold.
    struct Ports
    {
        uint32_t ports = 0;        //!< switch ports with a queue disc
        uint32_t fifoInternal = 0; //!< of them, with a LeanLinkFifoQueue internal queue
        uint32_t dropTail = 0;     //!< of them, with a DropTailQueue internal queue
        uint32_t leanFifo = 0;     //!< lean devices with a LeanLinkFifoQueue device queue
        uint32_t lean = 0;         //!< lean devices
        bool sizes = true;         //!< every internal queue has the QueueSize limit
    };

    /// \return the ports of a 2x2x1 fabric with \p ecn (EcnThreshold) and \p custom queue disc
    Ports Count(const std::string& ecn, bool custom)
    {
        Ptr<ClosFabricHelper> helper = CreateObject<ClosFabricHelper>();
        helper->SetAttribute("Leaves", UintegerValue(2));
        helper->SetAttribute("ServersPerLeaf", UintegerValue(2));
        helper->SetAttribute("GpusPerServer", UintegerValue(1));
        helper->SetAttribute("LinkLayer", StringValue("p2p"));
        helper->SetAttribute("LeanLinks", BooleanValue(true));
        helper->SetAttribute("QueueSize", QueueSizeValue(QueueSize("300KB")));
        helper->SetAttribute("EcnThreshold", QueueSizeValue(QueueSize(ecn)));
        if (custom)
        {
            helper->SetQueueDisc("ns3::FifoQueueDisc", "MaxSize", QueueSizeValue(QueueSize("7p")));
        }
        Ptr<ClosFabric> fabric = helper->Install();
        Ports ports;
        Simulator::Schedule(NanoSeconds(1), [&]() {
            for (const auto& link : fabric->GetLinks())
            {
                if (Ptr<LeanLinkNetDevice> lean = DynamicCast<LeanLinkNetDevice>(link.device))
                {
                    ++ports.lean;
                    ports.leanFifo +=
                        bool(DynamicCast<LeanLinkFifoQueue<Packet>>(lean->GetQueue()));
                }
                Ptr<TrafficControlLayer> tc =
                    link.device->GetNode()->GetObject<TrafficControlLayer>();
                Ptr<QueueDisc> qd = tc->GetRootQueueDiscOnDevice(link.device);
                if (!qd)
                {
                    continue;
                }
                ++ports.ports;
                Ptr<QueueDisc::InternalQueue> q = qd->GetInternalQueue(0);
                ports.fifoInternal += bool(DynamicCast<LeanLinkFifoQueue<QueueDiscItem>>(q));
                ports.dropTail += bool(DynamicCast<DropTailQueue<QueueDiscItem>>(q));
                ports.sizes &= q->GetMaxSize() == (custom ? QueueSize("7p") : QueueSize("300KB"));
            }
        });
        Simulator::Stop(NanoSeconds(2));
        Simulator::Run();
        Simulator::Destroy();
        return ports;
    }

    void DoRun() override
    {
        const Ports red = Count("100KB", false);
        NS_TEST_ASSERT_MSG_GT(red.ports, 0, "ports with queue discs");
        NS_TEST_ASSERT_MSG_EQ(red.fifoInternal, red.ports, "RED: LeanLinkFifoQueue inside");
        NS_TEST_ASSERT_MSG_EQ(red.sizes, true, "RED: internal limit = QueueSize");
        NS_TEST_ASSERT_MSG_GT(red.lean, 0, "lean devices");
        NS_TEST_ASSERT_MSG_EQ(red.leanFifo, red.lean, "lean device queues");
        const Ports fifo = Count("0B", false);
        NS_TEST_ASSERT_MSG_EQ(fifo.fifoInternal, fifo.ports, "FIFO: LeanLinkFifoQueue inside");
        NS_TEST_ASSERT_MSG_EQ(fifo.sizes, true, "FIFO: internal limit = QueueSize");
        const Ports custom = Count("100KB", true);
        NS_TEST_ASSERT_MSG_EQ(custom.fifoInternal, 0, "SetQueueDisc: ns-3's own");
        NS_TEST_ASSERT_MSG_EQ(custom.dropTail, custom.ports, "SetQueueDisc: DropTailQueue");
        NS_TEST_ASSERT_MSG_EQ(custom.sizes, true, "SetQueueDisc: its own limit");

        // LeanLinkHelper alone: DropTailQueue by default, the user's queue with SetQueue.
        for (bool set : {false, true})
        {
            LeanLinkHelper link;
            if (set)
            {
                link.SetQueue("ns3::LeanLinkFifoQueue", "MaxSize", QueueSizeValue(QueueSize("5p")));
            }
            NetDeviceContainer devices = link.Install(CreateObject<Node>(), CreateObject<Node>());
            Ptr<Queue<Packet>> q = DynamicCast<LeanLinkNetDevice>(devices.Get(0))->GetQueue();
            NS_TEST_ASSERT_MSG_EQ(bool(DynamicCast<LeanLinkFifoQueue<Packet>>(q)),
                                  set,
                                  "link helper");
            NS_TEST_ASSERT_MSG_EQ(bool(DynamicCast<DropTailQueue<Packet>>(q)), !set, "link helper");
        }
        Simulator::Destroy();
    }
};

/// What a TCP run over RED put on the wire, and what RED did.
struct FabricRun
{
    ClosWireDigest wire;     //!< every frame started on every link, with its time
    uint64_t marks = 0;      //!< ECN marks of the root queue discs
    uint64_t drops = 0;      //!< drops of the root queue discs
    uint64_t limitDrops = 0; //!< of them, by the internal queue (at its limit)
    uint64_t delivered = 0;  //!< bytes the applications received
    uint32_t fifoQueues = 0; //!< VclosFifoQueues found (device and internal queues)
};

/// A TCP permutation over two spines, RED everywhere, with the fabric's queues or ns-3's.
class LeanLinkFifoQueueFabricRunTestCase : public TestCase
{
  public:
    LeanLinkFifoQueueFabricRunTestCase()
        : TestCase("LeanLinkFifoQueue on the fabric, TCP over RED with marks and drops: the same "
                   "frames at the same times as with ns-3's DropTailQueues, p2p and lean "
                   "links; control: RED one packet larger")
    {
    }

  private:
    /**
     * \param lean LeanLinks (LeanLinkNetDevice) or p2p (PointToPointNetDevice, whose queues
     *        are DropTailQueues)
     * \param ns3Queues ns-3's queues: RED through SetQueueDisc with the fabric's parameters
     *        (RED adds its own DropTailQueue), and on lean links DropTailQueue device queues
     *        put in before the run (connected to flow control as LeanLinkHelper does);
     *        otherwise the fabric's defaults (VclosFifoQueues)
     * \param extraBytes added to RED's MaxSize with ns3Queues (the control)
     * \return the run
     */
    FabricRun Run(bool lean, bool ns3Queues, uint32_t extraBytes)
    {
        const uint32_t queueBytes = 40000; // 9000-byte MTU: four packets
        const uint32_t k = 20000;
        Ptr<ClosFabricHelper> helper = CreateObject<ClosFabricHelper>();
        helper->SetAttribute("LinkLayer", StringValue("p2p"));
        helper->SetAttribute("LeanLinks", BooleanValue(lean));
        helper->SetAttribute("Leaves", UintegerValue(2));
        helper->SetAttribute("ServersPerLeaf", UintegerValue(4));
        helper->SetAttribute("GpusPerServer", UintegerValue(1));
        helper->SetAttribute("Spines", UintegerValue(2)); // 4 flows per leaf over 2 uplinks
        helper->SetAttribute("QueueSize",
                             QueueSizeValue(QueueSize(QueueSizeUnit::BYTES, queueBytes)));
        helper->SetAttribute("EcnThreshold", QueueSizeValue(QueueSize(QueueSizeUnit::BYTES, k)));
        if (ns3Queues)
        {
            // ClosFabricHelper's RED (GetQueueDiscHelper), by hand.
            UintegerValue mtu;
            helper->GetAttribute("Mtu", mtu);
            DataRateValue rate;
            helper->GetAttribute("FabricDataRate", rate);
            helper->SetQueueDisc(
                "ns3::RedQueueDisc",
                "MaxSize",
                QueueSizeValue(QueueSize(QueueSizeUnit::BYTES, queueBytes + extraBytes)),
                "MinTh",
                DoubleValue(k),
                "MaxTh",
                DoubleValue(k + mtu.Get()),
                "QW",
                DoubleValue(1.0),
                "UseEcn",
                BooleanValue(true),
                "UseHardDrop",
                BooleanValue(false),
                "MeanPktSize",
                UintegerValue(mtu.Get()),
                "LinkBandwidth",
                rate);
        }
        Ptr<ClosFabric> fabric = helper->Install();
        helper->AssignStreams(fabric, 3);
        FabricRun run;
        const auto& links = fabric->GetLinks();
        for (uint32_t id = 0; id < links.size(); ++id)
        {
            Ptr<LeanLinkNetDevice> d = DynamicCast<LeanLinkNetDevice>(links[id].device);
            if (d && ns3Queues)
            {
                Ptr<Queue<Packet>> q = CreateObjectWithAttributes<DropTailQueue<Packet>>(
                    "MaxSize",
                    QueueSizeValue(d->GetQueue()->GetMaxSize()));
                d->SetQueue(q);
                d->GetObject<NetDeviceQueueInterface>()->GetTxQueue(0)->ConnectQueueTraces(q);
            }
            links[id].device->TraceConnectWithoutContext(
                "PhyTxBegin",
                Callback<void, Ptr<const Packet>>(
                    [&run, id](Ptr<const Packet> frame) { run.wire.Record(id, frame); }));
        }
        Ptr<CollectivePermutationHelper> traffic = CreateObject<CollectivePermutationHelper>();
        traffic->SetAttribute("FlowBytes", UintegerValue(400000));
        traffic->Install(fabric, CollectivePermutationHelper::LeafShift(fabric, 1));
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        for (const auto& r : traffic->GetResults())
        {
            run.delivered += r.bytes;
        }
        for (const ClusterLink& l : links)
        {
            if (Ptr<LeanLinkNetDevice> d = DynamicCast<LeanLinkNetDevice>(l.device))
            {
                run.fifoQueues += bool(DynamicCast<LeanLinkFifoQueue<Packet>>(d->GetQueue()));
            }
            Ptr<TrafficControlLayer> tc = l.device->GetNode()->GetObject<TrafficControlLayer>();
            Ptr<QueueDisc> qd = tc->GetRootQueueDiscOnDevice(l.device);
            const QueueDisc::Stats& stats = qd->GetStats();
            run.marks += stats.nTotalMarkedPackets;
            run.drops += stats.nTotalDroppedPackets;
            run.limitDrops += stats.GetNDroppedPackets(QueueDisc::INTERNAL_QUEUE_DROP);
            run.fifoQueues +=
                bool(DynamicCast<LeanLinkFifoQueue<QueueDiscItem>>(qd->GetInternalQueue(0)));
        }
        Simulator::Destroy();
        std::ostringstream os;
        os << "lean=" << lean << " ns3Queues=" << ns3Queues << " extra=" << extraBytes << ": "
           << run.wire.frames << " frames, digest " << std::hex << run.wire.digest << std::dec
           << ", " << run.marks << " marks, " << run.drops << " drops (" << run.limitDrops
           << " at the limit), " << run.delivered << " B, " << run.fifoQueues << " VclosFifoQueues";
        std::printf("%s\n", os.str().c_str());
        return run;
    }

    /// Checks \p run against \p ns3 (ns-3's queues on the same links).
    void Same(const FabricRun& run, const FabricRun& ns3, const std::string& what)
    {
        NS_TEST_ASSERT_MSG_EQ(run.wire.frames, ns3.wire.frames, what << ": frames");
        NS_TEST_ASSERT_MSG_EQ(run.wire.digest, ns3.wire.digest, what << ": frames, times, links");
        NS_TEST_ASSERT_MSG_EQ(run.marks, ns3.marks, what << ": marks");
        NS_TEST_ASSERT_MSG_EQ(run.drops, ns3.drops, what << ": drops");
        NS_TEST_ASSERT_MSG_EQ(run.limitDrops, ns3.limitDrops, what << ": drops at the limit");
        NS_TEST_ASSERT_MSG_EQ(run.delivered, ns3.delivered, what << ": delivered");
    }

    void DoRun() override
    {
        for (bool lean : {false, true})
        {
            const std::string what = lean ? "lean links" : "p2p links";
            const FabricRun ns3 = Run(lean, true, 0);
            NS_TEST_ASSERT_MSG_EQ(ns3.fifoQueues, 0, what << ": ns-3's queues only");
            NS_TEST_ASSERT_MSG_GT(ns3.marks, 0, what << ": RED marked");
            NS_TEST_ASSERT_MSG_GT(ns3.limitDrops, 0, what << ": drops at the limit");
            NS_TEST_ASSERT_MSG_GT(ns3.delivered, 0, what << ": delivered");
            const FabricRun fifo = Run(lean, false, 0);
            // RED's internal queue on every port; on lean links every device queue too.
            NS_TEST_ASSERT_MSG_EQ(fifo.fifoQueues,
                                  (lean ? 2 : 1) * fabricLinks,
                                  what << ": VclosFifoQueues");
            Same(fifo, ns3, what);
        }
        // Control: RED (and so its DropTailQueue) one 9000-byte packet larger.
        const FabricRun ns3 = Run(false, true, 0);
        const FabricRun larger = Run(false, true, 9000);
        NS_TEST_ASSERT_MSG_NE(larger.wire.digest, ns3.wire.digest, "control: larger RED");
    }

    static constexpr uint32_t fabricLinks = 24; //!< directed links of the 2x4x1, 2-spine fabric
};

/// The suite.
class LeanLinkFifoQueueTestSuite : public TestSuite
{
  public:
    LeanLinkFifoQueueTestSuite()
        : TestSuite("lean-link-fifo-queue", UNIT)
    {
        AddTestCase(new LeanLinkFifoQueueDifferentialTestCase<Packet>("Packet"), TestCase::QUICK);
        AddTestCase(new LeanLinkFifoQueueDifferentialTestCase<QueueDiscItem>("QueueDiscItem"),
                    TestCase::QUICK);
        AddTestCase(new LeanLinkFifoQueueByHandTestCase(), TestCase::QUICK);
        AddTestCase(new LeanLinkFifoQueueRedTestCase(), TestCase::QUICK);
        AddTestCase(new LeanLinkFifoQueueFabricTestCase(), TestCase::QUICK);
        AddTestCase(new LeanLinkFifoQueueFabricRunTestCase(), TestCase::QUICK);
    }
};

/// The suite's instance.
static LeanLinkFifoQueueTestSuite g_vclosFifoQueueTestSuite;

} // namespace
