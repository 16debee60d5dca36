/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LEAN_LINK_FIFO_QUEUE_H
#define LEAN_LINK_FIFO_QUEUE_H

#include "ns3/queue.h"

#include <boost/circular_buffer.hpp>

namespace ns3
{

/**
 * \ingroup lean-link
 * \brief A drop-tail FIFO queue that does what DropTailQueue does without allocating per item.
 *
 * ns-3's DropTailQueue<Item> keeps its items in Queue<Item>'s std::list, so every enqueue
 * allocates a list node and every dequeue frees it. This queue keeps them in a
 * boost::circular_buffer that doubles when it is full and never shrinks (until DoDispose), so
 * once it has held its largest backlog it allocates nothing. It is a Queue<Item>, so it goes
 * wherever a DropTailQueue<Item> goes: a device's queue (Ptr<Queue<Packet>>) or a queue disc's
 * internal queue (QueueDisc::InternalQueue).
 *
 * It does what DropTailQueue<Item> (ns-3.37) does, in the same order: an item that would take
 * the queue over MaxSize is refused (counted, then the Drop and DropBeforeEnqueue traces, by
 * Queue's DropBeforeEnqueue); otherwise it is appended, BytesInQueue, the received bytes,
 * PacketsInQueue and the received packets are counted, then the Enqueue trace fires. Dequeue
 * takes the front item, counts it out (BytesInQueue, PacketsInQueue) and fires Dequeue; Remove
 * does the same, then Queue's DropAfterDequeue (Drop, DropAfterDequeue). The trace sources,
 * counters and MaxSize are Queue's and QueueBase's own, so sinks connected by name ("Enqueue",
 * "Dequeue", ...) and the statistics getters see what they see with DropTailQueue.
 *
 * What it does not keep: Queue<Item>::GetContainer() returns an empty list (the items are not
 * in it; only a subclass can call it), and Queue's and DropTailQueue's NS_LOG lines for an
 * enqueue or dequeue are not printed (this class logs under "LeanLinkFifoQueue").
 *
 * Registered as ns3::LeanLinkFifoQueue<Packet> and ns3::LeanLinkFifoQueue<QueueDiscItem>.
 */
template <typename Item>
class LeanLinkFifoQueue : public Queue<Item>
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// Creates a queue of 100 packets at most, like DropTailQueue.
    LeanLinkFifoQueue();
    ~LeanLinkFifoQueue() override;

    bool Enqueue(Ptr<Item> item) override;
    Ptr<Item> Dequeue() override;
    Ptr<Item> Remove() override;
    Ptr<const Item> Peek() const override;

    /**
     * \return how many items the buffer holds without growing (for tests: it only grows)
     */
    std::size_t GetCapacity() const;

  protected:
    void DoDispose() override;

  private:
    /**
     * \brief Take the front item out and count it out, as Queue::DoDequeue does.
     * \return the item, or null when the queue is empty
     */
    Ptr<Item> TakeFront();

    using Queue<Item>::DropBeforeEnqueue;
    using Queue<Item>::DropAfterDequeue;

    boost::circular_buffer<Ptr<Item>> m_items; //!< the items, front first
    NS_LOG_TEMPLATE_DECLARE;                   //!< the log component
};

extern template class LeanLinkFifoQueue<Packet>;
extern template class LeanLinkFifoQueue<QueueDiscItem>;

} // namespace ns3

#endif /* LEAN_LINK_FIFO_QUEUE_H */
