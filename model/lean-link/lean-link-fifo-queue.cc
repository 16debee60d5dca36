/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "lean-link-fifo-queue.h"

#include "ns3/log.h"
#include "ns3/queue-item.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LeanLinkFifoQueue");

namespace
{

// Queue<Item> fires its Enqueue and Dequeue trace sources only inside DoEnqueue and DoDequeue,
// which also insert into and erase from its std::list (one allocation per item), and the two
// TracedCallback members are private. A name in an explicit instantiation is not access-checked
// (C++17 [temp.explicit]/14), so an explicit instantiation of MemberOf below can take the
// address of each member and hand it out through a friend function. These are the members that
// the "Enqueue" and "Dequeue" trace sources of Queue<Item>'s TypeId connect sinks to; renaming
// or retyping them in ns-3 fails this file's compilation.

/// The friend Get(Tag) of this class returns Member.
template <typename Tag, typename Tag::Type Member>
struct MemberOf
{
    /// \return the member pointer
    friend typename Tag::Type Get(Tag)
    {
        return Member;
    }
};

/// Queue<Packet>::m_traceEnqueue.
struct PacketEnqueueTrace
{
    using Type = TracedCallback<Ptr<const Packet>> Queue<Packet>::*; //!< member pointer type
    friend Type Get(PacketEnqueueTrace);                             //!< \return the member
};

/// Queue<Packet>::m_traceDequeue.
struct PacketDequeueTrace
{
    using Type = TracedCallback<Ptr<const Packet>> Queue<Packet>::*; //!< member pointer type
    friend Type Get(PacketDequeueTrace);                             //!< \return the member
};

/// Queue<QueueDiscItem>::m_traceEnqueue.
struct ItemEnqueueTrace
{
    /// member pointer type
    using Type = TracedCallback<Ptr<const QueueDiscItem>> Queue<QueueDiscItem>::*;
    friend Type Get(ItemEnqueueTrace); //!< \return the member
};

/// Queue<QueueDiscItem>::m_traceDequeue.
struct ItemDequeueTrace
{
    /// member pointer type
    using Type = TracedCallback<Ptr<const QueueDiscItem>> Queue<QueueDiscItem>::*;
    friend Type Get(ItemDequeueTrace); //!< \return the member
};

template struct MemberOf<PacketEnqueueTrace, &Queue<Packet>::m_traceEnqueue>;
template struct MemberOf<PacketDequeueTrace, &Queue<Packet>::m_traceDequeue>;
template struct MemberOf<ItemEnqueueTrace, &Queue<QueueDiscItem>::m_traceEnqueue>;
template struct MemberOf<ItemDequeueTrace, &Queue<QueueDiscItem>::m_traceDequeue>;

/// The Enqueue and Dequeue trace members of Queue<Item>.
template <typename Item>
struct QueueTraces;

/// Queue<Packet>'s.
template <>
struct QueueTraces<Packet>
{
    static inline const auto enqueue = Get(PacketEnqueueTrace{}); //!< m_traceEnqueue
    static inline const auto dequeue = Get(PacketDequeueTrace{}); //!< m_traceDequeue
};

/// Queue<QueueDiscItem>'s.
template <>
struct QueueTraces<QueueDiscItem>
{
    static inline const auto enqueue = Get(ItemEnqueueTrace{}); //!< m_traceEnqueue
    static inline const auto dequeue = Get(ItemDequeueTrace{}); //!< m_traceDequeue
};

} // namespace

template <typename Item>
TypeId
LeanLinkFifoQueue<Item>::GetTypeId()
{
    static TypeId tid =
        TypeId(GetTemplateClassName<LeanLinkFifoQueue<Item>>())
            .SetParent<Queue<Item>>()
            .SetGroupName("LeanLink")
            .template AddConstructor<LeanLinkFifoQueue<Item>>()
            .AddAttribute("MaxSize",
                          "The largest size the queue may reach (packets or bytes); an item "
                          "that would take it beyond is dropped, as in DropTailQueue.",
                          QueueSizeValue(QueueSize("100p")),
                          MakeQueueSizeAccessor(&QueueBase::SetMaxSize, &QueueBase::GetMaxSize),
                          MakeQueueSizeChecker());
    return tid;
}

