/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FLUID_ENGINE_H
#define FLUID_ENGINE_H

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <tuple>
#include <vector>

namespace ns3
{

/**
 * \ingroup fluid
 * \brief The authors' equal share of one flow: the least capacity / flows over its links.
 *
 * The flow is limited by a watched link when that share comes from a watched link it shares
 * with another flow and every other link would give it more.
 * \param count links of the flow's path
 * \param link link(i) gives the i-th link's capacity (bytes/s), flows on it and whether it is
 *        watched, as std::tuple<double, uint32_t, bool>
 * \param[out] rate the share, bytes/s
 * \param[out] watchedLimited true when a shared watched link set it
 */
template <typename LinkOf>
void
FluidEqualShare(uint32_t count, LinkOf link, double& rate, bool& watchedLimited)
{
    rate = std::numeric_limits<double>::infinity();
    double unwatched = std::numeric_limits<double>::infinity();
    for (uint32_t i = 0; i < count; ++i)
    {
        const auto [capacity, flows, watched] = link(i);
        const double share = capacity / static_cast<double>(flows);
        rate = std::min(rate, share);
        if (!watched || flows < 2)
        {
            unwatched = std::min(unwatched, share);
        }
    }
    watchedLimited = rate < unwatched;
}

/**
 * \ingroup fluid
 * \brief A flow-level network simulator with its own event loop (no ns-3 Simulator).
 *
 * Links are numbered 0..L-1 with a capacity each (bit/s; ClusterTopology::GetLinkCapacities()
 * gives them). A flow is a path (distinct link ids) and a number of bytes. Its rate is
 * fluid: it sends at a constant rate between two events, and the rates change only when a
 * flow starts or finishes. Events are flow starts, flow finishes and plain timers (compute
 * phases); nothing else.
 *
 * Sharing:
 * - MAX_MIN: max-min fair rates by progressive filling. After a start or a finish, only the
 *   connected component (links linked through shared flows) that holds the changed links is
 *   refilled; rates elsewhere cannot change.
 * - EQUAL_SHARE: the vClos authors' model (RapidNetSim task_step.py): a flow
 *   gets min over the links l of its path of capacity(l) / flows(l), i.e. capacity / number
 *   of flows on the most loaded link when capacities are equal. Capacity left unused by flows
 *   held elsewhere is not redistributed. Only flows that share a link with the started or
 *   finished flow are re-rated.
 *
 * Time is a double in seconds (trace seconds, no scaling). Bytes are conserved up to the
 * rounding of double arithmetic: a flow's remaining bytes are settled (remaining -= rate *
 * elapsed) whenever its rate changes, its finish time is now + remaining / rate, and it is
 * finished exactly at that time. At 1e7 s the resolution of a double is about 2 ns.
 *
 * Order at one instant: all flows finishing at that time (ascending flow id), then timers
 * due then (in scheduling order), then one recomputation of the rates for everything
 * started or finished at that instant. Finish handlers and timers may start flows and
 * schedule timers; a flow started at time t gets its rate at the end of the instant t, which
 * is the same rate it would have got at once. Same inputs, same outputs.
 *
 * Completion times are kept in a binary heap with lazy deletion (std::push_heap/pop_heap
 * over one vector): a new finish time is pushed as a new entry and the flow's version bumped, and
 * entries of an older version are dropped when they reach the top (the heap is rebuilt from
 * the live entries when stale ones outnumber them). On the 8,192-GPU ECMP benchmark this took
 * less CPU time than Boost's mutable heaps (pairing_heap, and d_ary_heap, whose handles are
 * list nodes): entries are contiguous and a pop touches no node pointers. Timers are in a
 * std::priority_queue too. Flow ids are slots: an id is reused after its flow's finish handler
 * has returned.
 *
 * Bad calls (unknown link, repeated link, empty path, zero bytes, negative delay) throw
 * std::invalid_argument with one line.
 */
class FluidEngine
{
  public:
    /// How flows share a link.
    enum class Sharing
    {
        MAX_MIN,    //!< max-min fair, progressive filling
        EQUAL_SHARE //!< min over the path of capacity / flows on the link (the authors')
    };

    /// A flow's id (a slot; reused after the flow's finish handler returns).
    using FlowId = uint32_t;

    /// Longest path accepted.
    static constexpr uint32_t MAX_PATH_LINKS = 8;

    /// Called when a flow finishes: its id and the tag given to StartFlow.
    using FinishHandler = std::function<void(FlowId, uint64_t tag)>;

    /// Counters since construction.
    struct Stats
    {
        uint64_t flowsStarted = 0;   //!< StartFlow calls
        uint64_t flowsFinished = 0;  //!< flows finished
        uint64_t timersFired = 0;    //!< timers run
        uint64_t instants = 0;       //!< distinct event times processed
        uint64_t recomputations = 0; //!< rate recomputations (one per instant with a change)
        uint64_t flowsRerated = 0;   //!< flows whose rate was computed, summed over recomputations
        uint64_t heapUpdates = 0;    //!< completion-heap pushes and updates
        double bytesFinished = 0;    //!< bytes of the finished flows
    };

