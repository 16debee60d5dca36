/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ONCACHE_LRU_CACHE_H
#define ONCACHE_LRU_CACHE_H

#include "oncache-check.h"

#include <cstdint>
#include <functional>
#include <list>
#include <string>
#include <unordered_map>
#include <utility>

namespace ns3
{

/**
 * \ingroup oncache
 * \brief A bounded map with least-recently-used eviction, the model of a BPF LRU_HASH map.
 *
 * A lookup or an update marks the entry as most recently used; inserting into a full cache
 * evicts the least recently used entry. Header-only because it is a template.
 */
template <typename K, typename V, typename H = std::hash<K>>
class OncacheLruCache
{
  public:
    /**
     * \brief Create an empty cache.
     * \param capacity the maximum number of entries (at least 1)
     * \param name the name reported in errors (e.g. the Attribute that set the capacity)
     */
    explicit OncacheLruCache(std::size_t capacity = 1, const std::string& name = "capacity")
        : m_capacity(capacity),
          m_evictions(0)
    {
        ONCACHE_REQUIRE(capacity > 0, std::invalid_argument, name << " must be at least 1");
    }

    /**
     * \brief Find an entry and mark it most recently used.
     * \param key the key
     * \return a pointer to the value, or nullptr when absent (valid until the next change)
     */
    V* Lookup(const K& key)
    {
        auto it = m_index.find(key);
        if (it == m_index.end())
        {
            return nullptr;
        }
        m_order.splice(m_order.begin(), m_order, it->second);
        return &it->second->second;
    }

    /**
     * \brief Find an entry without changing its recency.
     * \param key the key
     * \return a pointer to the value, or nullptr when absent
     */
    const V* Peek(const K& key) const
    {
        auto it = m_index.find(key);
        return it == m_index.end() ? nullptr : &it->second->second;
    }

    /**
     * \brief Insert or update an entry, evicting the least recently used one when full.
     * \param key the key
     * \param value the value
     * \param onlyIfAbsent when true (BPF_NOEXIST), leave an existing entry unchanged
     * \return true when the value was written
     */
    bool Insert(const K& key, const V& value, bool onlyIfAbsent = false)
    {
        auto it = m_index.find(key);
        if (it != m_index.end())
        {
            if (onlyIfAbsent)
            {
                return false;
            }
            it->second->second = value;
            m_order.splice(m_order.begin(), m_order, it->second);
            return true;
        }
        if (m_index.size() >= m_capacity)
        {
            m_index.erase(m_order.back().first);
            m_order.pop_back();
            ++m_evictions;
        }
        m_order.emplace_front(key, value);
        m_index.emplace(key, m_order.begin());
        return true;
    }

    /**
     * \brief Delete an entry.
     * \param key the key
     * \return true when an entry was deleted
     */
    bool Erase(const K& key)
    {
        auto it = m_index.find(key);
        if (it == m_index.end())
        {
            return false;
        }
        m_order.erase(it->second);
        m_index.erase(it);
        return true;
    }

    /**
     * \brief Delete every entry whose key and value satisfy a predicate.
     * \param predicate called as predicate(key, value)
     * \return the number of entries deleted
     */
    template <typename P>
    std::size_t EraseIf(P predicate)
    {
        std::size_t erased = 0;
        for (auto it = m_order.begin(); it != m_order.end();)
        {
            if (predicate(it->first, it->second))
            {
                m_index.erase(it->first);
                it = m_order.erase(it);
                ++erased;
            }
            else
            {
                ++it;
            }
        }
        return erased;
    }

    /// \return the number of entries
    std::size_t Size() const
    {
        return m_index.size();
    }

    /// \return the maximum number of entries
    std::size_t Capacity() const
    {
        return m_capacity;
    }

    /**
     * \brief Visit every entry, most recently used first, without changing recency.
     * \param visit called as visit(key, value)
     */
    template <typename F>
    void ForEach(F visit) const
    {
        for (const auto& entry : m_order)
        {
            visit(entry.first, entry.second);
        }
    }

    /// \return the number of entries evicted to make room so far
    uint64_t Evictions() const
    {
        return m_evictions;
    }

  private:
    std::size_t m_capacity;             //!< maximum number of entries
    uint64_t m_evictions;               //!< evictions so far
    std::list<std::pair<K, V>> m_order; //!< entries, most recently used first
    std::unordered_map<K, typename std::list<std::pair<K, V>>::iterator, H> m_index; //!< index
};

} // namespace ns3

#endif /* ONCACHE_LRU_CACHE_H */