template <typename Item>
LeanLinkFifoQueue<Item>::LeanLinkFifoQueue()
    : Queue<Item>(),
      NS_LOG_TEMPLATE_DEFINE("LeanLinkFifoQueue")
{
    NS_LOG_FUNCTION(this);
}

template <typename Item>
LeanLinkFifoQueue<Item>::~LeanLinkFifoQueue()
{
    NS_LOG_FUNCTION(this);
}

template <typename Item>
bool
LeanLinkFifoQueue<Item>::Enqueue(Ptr<Item> item)
{
    NS_LOG_FUNCTION(this << item);
    // Queue::DoEnqueue, with the item appended to the ring instead of the list. Its test,
    // GetCurrentSize() + item > GetMaxSize(), without the QueueSize temporaries: in MaxSize's
    // unit, the packets held plus one, or the bytes held plus the item's, as uint32_t sums.
    const QueueSize& max = this->m_maxSize;
    const bool packets = max.GetUnit() == QueueSizeUnit::PACKETS;
    const uint32_t after =
        packets ? this->m_nPackets.Get() + 1 : this->m_nBytes.Get() + item->GetSize();
    if (after > max.GetValue())
    {
        NS_LOG_LOGIC("Queue full -- dropping pkt");
        DropBeforeEnqueue(item);
        return false;
    }
    if (m_items.full())
    {
        m_items.set_capacity(std::max<std::size_t>(4, 2 * m_items.capacity()));
    }
    m_items.push_back(item);

    uint32_t size = item->GetSize();
    this->m_nBytes += size;
    this->m_nTotalReceivedBytes += size;

    this->m_nPackets++;
    this->m_nTotalReceivedPackets++;

    (this->*QueueTraces<Item>::enqueue)(item);
    return true;
}

template <typename Item>
Ptr<Item>
LeanLinkFifoQueue<Item>::TakeFront()
{
    // Queue::DoDequeue at the front, without the list.
    if (this->m_nPackets.Get() == 0)
    {
        NS_LOG_LOGIC("Queue empty");
        return nullptr;
    }
    Ptr<Item> item = m_items.front();
    if (item)
    {
        m_items.pop_front();
        this->m_nBytes -= item->GetSize();
        this->m_nPackets--;
        (this->*QueueTraces<Item>::dequeue)(item);
    }
    return item;
}

template <typename Item>
Ptr<Item>
LeanLinkFifoQueue<Item>::Dequeue()
{
    NS_LOG_FUNCTION(this);
    Ptr<Item> item = TakeFront();
    NS_LOG_LOGIC("Popped " << item);
    return item;
}

template <typename Item>
Ptr<Item>
LeanLinkFifoQueue<Item>::Remove()
{
    NS_LOG_FUNCTION(this);
    // Queue::DoRemove: dequeued (and traced as such), then dropped.
    Ptr<Item> item = TakeFront();
    if (item)
    {
        DropAfterDequeue(item);
    }
    NS_LOG_LOGIC("Removed " << item);
    return item;
}

template <typename Item>
Ptr<const Item>
LeanLinkFifoQueue<Item>::Peek() const
{
    NS_LOG_FUNCTION(this);
    if (this->m_nPackets.Get() == 0)
    {
        NS_LOG_LOGIC("Queue empty");
        return nullptr;
    }
    return m_items.front();
}

template <typename Item>
std::size_t
LeanLinkFifoQueue<Item>::GetCapacity() const
{
    return m_items.capacity();
}

template <typename Item>
void
LeanLinkFifoQueue<Item>::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_items = boost::circular_buffer<Ptr<Item>>();
    Queue<Item>::DoDispose();
}

NS_OBJECT_TEMPLATE_CLASS_DEFINE(LeanLinkFifoQueue, Packet);
NS_OBJECT_TEMPLATE_CLASS_DEFINE(LeanLinkFifoQueue, QueueDiscItem);

} // namespace ns3