    /**
     * \brief An engine over links with these capacities.
     * \param linkCapacityBps capacity per link id, bit/s, each > 0 and finite
     * \param sharing how flows share a link
     */
    FluidEngine(const std::vector<double>& linkCapacityBps, Sharing sharing);

    /// \param handler called for every finished flow (may start flows, schedule timers)
    void SetFinishHandler(FinishHandler handler);

    /**
     * \brief Start a flow now.
     * \param links its path, distinct link ids, 1 to MAX_PATH_LINKS
     * \param count number of links
     * \param bytes its size, > 0
     * \param tag given back to the finish handler
     * \return its id
     */
    FlowId StartFlow(const uint32_t* links, uint32_t count, double bytes, uint64_t tag);

    /**
     * \brief Start a flow now.
     * \param links its path
     * \param bytes its size, > 0
     * \param tag given back to the finish handler
     * \return its id
     */
    FlowId StartFlow(const std::vector<uint32_t>& links, double bytes, uint64_t tag);

    /**
     * \brief Run a callback later.
     * \param delay seconds from now, >= 0 and finite
     * \param callback the timer
     */
    void Schedule(double delay, std::function<void()> callback);

    /**
     * \brief Back to time 0 with no flow, timer or count, as just constructed with the same
     *        links, sharing, watched links and finish handler; keeps its memory for reuse.
     *        Not from inside a finish handler or timer.
     */
    void Reset();

    /**
     * \brief Give the flows started since the last instant their rates now, without moving
     *        time (Step does this first anyway); for callers that read rates between events.
     */
    void UpdateRates();

    /**
     * \brief Process the next instant: its finishes, its timers, then the recomputation.
     * \return false when nothing was left to do
     */
    bool Step();

    /// Process every event until none is left.
    void Run();

    /**
     * \brief Settle what was started since the last instant and tell when the next event is.
     * \return the time of the next flow finish or timer, infinity when there is none
     */
    double GetNextTime();

    /**
     * \brief Run every instant up to and including time t, then move the clock to t, so that
     *        flows started next start at t (for a caller whose own clock drives the engine).
     * \param t a time not before GetNow()
     */
    void AdvanceTo(double t);

    /**
     * \param id an active or finishing flow
     * \return whether its rate was ever set by a watched link it shared with another flow
     *         (max-min: it froze at such a link; equal share: such a link gave it less than
     *         its other links would)
     */
    bool IsWatchedLimited(FlowId id) const;

    /**
     * \brief Say which links count for GetMaxSharing and IsWatchedLimited (default: all).
     * \param watched per link id, whether sharing on it is noted
     */
    void SetWatchedLinks(const std::vector<bool>& watched);

    /// \return the current time, seconds
    double GetNow() const;
    /// \return flows started and not finished
    uint32_t GetActiveFlowCount() const;
    /// \param id a flow \return true while it has not finished
    bool IsActive(FlowId id) const;
    /// \param id an active flow \return its current rate, bit/s (0 until its instant ends)
    double GetRate(FlowId id) const;
    /// \param id an active flow \return its bytes still to send at the current time
    double GetRemainingBytes(FlowId id) const;
    /// \param id an active flow \return its scheduled finish time, seconds
    double GetFinishTime(FlowId id) const;
    /// \param id an active flow, or the flow whose finish handler is running
    /// \return the time it started, seconds
    double GetStartTime(FlowId id) const;
    /**
     * \brief The conflicting-flow measure of a flow: the largest number of flows (itself
     *        included) seen on one link of its path at the end of any instant of its life.
     * 1 means it never shared a link; the conflicting flows that
     * RapidNetSim's task_step.py counts are those above 1.
     * \param id an active flow, or the flow whose finish handler is running
     * \return the count
     */
    uint32_t GetMaxSharing(FlowId id) const;
    /// \param link a link \return the number of active flows on it
    uint32_t GetLinkFlowCount(uint32_t link) const;
    /// \return the number of links
    uint32_t GetLinkCount() const;
    /// \return the counters
    const Stats& GetStats() const;

  private:
    /// A completion-heap entry: live while the flow is in the heap with this version.
    struct Completion
    {
        double time;      //!< finish time
        FlowId flow;      //!< the flow
        uint32_t version; //!< the flow's version when pushed
    };

    /// Orders the completion heap: earliest time first, then lowest flow id.
    struct Later
    {
        /// \param a an entry \param b an entry \return true when a comes after b
        bool operator()(const Completion& a, const Completion& b) const
        {
            return a.time > b.time || (a.time == b.time && a.flow > b.flow);
        }
    };

