/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ONCACHE_KV_TRACKER_H
#define ONCACHE_KV_TRACKER_H

#include "ns3/application-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup oncache
 * \brief Statistics of key-value clients, fed by their Transaction trace sources:
 *        transactions per second and latency mean and percentiles over a measurement window.
 */
class OncacheKvTracker : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    OncacheKvTracker();

    /**
     * \brief Listen to the Transaction trace of every OncacheKvClient in a container.
     * \param clients the clients
     */
    void Install(const ApplicationContainer& clients);

    /// Forget what was recorded and start the window now (e.g. after a warm-up).
    void Reset();

    /// \return the transactions completed in the window
    uint64_t GetTransactions() const;

    /// \return transactions per second from the window start to now
    double GetRate() const;

    /// \return the mean latency (0 without transactions)
    Time GetMeanLatency() const;

    /**
     * \param percent a percentile in [0, 100]
     * \return the nearest-rank latency percentile (0 without transactions)
     * \throws std::out_of_range for a percentile outside [0, 100]
     */
    Time GetPercentile(double percent) const;

    /**
     * \brief Transaction trace sink.
     * \param latency the request's latency
     * \param valueBytes its value size
     */
    void OnTransaction(Time latency, uint32_t valueBytes);

  private:
    Time m_windowStart;                   //!< start of the window
    std::vector<int64_t> m_latency;       //!< latencies in the window, time steps
    mutable bool m_sorted;                //!< m_latency is sorted
    mutable std::vector<int64_t> m_order; //!< sorted copy
};

} // namespace ns3

#endif /* ONCACHE_KV_TRACKER_H */