    /// One flow slot.
    struct Flow
    {
        uint32_t links[MAX_PATH_LINKS];     //!< path
        uint32_t posInLink[MAX_PATH_LINKS]; //!< index in each link's flow list
        uint32_t count = 0;                 //!< path length
        bool active = false;                //!< started and not finished
        bool inHeap = false;                //!< has a live completion entry
        uint64_t tag = 0;                   //!< caller's tag
        double bytes = 0;                   //!< size
        double remaining = 0;               //!< bytes left at `since`
        double since = 0;                   //!< time `remaining` was settled
        double rate = 0;                    //!< bytes/s
        double newRate = 0;                 //!< scratch: rate being computed
        double start = 0;                   //!< start time
        uint32_t maxSharing = 0;            //!< most flows seen on one of its links
        bool watchedLimited = false;        //!< its rate was once set by a shared watched link
        uint64_t mark = 0;                  //!< scratch: visit epoch
        double finish = 0;                  //!< finish time of its live entry
        uint32_t version = 0;               //!< bumped at every push: older entries are stale
    };

    /// One link.
    struct Link
    {
        double capacity = 0;       //!< bytes/s
        std::vector<FlowId> flows; //!< active flows on it
        double residual = 0;       //!< scratch: capacity left in progressive filling
        uint32_t unfrozen = 0;     //!< scratch: flows without a rate yet
        uint64_t mark = 0;         //!< scratch: visit epoch
        bool dirty = false;        //!< its flow set changed in this instant
        bool watched = true;       //!< counts for GetMaxSharing
    };

    /// A timer.
    struct Timer
    {
        double time;   //!< when
        uint64_t seq;  //!< scheduling order
        uint32_t slot; //!< index in m_timerCallbacks
    };

    /// Orders timers: earliest first, then first scheduled.
    struct TimerLater
    {
        /// \param a a timer \param b a timer \return true when a comes after b
        bool operator()(const Timer& a, const Timer& b) const
        {
            return a.time > b.time || (a.time == b.time && a.seq > b.seq);
        }
    };

    /// An entry of the progressive-filling heap: a link's fair share when it was pushed.
    struct FillEntry
    {
        double share;  //!< residual / unfrozen flows (a lower bound of the current share)
        uint32_t link; //!< the link
    };

    /// Orders the filling heap: smallest share first, then lowest link id (deterministic).
    struct FillLater
    {
        /// \param a an entry \param b an entry \return true when a comes after b
        bool operator()(const FillEntry& a, const FillEntry& b) const
        {
            return a.share > b.share || (a.share == b.share && a.link > b.link);
        }
    };

    /// \param id a flow id \param what the caller, for the error
    void CheckActive(FlowId id, const char* what) const;
    /// \param id an active flow or the finishing one \param what the caller, for the error
    void CheckKnown(FlowId id, const char* what) const;
    /// \param f a flow being re-rated: raise its maxSharing to its links' current counts
    void NoteSharing(Flow& f);
    /// \param link a link whose flow set changed
    void MarkDirty(uint32_t link);
    /// Recompute the rates touched by this instant's starts and finishes.
    void Recompute();
    /// Max-min: refill, one by one, the components holding the dirty links.
    void RecomputeMaxMin();
    /**
     * \brief Progressive filling of one component: its links in m_compLinks, its flows the
     *        last `flowCount` of m_compFlows (marked unfrozen).
     * \param flowCount number of flows of the component
     */
    void FillComponent(std::size_t flowCount);
    /// Equal share: re-rate the flows on the dirty links.
    void RecomputeEqualShare();
    /// \param id a flow whose newRate is computed: settle it and update its completion
    void ApplyRate(FlowId id);
    /// \param id a flow to finish now
    void Finish(FlowId id);
    /// Drop stale entries from the top of the completion heap, and rebuild it from the live
    /// entries when stale ones outnumber them.
    void PruneCompletions();
    /// \return the time of the next event, or +infinity
    double NextTime();

    Sharing m_sharing;                     //!< sharing model
    std::vector<Link> m_links;             //!< by id
    std::vector<Flow> m_flows;             //!< by slot
    std::vector<FlowId> m_freeSlots;       //!< reusable slots (LIFO)
    std::vector<uint32_t> m_dirtyLinks;    //!< links changed in this instant
    std::vector<Completion> m_completions; //!< finish times, a binary heap (Later)
    std::priority_queue<Timer, std::vector<Timer>, TimerLater> m_timers; //!< timers
    std::vector<std::function<void()>> m_timerCallbacks;                 //!< by slot
    std::vector<uint32_t> m_freeTimerSlots;                              //!< reusable timer slots
    uint64_t m_timerSeq = 0;  //!< next timer sequence number
    FinishHandler m_onFinish; //!< finish handler
    double m_now = 0;         //!< current time, s
    uint32_t m_active = 0;    //!< active flows
    int64_t m_finishing = -1; //!< the flow whose finish handler runs, or -1
    uint64_t m_epoch = 0;     //!< visit epoch for scratch marks
    Stats m_stats;            //!< counters
    // Scratch buffers, kept to avoid allocation per recomputation.
    std::vector<uint32_t> m_compLinks; //!< links of the component
    std::vector<FlowId> m_compFlows;   //!< flows of the component
    std::vector<FillEntry> m_fillHeap; //!< progressive-filling heap
};

} // namespace ns3

#endif /* FLUID_ENGINE_H */
